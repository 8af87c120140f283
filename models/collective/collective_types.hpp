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

// Constants of the analytic model. Defaults are documented approximations, read from NCCL
// 2.30.7 (NVIDIA/nccl master 5067397, 2026-06; "tuning.cc" below is src/graph/tuning.cc):
//  - latencies (us): tuning.cc baseLatencies and hwLatencies (NVLINK and NET rows; NVLS 25 us);
//  - protocol bandwidth factors (tuning.cc, "model refinements"): ring LL 0.5 of Simple, capped
//    at llMaxBws (Hopper, 1 node: 141 GB/s; x86 Intel hosts, 2 nodes: 39, more: 20.4); ring
//    LL128 0.92, capped at 36.7 GB/s per channel (perChMaxRingLL128Bws, Hopper); tree all_reduce
//    0.92 of the link, capped per channel (perChMaxTreeBws, Hopper 38.7 / 41.4 / 36.0 GB/s for
//    1 / 2 / more nodes), tree LL 1/3.8 (capped at llMaxBws), tree LL128 7/9 inside a node and
//    120/128 across nodes, capped per channel (perChMaxTreeLL128Bws 36.7 / 36.7 / 29.0);
//    tree's size correction (treeCorrectionFactor, powers of two from 64 B);
//  - transport efficiencies: what fraction of line rate NCCL's Simple protocol achieves on a
//    transport. NVLink 0.822 = 370 / 450 GB/s (NVIDIA/nccl-tests#212: ring busBW on 8 x H100);
//    NVLS 0.686: NVLS all-reduce moves S (1 + 1/n) bytes per GPU and direction (multimem
//    ld_reduce of every chunk, then multimem.st), and 476-480 GB/s busBW on 8 x H100
//    (nccl-tests#212, #290) means 308 GB/s on the wire: read-request traffic through the switch
//    is less efficient than the ring's posted writes; network 0.94 = 47 / 50 GB/s per 400G NIC
//    (nccl-tests#290, 46-48 GB/s busBW per NIC between 2 nodes: RoCE/IB headers and flow control).
//  - how bandwidth ramps with size (size_ramp.hpp has the formulas): channel counts of an
//    8 x H100 communicator as NCCL logs them ("24 coll channels, 16 nvls channels",
//    "threadThresholds 8/8/64 | 64/8/64", NCCL INFO on AWS p5.48xlarge); threads per channel
//    and per-thread thresholds (src/include/device.h NCCL_{LL,LL128,SIMPLE}_MAX_NTHREADS
//    512/640/512, comm.h NCCL_{LL,LL128,SIMPLE}_THREAD_THRESHOLD 8/8/64, ring LL x ranks);
//    NVLS chunk 128 KiB (src/transport/nvls.cc NCCL_NVLS_CHUNKSIZE) halved for smaller messages
//    (src/enqueue.cc calcCollChunking), and the three warp groups of the single-node NVLS
//    kernel (scatter, multimem reduce/broadcast, gather: src/device/all_reduce.h).
struct CollectiveTuning {
  // Indexed by Protocol.
  double ring_base_latency_us[kProtocolCount] = {6.6, 14.0, 8.4};
  double tree_base_latency_us[kProtocolCount] = {6.8, 14.0, 8.4};
  double ring_nvlink_step_us[kProtocolCount] = {0.6, 1.9, 3.4};
  double tree_nvlink_step_us[kProtocolCount] = {0.6, 1.25, 4.0};
  double ring_net_step_us[kProtocolCount] = {2.7, 4.0, 14.0};
  double tree_net_step_us[kProtocolCount] = {5.0, 8.5, 14.0};
  double nvls_latency_us = 25.0;  // Simple only
  double ring_protocol_bw_factor[kProtocolCount] = {0.5, 0.92, 1.0};
  double tree_protocol_bw_factor[kProtocolCount] = {1.0 / 3.8, 120.0 / 128.0, 1.0};
  double tree_ll128_single_node_factor = 7.0 / 9.0;
  double tree_bw_factor = 0.92;
  double nvlink_efficiency = 370.0 / 450.0;
  double nvls_efficiency = 0.686;
  double network_efficiency = 0.94;
  bool enable_protocol[kProtocolCount] = {true, true, true};

  // Bandwidth caps (GB/s of bus bandwidth), indexed by nodes: [0] one, [1] two, [2] more.
  double ll_max_busbw_GBps[3] = {141.0, 39.0, 20.4};
  double ring_ll128_per_channel_GBps = 36.7;
  double tree_per_channel_GBps[3] = {38.7, 41.4, 36.0};
  double tree_ll128_per_channel_GBps[3] = {36.7, 36.7, 29.0};
  // treeCorrectionFactor[protocol][log2(bytes / 64)], 64 B .. 256 MiB; 1 outside the table.
  double tree_correction[kProtocolCount][23] = {
      {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
      {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

  // Size ramp (size_ramp.hpp). false: every size at full channels, no NVLS pipeline fill and no
  // tree size correction: the plain latency + bytes / bandwidth model.
  bool size_ramp = true;
  int ring_channels = 24;   // also tree's: NCCL builds as many tree as ring channels
  int nvls_channels = 16;
  int max_threads[kProtocolCount] = {512, 640, 512};
  double thread_threshold_bytes[kProtocolCount] = {8.0, 8.0, 64.0};
  int min_threads = 96;  // 3 warps: the fewest NCCL launches per channel
  double nvls_max_chunk_bytes = 128.0 * 1024.0;
  int nvls_pipeline_stages = 3;

  // Every efficiency 1, every base latency 0 and one per-step latency alpha for every hop, Simple
  // protocol only, no size ramp: the textbook alpha-beta model (tests check the closed forms
  // against it).
  static CollectiveTuning ideal(double alpha_us);
};

// One estimate: the time, and how it was obtained.
struct CollectiveEstimate {
  std::string algorithm;
  Protocol protocol = Protocol::kSimple;
  double time_s = 0.0;
  double latency_s = 0.0;    // the part that does not depend on bytes
  double bandwidth_s = 0.0;  // the part that does
  // NCCL's own cost-model time for this (algorithm, protocol): latency + bytes / bandwidth at
  // full channels (tuning.cc, enqueue.cc). NCCL runs the pair with the lowest one, so the
  // estimator chooses by it; time_s adds what that model leaves out (size_ramp.hpp). 0: same as
  // time_s.
  double tuner_time_s = 0.0;

  double choice_time_s() const { return tuner_time_s > 0.0 ? tuner_time_s : time_s; }
};

}  // namespace dcsim::models::collective
