#pragma once
// Random faults (fault_process.hpp) acting through the seams of the models that own the failed
// parts (a subsystem of the datacenter: models/datacenter/subsystems.cpp hands it its section
// and the seams):
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
//                        signal: the store, storage/storage_subsystem.hpp, acts on it);
//   osd_down             one OSD (drive) of the store goes down until its repair, its host up
//                        (a StoreHostChange with its drive).
// Every fault is a row of the `faults` table and a FaultNotice signal; its repair is a notice too.
// A fault that interrupts jobs carries its detection and diagnosis (recovery_stages.hpp), drawn
// from the class's own stream "recovery/<class>" (so the fault times and repairs do not move).
// When the node owner acts on a precursor signal (a predictive failover policy), a
// FaultPrecursor listens to the fault process and its alarms go to NodeFaultTarget::warn_node.
//
// Instances map to parts by index: the inventory's node n is cluster node n, cable i the
// fabric's i-th cable, switch i its i-th switch, zone i the facility's zone i (modulo the part
// count when the inventory was given by hand and differs).

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/reliability/fault_precursor.hpp"
#include "models/reliability/fault_process.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/fabric_fault_target.hpp"
#include "models/seams/node_fault_target.hpp"
#include "models/seams/subsystem.hpp"
#include "models/seams/zone_cooling_target.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::reliability {

// The parts random faults act on; any may be null (that part is not in the scenario).
struct FaultTargets {
  seams::NodeFaultTarget* nodes = nullptr;
  std::unique_ptr<seams::FabricFaultTarget> fabric;  // the assembly's adapter of the backend
  seams::ZoneCoolingTarget* zones = nullptr;
};

class FaultEffects final : public seams::Subsystem {
 public:
  // An invalid precursor setting: those are the node owner's failover policy's parameters
  // ("failover_params.<field>"), not this config's.
  class PrecursorConfigError : public sim::ConfigError {
    using sim::ConfigError::ConfigError;
  };
  // Throws sim::ConfigError (fault_class.hpp fields) for an invalid config, PrecursorConfigError
  // for the precursor the node owner wants.
  FaultEffects(FaultModelConfig config, std::uint64_t seed, sim::Time horizon, FaultTargets targets,
               const seams::DatacenterSignals& signals, sim::Simulator& simulator, sim::TraceSink& sink);
  FaultEffects(const FaultEffects&) = delete;
  FaultEffects& operator=(const FaultEffects&) = delete;

  void start() override;
  // Summary: reliability/faults_total, reliability/faults/<class>, reliability/expected_faults.
  void finish() override;

 private:
  void act(const Fault& fault, bool repaired);
  void act_on_nic(const Fault& fault, const std::string& cause, bool repaired);
  // The fault's detection and diagnosis, drawn from its class's recovery stream. O(1).
  seams::RecoveryDelay draw_recovery(const Fault& fault);

  FaultTargets targets_;
  sim::Time horizon_;
  const seams::DatacenterSignals& signals_;
  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  sim::TableId table_ = 0;
  bool nic_bonding_ = false;
  int nics_per_node_ = 1;
  int osds_per_host_ = 1;
  std::unordered_map<int, int> nics_down_;  // node -> NICs down now (bonding; nodes with a NIC down only)
  std::vector<RecoveryStages> recovery_;    // per class
  std::vector<sim::RandomStream> recovery_rng_;
  std::unique_ptr<FaultProcess> faults_;
  std::unique_ptr<FaultPrecursor> precursor_;
};

}  // namespace dcsim::models::reliability
