#pragma once
// Random faults (models/reliability) acting through the models that own the failed parts:
//   node_down            the node goes down (its jobs are interrupted and handed to the failover
//                        policy) until its repair;
//   nic_down             with a fabric, that port of the node's host goes down (flows re-route over
//                        the host's other ports, or fail); without bonding (each NIC a GPU's rail)
//                        the node also goes down until the repair; with bonding only the loss of
//                        every NIC of the node takes it down;
//   job_crash            the node's jobs are interrupted; the node stays up;
//   silent_data_corruption  the node's training jobs run on corrupted state until caught (then
//                        rolled back, the node quarantined for the repair time) or never;
//   link_down            the fabric's cable goes down until its repair (flows re-route or wait);
//   switch_down          the fabric's switch goes down until its repair;
//                        without a fabric model, a link or switch fault times out the collective
//                        that used it (NCCL watchdog): one node's jobs are interrupted, as
//                        Llama 3 counts its switch and cable interruptions;
//   zone_cooling_loss    the zone's heat removal stops until its repair;
//   osd_host_down        a host of the shared store goes down until its repair (a StoreHostChange
//                        signal: the store, storage_subsystem.hpp, acts on it);
//   osd_down             one OSD (drive) of the store goes down until its repair, its host up
//                        (a StoreHostChange with its drive).
// Every fault is a row of the `faults` table and a FaultNotice signal; its repair is a notice too.
// When the node owner acts on a precursor signal (a predictive failover policy), a
// FaultPrecursor listens to the fault process and its alarms go to NodeFaultTarget::warn_node.
//
// Instances map to parts by index: the inventory's node n is cluster node n, cable i the
// fabric's i-th cable, switch i its i-th switch, zone i the facility's zone i (modulo the part
// count when the inventory was given by hand and differs).

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/seams/datacenter_signals.hpp"
#include "models/datacenter/datacenter_parts.hpp"
#include "models/datacenter/subsystem.hpp"
#include "models/reliability/fault_precursor.hpp"
#include "models/reliability/fault_process.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::datacenter {

class FaultEffects final : public Subsystem {
 public:
  // Throws sim::ConfigError (fault_class.hpp fields) for an invalid config.
  FaultEffects(reliability::FaultModelConfig config, std::uint64_t seed, sim::Time horizon, DatacenterParts targets,
               const seams::DatacenterSignals& signals, sim::Simulator& simulator, sim::TraceSink& sink);
  FaultEffects(const FaultEffects&) = delete;
  FaultEffects& operator=(const FaultEffects&) = delete;

  void start() override;
  // Summary: reliability/faults_total, reliability/faults/<class>, reliability/expected_faults.
  void finish() override;

 private:
  void act(const reliability::Fault& fault, bool repaired);
  void act_on_nic(const reliability::Fault& fault, const std::string& cause, bool repaired);

  DatacenterParts targets_;
  sim::Time horizon_;
  const seams::DatacenterSignals& signals_;
  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  sim::TableId table_ = 0;
  std::vector<network::LinkId> cables_;  // one direction of each fabric cable
  bool nic_bonding_ = false;
  int nics_per_node_ = 1;
  int osds_per_host_ = 1;
  std::unordered_map<int, int> nics_down_;  // node -> NICs down now (bonding; nodes with a NIC down only)
  std::unique_ptr<reliability::FaultProcess> faults_;
  std::unique_ptr<reliability::FaultPrecursor> precursor_;
};

}  // namespace dcsim::models::datacenter
