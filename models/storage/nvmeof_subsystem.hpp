#pragma once
// NvmeofSubsystem: the datacenter's NVMe-oF targets (models/storage/nvmeof_targets.hpp) on the
// front-end or the backend network, as the checkpoint target of training jobs that name nvmeof:
// each node writes its share of a checkpoint to its namespace on a target, and a restart reads it
// back, as flows through the namespace's queue, the target's drives and, over TCP, both ends'
// cores. Summary nvmeof/...: bytes, checkpoint write and read times, core-seconds.
// A subsystem of the datacenter (models/datacenter/subsystems.cpp picks its section and network).

#include <cstdint>
#include <memory>
#include <vector>

#include "models/seams/checkpoint_store.hpp"
#include "models/seams/flow_network.hpp"
#include "models/seams/subsystem.hpp"
#include "models/storage/nvmeof_targets.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::storage {

// What the targets meet beyond their own section: the network they are hosts of (cluster node i
// is its host i), the store's OSD hosts on that network, and the cluster that checkpoints to them.
struct NvmeofSite {
  seams::FlowNetwork& network;
  int cluster_nodes = 0;
  std::vector<std::uint32_t> store_hosts;
  seams::CheckpointStoreHost& jobs;
};

class NvmeofSubsystem final : public seams::Subsystem, public seams::CheckpointNamespaces {
 public:
  // Throws sim::ConfigError naming the field: "targets" (a target that is a cluster node, an OSD
  // host of the store on that network, or not a host of it), and the targets' own fields
  // (nvmeof_targets.hpp). Attaches itself to the cluster (site.jobs).
  NvmeofSubsystem(const NvmeofConfig& config, const NvmeofSite& site, sim::Simulator& simulator, sim::TraceSink& sink);
  ~NvmeofSubsystem() override;

  void finish() override;

  std::unique_ptr<seams::CheckpointWriter> writer(const std::vector<int>& nodes) override;
  void read(const std::vector<int>& nodes, double bytes_per_node, std::function<void(bool ok)> on_done) override;
  double write_bound_s(double bytes, int nodes) const override {
    return targets_->write_bound_s(nodes, nodes > 0 ? bytes / nodes : 0.0);
  }

 private:
  class Writer;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::unique_ptr<NvmeofTargets> targets_;
  std::vector<double> write_s_, read_s_;
  std::int64_t writes_failed_ = 0, reads_failed_ = 0;
};

}  // namespace dcsim::models::storage
