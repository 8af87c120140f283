#pragma once
// Scripted node faults (/faults entries of kinds `node`, `job_crash` and
// `silent_data_corruption`): a node goes down at a given time (its jobs are interrupted and
// handed to the failover policy), comes back after a duration or at a scripted `up`, its jobs
// crash while it stays up, or a GPU of it corrupts its jobs silently. They act through the same
// seam as random faults (NodeFaultTarget), so a scripted fault and a random one of the same kind
// do the same thing. Each is a row of the `node_faults` table and a FaultNotice.

#include <string>
#include <vector>

#include "models/reliability/scripted_node_fault.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/node_fault_target.hpp"
#include "models/seams/subsystem.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::reliability {

class ScriptedNodeFaults final : public seams::Subsystem {
 public:
  // Throws sim::ConfigError ("node_faults[i].node") for a node the cluster does not have, or
  // ("node_faults") when there is no cluster.
  ScriptedNodeFaults(std::vector<ScriptedNodeFault> faults, seams::NodeFaultTarget* nodes, const seams::DatacenterSignals& signals,
                     sim::Simulator& simulator, sim::TraceSink& sink);
  void start() override;

 private:
  void apply(std::size_t index);

  std::vector<ScriptedNodeFault> faults_;
  seams::NodeFaultTarget* nodes_;
  const seams::DatacenterSignals& signals_;
  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  sim::TableId table_ = 0;
};

}  // namespace dcsim::models::reliability
