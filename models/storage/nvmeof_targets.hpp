#pragma once
// NvmeofTargets: remote NVMe namespaces over a fabric (NVMe over Fabrics). Node n's namespace is
// on target t(n) = config.targets[n mod targets]; a write of B bytes from n is one flow n -> t(n)
// of B bytes that crosses, beside the network's links and NICs (one max-min solve):
//   - the target's drives: drives x write bandwidth (reads: x read bandwidth), shared by every
//     namespace on that target;
//   - the namespace's queue: queue_depth x io_bytes / (device latency + added latency), Little's
//     law (a node keeps that many I/Os in flight, each taking that long), per node and direction;
//   - over TCP only: the node's cores (host_cores x per-core rate) and the target's
//     (target_cores x per-core rate), each shared by reads and writes.
// A read is the same flow from t(n) back to n through the read side. The queue bound and the
// bandwidth bounds are taken as separate minima (min(QD x io / latency, bandwidths)), which is
// Little's law exactly away from the knee and at most 2x optimistic at it.
//
// CPU: every byte over TCP costs 1 / per-core rate core-seconds on each end (counters()); RDMA
// moves the data without the CPU.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <vector>

#include "models/seams/flow_network.hpp"
#include "models/storage/nvmeof_config.hpp"

namespace dcsim::models::storage {

struct NvmeofCounters {
  double bytes_written = 0.0;
  double bytes_read = 0.0;
  double host_core_s = 0.0;    // TCP: core-seconds the nodes spent moving the bytes
  double target_core_s = 0.0;  // TCP: the same on the targets
  std::int64_t operations = 0;
  std::int64_t failed_flows = 0;  // no path between a node and its target
};

class NvmeofTargets {
 public:
  using OnDone = std::function<void(bool ok)>;
  // `network` must outlive this object; config.targets are hosts of it (sim::ConfigError
  // "targets" otherwise, or when empty), drives and their bandwidths, latencies, queue depth and
  // I/O size positive (sim::ConfigError naming the field).
  NvmeofTargets(seams::FlowNetwork& network, NvmeofConfig config);
  NvmeofTargets(const NvmeofTargets&) = delete;
  NvmeofTargets& operator=(const NvmeofTargets&) = delete;

  // Every node (a host of the network) writes `bytes_per_node` to its namespace / reads it back;
  // on_done(ok) once every flow has ended (ok false when one failed), as an event, never before
  // the call returns.
  void write(const std::vector<int>& nodes, double bytes_per_node, OnDone on_done);
  void read(const std::vector<int>& nodes, double bytes_per_node, OnDone on_done);

  network::NodeId target_of(int node) const;
  // The shortest time `nodes` nodes (0 to nodes - 1, as spread over the targets) can take to write
  // bytes_per_node each with nothing else running: the busiest target's drives and cores, and one
  // node's queue and cores. A bound (the network only adds), what a checkpoint interval is
  // optimised against.
  double write_bound_s(int nodes, double bytes_per_node) const;
  // The namespace queue's bound, bytes/s: queue_depth x io_bytes / (device + added latency).
  double queue_bytes_per_s(bool write) const;
  const NvmeofConfig& config() const { return config_; }
  NvmeofCounters counters() const { return counters_; }

 private:
  static constexpr network::ResourceId kNone = UINT32_MAX;
  struct NodeSide {
    network::ResourceId queue_write = kNone, queue_read = kNone, cores = kNone;
  };
  struct Target {
    network::ResourceId drives_write = kNone, drives_read = kNone, cores = kNone;
  };
  struct Op {
    std::size_t left = 0;
    bool ok = true;
    OnDone done;
  };
  void transfer(bool write, const std::vector<int>& nodes, double bytes_per_node, OnDone on_done);
  NodeSide& side_of(int node);  // its resources, made on first use

  seams::FlowNetwork& network_;
  NvmeofConfig config_;
  std::vector<Target> targets_;
  std::vector<NodeSide> nodes_;
  std::list<Op> ops_;
  NvmeofCounters counters_;
};

}  // namespace dcsim::models::storage
