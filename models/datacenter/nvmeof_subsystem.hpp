#pragma once
// NvmeofSubsystem: the datacenter's NVMe-oF targets (models/storage/nvmeof_targets.hpp) on the
// front-end or the backend network, as the checkpoint target of training jobs that name nvmeof:
// each node writes its share of a checkpoint to its namespace on a target, and a restart reads it
// back, as flows through the namespace's queue, the target's drives and, over TCP, both ends'
// cores. Summary nvmeof/...: bytes, checkpoint write and read times, core-seconds.

#include <memory>
#include <vector>

#include "models/datacenter/datacenter_parts.hpp"
#include "models/datacenter/subsystem.hpp"
#include "models/storage/nvmeof_targets.hpp"

namespace dcsim::models::datacenter {

class NvmeofSubsystem final : public Subsystem, public seams::CheckpointNamespaces {
 public:
  // Throws sim::ConfigError naming the field: "network" (the datacenter lacks it), "targets" (a
  // target that is a cluster node, an OSD host of the store on that network, or not a host of
  // it), and the targets' own fields (nvmeof_targets.hpp). Attaches itself to the cluster.
  explicit NvmeofSubsystem(const SubsystemContext& context);
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
  std::unique_ptr<storage::NvmeofTargets> targets_;
  std::vector<double> write_s_, read_s_;
  std::int64_t writes_failed_ = 0, reads_failed_ = 0;
};

}  // namespace dcsim::models::datacenter
