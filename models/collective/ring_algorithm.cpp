#include "models/collective/ring_algorithm.hpp"

#include <algorithm>

#include "models/collective/size_ramp.hpp"

namespace dcsim::models::collective {

double nvlink_bandwidth(const CollectiveSystem& s, const CollectiveTuning& t) {
  return s.nvlink_bandwidth_bytes_per_s * t.nvlink_efficiency;
}

double node_network_bandwidth(const CollectiveSystem& s, const CollectiveTuning& t) {
  return s.nics_per_node * s.nic_bandwidth_bps / 8.0 * t.network_efficiency;
}

bool RingAlgorithm::supports(CollectiveOp, const CollectiveSystem& system) const {
  return system.ranks() >= 1;
}

std::optional<CollectiveEstimate> send_recv_estimate(CollectiveOp op, double bytes,
                                                     const CollectiveSystem& s,
                                                     const CollectiveTuning& t, Protocol p) {
  const int pi = static_cast<int>(p);
  const double n = s.ranks();
  const double g = s.gpus_per_node;
  const double factor = t.ring_protocol_bw_factor[pi];
  const bool multi = s.nodes > 1;
  CollectiveEstimate e;
  e.protocol = p;
  double lat_us = t.ring_base_latency_us[pi] +
                  (multi ? t.ring_net_step_us[pi] + fabric_latency_us(s) : t.ring_nvlink_step_us[pi]);
  const double nvl = nvlink_bandwidth(s, t) * factor;
  const double net = node_network_bandwidth(s, t) * factor;
  if (op == CollectiveOp::kAllToAll) {
    const double intra = (g - 1.0) / n * bytes / nvl;
    const double inter = multi ? g * (n - g) / n * bytes / net : 0.0;
    e.bandwidth_s = std::max(intra, inter);
  } else {
    // One GPU's transfer: over NVLink inside a node, else through its share of the NICs (at
    // least one NIC, as a lone sender may use any NIC).
    const double per_gpu_net = std::max(net / g, s.nic_bandwidth_bps / 8.0 * t.network_efficiency * factor);
    e.bandwidth_s = bytes / (multi ? std::min(nvl, per_gpu_net) : nvl);
  }
  e.latency_s = lat_us * 1e-6;
  e.time_s = e.latency_s + e.bandwidth_s;
  return e;
}

std::optional<CollectiveEstimate> RingAlgorithm::estimate(CollectiveOp op, double bytes,
                                                          const CollectiveSystem& s,
                                                          const CollectiveTuning& t,
                                                          Protocol p) const {
  const int pi = static_cast<int>(p);
  if (!t.enable_protocol[pi]) return std::nullopt;
  if (s.ranks() == 1) return CollectiveEstimate{"ring", p, 0.0, 0.0, 0.0};
  if (op == CollectiveOp::kAllToAll || op == CollectiveOp::kPointToPoint) {
    auto e = send_recv_estimate(op, bytes, s, t, p);
    e->algorithm = "ring";
    return e;
  }
  const double n = s.ranks();
  const double nodes = s.nodes;
  double edge = nvlink_bandwidth(s, t);
  if (s.nodes > 1) edge = std::min(edge, node_network_bandwidth(s, t));
  // tuning.cc refinements: LL at half the bus bandwidth capped at llMaxBw, LL128 at 0.92
  // capped per channel. `scaled` shrinks with the channels a small message gets
  // (size_ramp.hpp), `cap` does not.
  double scaled = edge * t.ring_protocol_bw_factor[pi];
  double cap = 0.0;
  if (p == Protocol::kLL) cap = t.ll_max_busbw_GBps[node_count_index(s.nodes)] * 1e9;
  if (p == Protocol::kLL128) scaled = std::min(scaled, t.ring_channels * t.ring_ll128_per_channel_GBps * 1e9);
  const auto capped = [cap](double b) { return cap > 0.0 ? std::min(b, cap) : b; };

  double steps = 0.0, inter_steps = 0.0, wire = 0.0;
  switch (op) {
    case CollectiveOp::kAllReduce:
      steps = 2.0 * (n - 1.0);
      inter_steps = 2.0 * (nodes - 1.0);
      wire = 2.0 * (n - 1.0) / n * bytes;
      break;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
      steps = n - 1.0;
      inter_steps = nodes - 1.0;
      wire = (n - 1.0) / n * bytes;
      break;
    case CollectiveOp::kBroadcast:
      steps = n - 1.0;
      inter_steps = nodes - 1.0;
      wire = bytes;
      break;
    default:
      return std::nullopt;
  }
  CollectiveEstimate e;
  e.algorithm = "ring";
  e.protocol = p;
  e.latency_s = (t.ring_base_latency_us[pi] + (steps - inter_steps) * t.ring_nvlink_step_us[pi] +
                 inter_steps * (t.ring_net_step_us[pi] + fabric_latency_us(s))) *
                1e-6;
  e.tuner_time_s = e.latency_s + wire / capped(scaled);
  e.bandwidth_s = wire / capped(scaled * channel_fraction(bytes, s.ranks(), p, t, true));
  e.time_s = e.latency_s + e.bandwidth_s;
  return e;
}

void register_ring(CollectiveRegistry& registry) {
  registry.add({"ring",
                "NCCL ring: 2(n-1) steps for all_reduce, NVLink inside nodes, all NICs between them",
                {},
                [] { return std::make_unique<RingAlgorithm>(); }});
}

}  // namespace dcsim::models::collective
