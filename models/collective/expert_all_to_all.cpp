#include "models/collective/expert_all_to_all.hpp"

#include <algorithm>

namespace dcsim::models::collective {

ExpertAllToAll expert_all_to_all(const ExpertAllToAllShape& s, double nvlink_bytes_per_s, double nic_bytes_per_s,
                                 double latency_s) {
  ExpertAllToAll out;
  if (s.ep <= 1) return out;
  const double ep = s.ep, k = s.experts_per_token, tr = s.tokens_per_rank, h = s.hidden, b = s.element_bytes;
  const double g = std::min(s.ep, std::max(1, s.domain_gpus));
  const double n = ep / g;
  const double copies = s.max_nodes_per_token > 0 ? std::min({static_cast<double>(s.max_nodes_per_token), k, n}) : k;
  const double nvlink = tr * k * h * b * (g - 1.0) / g, nic = tr * h * b * copies * (n - 1.0) / n;
  out.sent_bytes = tr * k * h * b * (ep - 1.0) / ep;
  out.nvlink_bytes = nvlink * s.load;
  out.nic_bytes = nic * s.load;
  const double t_nic = nic > 0.0 ? nic / nic_bytes_per_s : 0.0;
  out.time_s = (n > 1.0 ? latency_s : 0.0) + s.load * std::max(nvlink / nvlink_bytes_per_s, t_nic);
  return out;
}

}  // namespace dcsim::models::collective
