#include "models/collective/nvls_algorithm.hpp"

namespace dcsim::models::collective {

bool NvlsAlgorithm::supports(CollectiveOp op, const CollectiveSystem& system) const {
  return op == CollectiveOp::kAllReduce && system.nvls && system.nodes == 1 &&
         system.ranks() >= 2;
}

std::optional<CollectiveEstimate> NvlsAlgorithm::estimate(CollectiveOp op, double bytes,
                                                          const CollectiveSystem& s,
                                                          const CollectiveTuning& t,
                                                          Protocol p) const {
  if (!supports(op, s) || p != Protocol::kSimple ||
      !t.enable_protocol[static_cast<int>(Protocol::kSimple)]) {
    return std::nullopt;
  }
  const double n = s.ranks();
  CollectiveEstimate e;
  e.algorithm = "nvls";
  e.protocol = p;
  e.latency_s = t.nvls_latency_us * 1e-6;
  e.bandwidth_s = bytes * (1.0 + 1.0 / n) / (s.nvlink_bandwidth_bytes_per_s * t.nvls_efficiency);
  e.time_s = e.latency_s + e.bandwidth_s;
  return e;
}

void register_nvls(CollectiveRegistry& registry) {
  registry.add({"nvls",
                "NVLink SHARP in-switch all_reduce inside one NVSwitch domain (H100 and later)",
                {},
                [] { return std::make_unique<NvlsAlgorithm>(); }});
}

}  // namespace dcsim::models::collective
