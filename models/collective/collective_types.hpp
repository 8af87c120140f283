#pragma once
// The vocabulary of the collective models: operations, NCCL protocols, the system a collective
// runs on (plain struct), the tuning constants (documented approximations) and the result.
//
// Conventions follow nccl-tests (docs/PERFORMANCE.md): `bytes` is the size nccl-tests prints,
// i.e. the per-rank buffer for all_reduce and broadcast, the total gathered/scattered buffer for
// all_gather and reduce_scatter, the per-rank send buffer for all_to_all and the message for a
// point-to-point transfer. algBW = bytes / time; busBW = algBW x bus_bandwidth_factor(op, n).

#include <string>
#include <string_view>
#include <vector>

namespace dcsim::models::collective {

enum class CollectiveOp { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kBroadcast, kPointToPoint };

// NCCL's protocols: LL (8-byte flag+data stores, lowest latency), LL128 (120 payload bytes per
// 128-byte line), Simple (bulk copies with fences, highest bandwidth, highest latency).
enum class Protocol { kLL = 0, kLL128 = 1, kSimple = 2 };
inline constexpr int kProtocolCount = 3;

std::string_view op_name(CollectiveOp op);  // "all_reduce", ...
// Inverse of op_name (also accepts nccl-tests' "sendrecv" for point_to_point); throws
// sim::InputError listing the valid names.
CollectiveOp parse_op(std::string_view name);
std::vector<CollectiveOp> all_ops();
std::string_view protocol_name(Protocol p);  // "LL", "LL128", "Simple"

// nccl-tests bus-bandwidth factor: all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all
// (n-1)/n; broadcast and point-to-point 1.
double bus_bandwidth_factor(CollectiveOp op, int ranks);

// What one communicator runs on: `nodes` nodes with `gpus_per_node` participating GPUs each
// (ranks = nodes x gpus_per_node), NVLink (through an NVSwitch) inside a node and the back-end
// fabric between nodes. `nics_per_node` NICs of `nic_bandwidth_bps` line rate are usable by this
// communicator's GPUs on a node (rail-optimised: one per GPU on HGX H100).
// `fabric_latency_ns` is the one-way network path latency between two nodes (switch hops x
// per-hop latency + cable propagation), added to every inter-node step.
struct CollectiveSystem {
  int nodes = 1;
  int gpus_per_node = 8;
  double nvlink_bandwidth_bytes_per_s = 450e9;  // per GPU, per direction
  bool nvls = false;                            // NVSwitch with in-switch reduction
  int nics_per_node = 8;
  double nic_bandwidth_bps = 400e9;
  double fabric_latency_ns = 0.0;

  int ranks() const { return nodes * gpus_per_node; }
};

// Constants of the analytic model. Defaults are documented approximations:
//  - latencies (us) from NCCL's own cost model (NVIDIA/nccl src/graph/tuning.cc: baseLat, hwLat
//    for NVLink and NET; NVLS hwLat 25 us);
//  - protocol bandwidth factors from the same file (ring LL 1/4, LL128 0.92, tree LL 1/3.8,
//    tree bandwidth 0.9 of the link);
//  - transport efficiencies: what fraction of line rate NCCL's Simple protocol achieves on a
//    transport. NVLink 0.822 = 370 / 450 GB/s (NVIDIA/nccl-tests#212: ring busBW on 8 x H100);
//    NVLS 0.686: NVLS all-reduce moves S (1 + 1/n) bytes per GPU and direction (multimem
//    ld_reduce of every chunk, then multimem.st), and 476-480 GB/s busBW on 8 x H100
//    (nccl-tests#212, #290) means 308 GB/s on the wire: read-request traffic through the switch
//    is less efficient than the ring's posted writes; network 0.94 = 47 / 50 GB/s per 400G NIC
//    (nccl-tests#290, 46-48 GB/s busBW per NIC between 2 nodes: RoCE/IB headers and flow control).
struct CollectiveTuning {
  // Indexed by Protocol.
  double ring_base_latency_us[kProtocolCount] = {6.6, 14.0, 8.4};
  double tree_base_latency_us[kProtocolCount] = {6.8, 14.0, 8.4};
  double ring_nvlink_step_us[kProtocolCount] = {0.6, 1.9, 3.4};
  double tree_nvlink_step_us[kProtocolCount] = {0.6, 1.25, 4.0};
  double ring_net_step_us[kProtocolCount] = {2.7, 4.0, 14.0};
  double tree_net_step_us[kProtocolCount] = {5.0, 8.5, 14.0};
  double nvls_latency_us = 25.0;  // Simple only
  double ring_protocol_bw_factor[kProtocolCount] = {0.25, 0.92, 1.0};
  double tree_protocol_bw_factor[kProtocolCount] = {1.0 / 3.8, 0.92, 1.0};
  double tree_bw_factor = 0.9;
  double nvlink_efficiency = 370.0 / 450.0;
  double nvls_efficiency = 0.686;
  double network_efficiency = 0.94;
  bool enable_protocol[kProtocolCount] = {true, true, true};

  // Every efficiency 1, every base latency 0 and one per-step latency alpha for every hop, Simple
  // protocol only: the textbook alpha-beta model (tests check the closed forms against it).
  static CollectiveTuning ideal(double alpha_us);
};

// One estimate: the time, and how it was obtained.
struct CollectiveEstimate {
  std::string algorithm;
  Protocol protocol = Protocol::kSimple;
  double time_s = 0.0;
  double latency_s = 0.0;    // the part that does not depend on bytes
  double bandwidth_s = 0.0;  // the part that does
};

}  // namespace dcsim::models::collective
