#include "models/collective/tree_algorithm.hpp"

#include <algorithm>
#include <cmath>

#include "models/collective/size_ramp.hpp"

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
  // tuning.cc: tree all_reduce at 0.92 of the link capped per channel, then LL at 1/3.8 capped
  // at llMaxBw, LL128 at 7/9 (one node) or 120/128 capped per channel; enqueue.cc scales it by
  // the tree's size correction. Per-channel caps shrink with the channels (size_ramp.hpp).
  const int ni = node_count_index(s.nodes);
  const double channels = t.ring_channels;
  double b = nvlink_bandwidth(s, t);
  if (s.nodes > 1) b = std::min(b, node_network_bandwidth(s, t));
  b = std::min(b * t.tree_bw_factor, channels * t.tree_per_channel_GBps[ni] * 1e9);
  double cap = 0.0;
  if (p == Protocol::kLL) {
    b *= t.tree_protocol_bw_factor[pi];
    cap = t.ll_max_busbw_GBps[ni] * 1e9;
  } else if (p == Protocol::kLL128) {
    const double f = s.nodes == 1 ? t.tree_ll128_single_node_factor : t.tree_protocol_bw_factor[pi];
    b = std::min(b * f, channels * t.tree_ll128_per_channel_GBps[ni] * 1e9);
  } else {
    b *= t.tree_protocol_bw_factor[pi];
  }
  const double correction = tree_correction(p, bytes, t);
  const auto capped = [cap, correction](double bw) {
    return (cap > 0.0 ? std::min(bw, cap) : bw) * correction;
  };
  const double depth = s.nodes > 1 ? std::ceil(std::log2(static_cast<double>(s.nodes))) : 0.0;
  CollectiveEstimate e;
  e.algorithm = "tree";
  e.protocol = p;
  e.latency_s = (t.tree_base_latency_us[pi] +
                 2.0 * ((s.gpus_per_node - 1) * t.tree_nvlink_step_us[pi] +
                        depth * (t.tree_net_step_us[pi] + fabric_latency_us(s)))) *
                1e-6;
  e.tuner_time_s = e.latency_s + 2.0 * bytes / capped(b);
  e.bandwidth_s = 2.0 * bytes / capped(b * channel_fraction(bytes, s.ranks(), p, t, false));
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
