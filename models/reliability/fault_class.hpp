#pragma once
// What can fail, how often, for how long, and what it does: the fault classes of the random fault
// model (FaultProcess). Plain data; the scenario layer fills it from /reliability, presets
// (llama3_faults.hpp) give published defaults.
//
// A class fails instances of one component kind at `rate_per_hour` per instance (an up instance;
// an instance under repair cannot fail, fault_process.hpp). The effect says what the fault does
// to the component, not how the cluster reacts (that is the failover policy's business).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/reliability/inventory.hpp"
#include "models/reliability/recovery_stages.hpp"
#include "sim/distribution.hpp"

namespace dcsim::models::reliability {

enum class FaultEffect {
  kNodeDown,         // the node is unusable until repaired (GPU, HBM, PSU, CPU, memory ...)
  kJobCrash,         // the job on the node dies (software, NCCL watchdog, silent data corruption);
                     // the node is usable again after the short repair (restart, reboot, diagnostics)
  kNicDown,          // one NIC port is down until repaired (a bond may fail over, else the job dies)
  kLinkDown,         // one fabric cable (or its optics) is down until repaired
  kSwitchDown,       // one fabric switch and all its links are down until repaired
  kZoneCoolingLoss,  // a cooling zone loses its heat removal until repaired
  // A GPU computes wrong numbers without any error raised: the job on the node runs on corrupted
  // from then on until its loss checks catch it (with the cluster's detection probability, some
  // steps later: the job rolls back to its last clean checkpoint and the node is quarantined for
  // the repair time) or never (a wrong result). Llama 3's table counts only the detected ones,
  // as job crashes (llama3_faults.hpp).
  kSilentCorruption,
  kOsdHostDown,  // a host of the shared store goes down with its OSDs until repaired
  kOsdDown,      // one OSD (drive) of the shared store goes down until repaired, its host up
};
inline constexpr std::size_t kFaultEffectCount = 9;

std::string_view effect_name(FaultEffect e);  // "node_down", "job_crash", ...
std::optional<FaultEffect> parse_effect(std::string_view name);
std::vector<std::string> effect_names();
// Node effects need a component that belongs to a node (gpu, node, nic); the others their own
// kind (nic_down: nic, link_down: link, switch_down: switch, zone_cooling_loss: zone,
// osd_host_down: osd_host, osd_down: osd).
bool effect_applies_to(FaultEffect e, ComponentKind k);

struct FaultClass {
  std::string name;  // unique in a config; names the class's random stream and its counters
  ComponentKind component = ComponentKind::kGpu;
  // Faults per hour per instance of `component`, >= 0 (0: the class never fires). With a Weibull
  // shape != 1 this is 1 / MTTF: the Weibull scale is chosen so that the mean time to failure of
  // a new instance is 1 / rate (weibull_scale_hours).
  double rate_per_hour = 0.0;
  // 1: exponential lifetimes (constant hazard). < 1: infant mortality, > 1: wear-out. > 0.
  double weibull_shape = 1.0;
  sim::Distribution repair_s;  // time to repair, seconds (values below 0 count as 0)
  FaultEffect effect = FaultEffect::kNodeDown;
  // Detection and diagnosis of an interruption by this class (recovery_stages.hpp); none: the
  // operations preset's for its effect.
  std::optional<RecoveryStages> recovery;
};

struct FaultModelConfig {
  std::string preset = "none";  // where the classes came from ("llama3_405b", "none"); informative
  std::vector<FaultClass> classes;
  double scale = 1.0;           // multiplies every class's rate (a what-if knob), >= 0
  Inventory inventory;
  // How a node uses its compute NICs. false: each NIC is a GPU's rail (rail-optimised, as in the
  // Llama 3 cluster, whose table counts NIC faults as job interruptions): a NIC down stops the
  // node's collectives. true: the NICs are bonded (traffic fails over to the survivors): the
  // node's jobs run on, and only the loss of every NIC of a node interrupts them.
  bool nic_bonding = false;
  // How the site's operations detect and diagnose what interrupts a job (recovery_stages.hpp).
  Operations operations = Operations::kAutomated;
};

// The stages an interruption by `c` goes through: its own, else the operations preset's.
RecoveryStages recovery_stages(const FaultModelConfig& config, const FaultClass& c);

// Faults per hour that interrupt one node's jobs (node_down, job_crash, silent_data_corruption,
// and nic_down classes unless the NICs are bonded; each rate x scale x its instances on one
// node): what checkpoint
// intervals are optimised against. With bonding, losing every NIC of a node at once is left out
// (it needs nics_per_node overlapping repairs).
// Weibull classes count at 1 / MTTF, their long-run rate for repairs short against the MTTF.
double node_interruption_rate_per_hour(const FaultModelConfig& config);

// Weibull scale (hours) with mean lambda * Gamma(1 + 1/k) = 1 / rate: MTTF = 1 / rate.
double weibull_scale_hours(double rate_per_hour, double shape);

// Throws sim::ConfigError naming the field ("classes[2].weibull_shape", "scale") for a rate or
// scale below 0 or not finite, a shape <= 0, an invalid repair distribution, a duplicate or empty
// class name, or an effect that does not apply to the class's component.
void validate(const FaultModelConfig& config);

}  // namespace dcsim::models::reliability
