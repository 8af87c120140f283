#include "models/collective/collective_types.hpp"

#include "sim/error.hpp"

namespace dcsim::models::collective {

std::string_view op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllReduce: return "all_reduce";
    case CollectiveOp::kAllGather: return "all_gather";
    case CollectiveOp::kReduceScatter: return "reduce_scatter";
    case CollectiveOp::kAllToAll: return "all_to_all";
    case CollectiveOp::kBroadcast: return "broadcast";
    case CollectiveOp::kPointToPoint: return "point_to_point";
  }
  return "?";
}

std::vector<CollectiveOp> all_ops() {
  return {CollectiveOp::kAllReduce, CollectiveOp::kAllGather, CollectiveOp::kReduceScatter,
          CollectiveOp::kAllToAll,  CollectiveOp::kBroadcast, CollectiveOp::kPointToPoint};
}

CollectiveOp parse_op(std::string_view name) {
  for (CollectiveOp op : all_ops()) {
    if (name == op_name(op)) return op;
  }
  if (name == "sendrecv") return CollectiveOp::kPointToPoint;
  std::string valid;
  for (CollectiveOp op : all_ops()) valid += (valid.empty() ? "" : ", ") + std::string(op_name(op));
  throw sim::InputError("unknown collective op '" + std::string(name) + "'; valid: " + valid);
}

std::string_view protocol_name(Protocol p) {
  switch (p) {
    case Protocol::kLL: return "LL";
    case Protocol::kLL128: return "LL128";
    case Protocol::kSimple: return "Simple";
  }
  return "?";
}

double bus_bandwidth_factor(CollectiveOp op, int ranks) {
  const double n = ranks;
  switch (op) {
    case CollectiveOp::kAllReduce: return 2.0 * (n - 1.0) / n;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllToAll: return (n - 1.0) / n;
    case CollectiveOp::kBroadcast:
    case CollectiveOp::kPointToPoint: return 1.0;
  }
  return 1.0;
}

CollectiveTuning CollectiveTuning::ideal(double alpha_us) {
  constexpr double kUncapped = 1e12;  // GB/s: no cap
  CollectiveTuning t;
  for (int p = 0; p < kProtocolCount; ++p) {
    t.ring_base_latency_us[p] = 0.0;
    t.tree_base_latency_us[p] = 0.0;
    t.ring_nvlink_step_us[p] = alpha_us;
    t.tree_nvlink_step_us[p] = alpha_us;
    t.ring_net_step_us[p] = alpha_us;
    t.tree_net_step_us[p] = alpha_us;
    t.ring_protocol_bw_factor[p] = 1.0;
    t.tree_protocol_bw_factor[p] = 1.0;
    t.enable_protocol[p] = p == static_cast<int>(Protocol::kSimple);
  }
  t.nvls_latency_us = alpha_us;
  t.tree_bw_factor = 1.0;
  t.tree_ll128_single_node_factor = 1.0;
  for (int i = 0; i < 3; ++i) {
    t.ll_max_busbw_GBps[i] = kUncapped;
    t.tree_per_channel_GBps[i] = kUncapped;
    t.tree_ll128_per_channel_GBps[i] = kUncapped;
  }
  t.ring_ll128_per_channel_GBps = kUncapped;
  for (auto& row : t.tree_correction) {
    for (double& f : row) f = 1.0;
  }
  t.size_ramp = false;
  t.nvlink_efficiency = 1.0;
  t.nvls_efficiency = 1.0;
  t.network_efficiency = 1.0;
  return t;
}

}  // namespace dcsim::models::collective
