#pragma once
// Analytic collective estimates for a node spec and fabric, algorithm choice as NCCL makes it,
// and nccl-tests-style sweeps. What the CLI (`dcsim collective`) and the training model call.
//
// Algorithm choice ("auto"). NCCL evaluates its cost model (latency + bytes / bandwidth) for
// every enabled (algorithm, protocol) pair and runs the cheapest (src/enqueue.cc,
// updateCollCostTable; src/graph/tuning.cc). "auto" does the same over the algorithms NCCL itself
// considers: ring, tree and nvls for all_reduce (tree and nvls only where they run: tree is
// all_reduce only, nvls needs one NVSwitch domain with NVLS), ring for everything else; and
// every enabled protocol. Consequences on HGX H100: NVLS for large all_reduce inside a node, ring
// LL/LL128 for small ones there; tree for small multi-node all_reduce (log2 N latency), ring for
// large multi-node ones. "hierarchical" is never chosen automatically (NCCL has no such
// algorithm; its tree already is two-level), but can be asked for.

#include <string>
#include <string_view>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/hardware/node_spec.hpp"

namespace dcsim::models::collective {

// The fabric as the collective model sees it (plain values; the scenario layer fills them).
struct FabricParams {
  int nics_per_node = 0;           // 0: the node's compute_nics
  double nic_bandwidth_bps = 0.0;  // 0: the node's compute_nic_bandwidth_bps
  // Port-to-port latency of one switch. No current datasheet figure: the midpoint of the 2012-era
  // 250-850 ns range [blog.ipspace.net 2021-04, B] (shared/reference/public-figures.md).
  double per_hop_latency_ns = 550.0;
  int switch_hops = 3;             // leaf - spine - leaf between two nodes
  double cable_latency_ns = 0.0;   // propagation, 5 ns/m x the path's cable length
};

// The communicator of `gpus` GPUs (0: all GPUs of `nodes` nodes) on `nodes` nodes of `node`.
// gpus <= node.gpus runs on one node; more must be a multiple of node.gpus and at most
// nodes x node.gpus. Throws sim::ConfigError naming "gpus", "nodes" or "fabric.*".
CollectiveSystem make_collective_system(const hardware::NodeSpec& node, int nodes,
                                        const FabricParams& fabric, int gpus = 0);

// Best (lowest time) estimate of `algorithm` ("auto" or a registry name) over the enabled
// protocols. Throws sim::ConfigError("bytes", ...) for bytes <= 0, sim::InputError for an unknown
// algorithm (listing the valid ones), sim::ConfigError("algorithm", ...) when the algorithm
// cannot run `op` on `system`.
CollectiveEstimate estimate_collective(const CollectiveRegistry& registry, CollectiveOp op,
                                       double bytes, const CollectiveSystem& system,
                                       const CollectiveTuning& tuning = {},
                                       std::string_view algorithm = "auto");

// One row of an nccl-tests table.
struct CollectiveRow {
  double bytes = 0.0;
  double time_s = 0.0;
  double algbw_GBps = 0.0;  // bytes / time / 1e9
  double busbw_GBps = 0.0;  // algbw x bus_bandwidth_factor(op, ranks)
  std::string algorithm;
  Protocol protocol = Protocol::kSimple;
};

struct CollectiveSweep {
  CollectiveOp op = CollectiveOp::kAllReduce;
  int ranks = 0;
  std::vector<CollectiveRow> rows;
};

CollectiveSweep collective_sweep(const CollectiveRegistry& registry, CollectiveOp op,
                                 const std::vector<double>& sizes_bytes,
                                 const CollectiveSystem& system,
                                 const CollectiveTuning& tuning = {},
                                 std::string_view algorithm = "auto");

// min, min x factor, ... up to max inclusive (nccl-tests -b/-e/-f). min > 0, max >= min,
// factor > 1, else sim::ConfigError naming "sizes".
std::vector<double> size_sweep(double min_bytes, double max_bytes, double factor = 2.0);

}  // namespace dcsim::models::collective
