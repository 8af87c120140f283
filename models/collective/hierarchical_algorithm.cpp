#include "models/collective/hierarchical_algorithm.hpp"

#include "models/collective/ring_algorithm.hpp"

namespace dcsim::models::collective {

bool HierarchicalAlgorithm::supports(CollectiveOp op, const CollectiveSystem& system) const {
  return op != CollectiveOp::kBroadcast && system.ranks() >= 1;
}

std::optional<CollectiveEstimate> HierarchicalAlgorithm::estimate(CollectiveOp op, double bytes,
                                                                  const CollectiveSystem& s,
                                                                  const CollectiveTuning& t,
                                                                  Protocol p) const {
  const int pi = static_cast<int>(p);
  if (!supports(op, s) || !t.enable_protocol[pi]) return std::nullopt;
  if (s.ranks() == 1) return CollectiveEstimate{"hierarchical", p, 0.0, 0.0, 0.0};
  if (op == CollectiveOp::kAllToAll || op == CollectiveOp::kPointToPoint) {
    auto e = send_recv_estimate(op, bytes, s, t, p);
    e->algorithm = "hierarchical";
    return e;
  }
  const double g = s.gpus_per_node;
  const double nodes = s.nodes;
  const double factor = t.ring_protocol_bw_factor[pi];
  const double nvl = nvlink_bandwidth(s, t) * factor;
  const double net = node_network_bandwidth(s, t) * factor;
  const double intra_s = (g - 1.0) / g * bytes / nvl;  // one reduce_scatter or all_gather
  double intra_steps = g - 1.0, inter_steps = nodes - 1.0;
  double inter_s = s.nodes > 1 ? (nodes - 1.0) / nodes * bytes / net : 0.0;
  double intra_total = intra_s;
  if (op == CollectiveOp::kAllReduce) {
    intra_total = 2.0 * intra_s;
    inter_s *= 2.0;
    intra_steps *= 2.0;
    inter_steps *= 2.0;
  }
  CollectiveEstimate e;
  e.algorithm = "hierarchical";
  e.protocol = p;
  e.latency_s = (t.ring_base_latency_us[pi] + intra_steps * t.ring_nvlink_step_us[pi] +
                 inter_steps * (t.ring_net_step_us[pi] + fabric_latency_us(s))) *
                1e-6;
  e.bandwidth_s = intra_total + inter_s;
  e.time_s = e.latency_s + e.bandwidth_s;
  return e;
}

void register_hierarchical(CollectiveRegistry& registry) {
  registry.add({"hierarchical",
                "Two-level: NVLink reduce_scatter/all_gather in nodes, ring across nodes per rail",
                {},
                [] { return std::make_unique<HierarchicalAlgorithm>(); }});
}

}  // namespace dcsim::models::collective
