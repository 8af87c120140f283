#include "models/collective/collective_estimator.hpp"

#include <cmath>
#include <memory>

#include "models/collective/hierarchical_algorithm.hpp"
#include "models/collective/nvls_algorithm.hpp"
#include "models/collective/ring_algorithm.hpp"
#include "models/collective/tree_algorithm.hpp"
#include "models/hardware/nvlink_domain.hpp"
#include "sim/error.hpp"

namespace dcsim::models::collective {

void register_collective_algorithms(CollectiveRegistry& registry) {
  register_ring(registry);
  register_tree(registry);
  register_nvls(registry);
  register_hierarchical(registry);
}

CollectiveSystem make_collective_system(const hardware::NodeSpec& node, int nodes,
                                        const FabricParams& fabric, int gpus) {
  if (node.gpus <= 0) throw sim::ConfigError("node.gpus", "must be a positive integer");
  if (nodes <= 0) throw sim::ConfigError("nodes", "must be a positive integer");
  CollectiveSystem s;
  if (gpus < 0) throw sim::ConfigError("gpus", "must not be negative");
  if (gpus == 0) gpus = nodes * node.gpus;
  if (gpus > nodes * node.gpus) {
    throw sim::ConfigError("gpus", std::to_string(gpus) + " GPUs requested but " +
                                       std::to_string(nodes) + " nodes hold " +
                                       std::to_string(nodes * node.gpus));
  }
  // An NVLink domain of whole nodes (GB200 NVL72: 18 trays) is one NVLink island: a communicator
  // inside it runs on NVLink alone, one across domains has the domain's NICs per island. The
  // ranks are taken as domain-aligned (a job's nodes are consecutive from a domain boundary).
  const int domain = hardware::nvlink_domain(node);
  const int per_domain = hardware::nodes_per_nvlink_domain(node);
  int nic_nodes = 1;  // nodes whose NICs one island has
  if (gpus <= node.gpus || (per_domain > 1 && gpus <= domain)) {
    s.nodes = 1;
    s.gpus_per_node = gpus;
  } else if (per_domain > 1 && gpus % domain == 0) {
    s.nodes = gpus / domain;
    s.gpus_per_node = domain;
    nic_nodes = per_domain;
  } else {
    if (gpus % node.gpus != 0) {
      throw sim::ConfigError("gpus", "more GPUs than one node holds must be a multiple of " +
                                         std::to_string(node.gpus) + ", got " +
                                         std::to_string(gpus));
    }
    s.nodes = gpus / node.gpus;
    s.gpus_per_node = node.gpus;
  }
  s.nvlink_bandwidth_bytes_per_s = node.gpu.nvlink_bandwidth_bytes_per_s;
  s.nvls = node.nvls && node.nvswitch;
  s.nics_per_node = nic_nodes * (fabric.nics_per_node > 0 ? fabric.nics_per_node : node.compute_nics);
  s.nic_bandwidth_bps =
      fabric.nic_bandwidth_bps > 0.0 ? fabric.nic_bandwidth_bps : node.compute_nic_bandwidth_bps;
  if (s.nodes > 1 && (s.nics_per_node <= 0 || !(s.nic_bandwidth_bps > 0.0))) {
    throw sim::ConfigError("fabric.nics_per_node",
                           "a multi-node collective needs at least one NIC with positive bandwidth");
  }
  if (s.gpus_per_node > 1 && !(s.nvlink_bandwidth_bytes_per_s > 0.0)) {
    throw sim::ConfigError("node.gpu.nvlink_bandwidth_bytes_per_s", "must be positive");
  }
  if (fabric.per_hop_latency_ns < 0 || fabric.switch_hops < 0 || fabric.cable_latency_ns < 0) {
    throw sim::ConfigError("fabric.per_hop_latency_ns", "latencies and hops must not be negative");
  }
  s.fabric_latency_ns = fabric.switch_hops * fabric.per_hop_latency_ns + fabric.cable_latency_ns;
  return s;
}

namespace {

std::optional<CollectiveEstimate> best_protocol(const CollectiveAlgorithm& algo, CollectiveOp op,
                                                double bytes, const CollectiveSystem& s,
                                                const CollectiveTuning& t) {
  std::optional<CollectiveEstimate> best;
  for (int p = 0; p < kProtocolCount; ++p) {
    auto e = algo.estimate(op, bytes, s, t, static_cast<Protocol>(p));
    if (e && (!best || e->choice_time_s() < best->choice_time_s())) best = e;
  }
  return best;
}

}  // namespace

CollectiveEstimate estimate_collective(const CollectiveRegistry& registry, CollectiveOp op,
                                       double bytes, const CollectiveSystem& system,
                                       const CollectiveTuning& tuning,
                                       std::string_view algorithm) {
  if (!(bytes > 0.0)) {
    throw sim::ConfigError("bytes", "message size must be positive, got " + std::to_string(bytes));
  }
  if (algorithm != "auto") {
    auto algo = registry.get(std::string(algorithm)).factory();
    if (!algo->supports(op, system)) {
      throw sim::ConfigError("algorithm", std::string(algorithm) + " cannot run " +
                                              std::string(op_name(op)) + " on " +
                                              std::to_string(system.nodes) + " node(s) x " +
                                              std::to_string(system.gpus_per_node) + " GPUs");
    }
    auto e = best_protocol(*algo, op, bytes, system, tuning);
    if (!e) throw sim::ConfigError("algorithm", "no enabled protocol for " + std::string(algorithm));
    return *e;
  }
  static constexpr std::string_view kAllReduceCandidates[] = {"ring", "tree", "nvls"};
  std::optional<CollectiveEstimate> best;
  for (std::string_view name : kAllReduceCandidates) {
    if (op != CollectiveOp::kAllReduce && name != "ring") continue;
    const auto* entry = registry.find(std::string(name));
    if (!entry) continue;
    auto algo = entry->factory();
    if (!algo->supports(op, system)) continue;
    auto e = best_protocol(*algo, op, bytes, system, tuning);
    // NCCL picks by its own cost model (choice_time_s), not by the time it then takes.
    if (e && (!best || e->choice_time_s() < best->choice_time_s())) best = e;
  }
  if (!best) throw sim::ConfigError("algorithm", "no registered algorithm runs " + std::string(op_name(op)));
  return *best;
}

CollectiveSweep collective_sweep(const CollectiveRegistry& registry, CollectiveOp op,
                                 const std::vector<double>& sizes_bytes,
                                 const CollectiveSystem& system, const CollectiveTuning& tuning,
                                 std::string_view algorithm) {
  CollectiveSweep sweep;
  sweep.op = op;
  sweep.ranks = system.ranks();
  const double factor = bus_bandwidth_factor(op, system.ranks());
  for (double bytes : sizes_bytes) {
    const CollectiveEstimate e = estimate_collective(registry, op, bytes, system, tuning, algorithm);
    CollectiveRow row;
    row.bytes = bytes;
    row.time_s = e.time_s;
    row.algbw_GBps = e.time_s > 0.0 ? bytes / e.time_s * 1e-9 : 0.0;
    row.busbw_GBps = row.algbw_GBps * factor;
    row.algorithm = e.algorithm;
    row.protocol = e.protocol;
    sweep.rows.push_back(std::move(row));
  }
  return sweep;
}

std::vector<double> size_sweep(double min_bytes, double max_bytes, double factor) {
  if (!(min_bytes > 0.0)) throw sim::ConfigError("sizes", "the smallest size must be positive");
  if (!(max_bytes >= min_bytes)) throw sim::ConfigError("sizes", "the largest size is below the smallest");
  if (!(factor > 1.0)) throw sim::ConfigError("sizes", "the step factor must exceed 1");
  std::vector<double> out;
  // Relative slack so that 1K x 2^23 reaches 8G despite rounding.
  for (double b = min_bytes; b <= max_bytes * (1.0 + 1e-12); b *= factor) out.push_back(std::round(b));
  return out;
}

}  // namespace dcsim::models::collective
