#pragma once
// Recovery as operations run it (issue 40 item 5). Between a fault and the interrupted job
// running again come, in order:
//   detection   the job hangs on its peers' collectives until a heartbeat or a watchdog notices
//               (a crashing process is seen at once by its launcher);
//   diagnosis   the faulty part is found and excluded (health checks, NCCL tests, an operator);
//   replacement and restart: the failover policy's (a spare swap or the queue, then relaunch
//               and checkpoint reload: policy/failover_policy.hpp).
// Each class of fault draws its detection and diagnosis from distributions, its own or those of
// the site's operations preset for its effect; the cluster adds them to the job's restart delay
// (the job holds its GPUs meanwhile) and reports GPU time by stage.
//
// Presets (figures and sources in docs/models/reliability.md):
//   automated  in-job fault tolerance as production stacks run it: a rank that stops sending
//              heartbeats is declared failed after NVIDIA NVRx's rank_heartbeat_timeout, 300 s
//              (documented default), and self-checks find the faulty node: ByteDance measured
//              detection plus diagnostic tests under 10 minutes on average over 12,288 GPUs
//              (MegaScale, NSDI 2024, section 6.3), taken here as 300 s + 300 s. A crash is
//              seen at once and needs no diagnosis (the node stays in service).
//   manual     operators in the loop, as the BLOOM and OPT-175B logbooks record: PyTorch's NCCL
//              watchdog kills a hung job after its 10-minute default timeout and an hourly job
//              monitor (BLOOM's cron watchdog) reports it within the hour: uniform 10-70 min;
//              finding and replacing the node takes hours ("replacement through the cloud
//              interface can take hours for a single machine", OPT-175B; a weekend's search for
//              a slow node, BLOOM): lognormal with a 2 h median, sigma 0.8 (estimate). A crash
//              is requeued by the scheduler after about 5 minutes (BLOOM: Slurm killed a broken
//              job after about 5 min).
//   none       neither stage: the failover policy acts the instant the fault happens.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/distribution.hpp"

namespace dcsim::models::reliability {

enum class FaultEffect;

enum class Operations { kAutomated, kManual, kNone };

std::string_view operations_name(Operations ops);
std::optional<Operations> parse_operations(std::string_view name);
std::vector<std::string> operations_names();

struct RecoveryStages {
  sim::Distribution detection_s;  // seconds; fixed 0 by default
  sim::Distribution diagnosis_s;
};

// Whether faults of this effect interrupt jobs directly (node_down, job_crash, nic_down,
// link_down, switch_down; silent corruption has its own detection, the loss checks).
bool interrupts_jobs(FaultEffect effect);
// The preset's stages for an interrupting effect (zero for the others).
RecoveryStages operations_stages(Operations ops, FaultEffect effect);

}  // namespace dcsim::models::reliability
