#include "models/collective/tree_algorithm.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::collective {

bool TreeAlgorithm::supports(CollectiveOp op, const CollectiveSystem& system) const {
  return op == CollectiveOp::kAllReduce && system.ranks() >= 1;
}

std::optional<CollectiveEstimate> TreeAlgorithm::estimate(CollectiveOp op, double bytes,
                                                          const CollectiveSystem& s,
                                                          const CollectiveTuning& t,
                                                          Protocol p) const {
  const int pi = static_cast<int>(p);
  if (!supports(op, s) || !t.enable_protocol[pi]) return std::nullopt;
  if (s.ranks() == 1) return CollectiveEstimate{"tree", p, 0.0, 0.0, 0.0};
  double b = nvlink_bandwidth(s, t);
  if (s.nodes > 1) b = std::min(b, node_network_bandwidth(s, t));
  b *= t.tree_bw_factor * t.tree_protocol_bw_factor[pi];
  const double depth = s.nodes > 1 ? std::ceil(std::log2(static_cast<double>(s.nodes))) : 0.0;
  CollectiveEstimate e;
  e.algorithm = "tree";
  e.protocol = p;
  e.latency_s = (t.tree_base_latency_us[pi] +
                 2.0 * ((s.gpus_per_node - 1) * t.tree_nvlink_step_us[pi] +
                        depth * (t.tree_net_step_us[pi] + fabric_latency_us(s)))) *
                1e-6;
  e.bandwidth_s = 2.0 * bytes / b;
  e.time_s = e.latency_s + e.bandwidth_s;
  return e;
}

void register_tree(CollectiveRegistry& registry) {
  registry.add({"tree",
                "NCCL double binary tree (all_reduce): NVLink chain in nodes, log2(N) depth across",
                {},
                [] { return std::make_unique<TreeAlgorithm>(); }});
}

}  // namespace dcsim::models::collective
