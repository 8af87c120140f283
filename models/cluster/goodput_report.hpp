#pragma once
// What the cluster reports about interruptions and goodput, declared apart from the mechanisms
// that add to it (the job lifecycle, elastic failover, precursor warnings, preemption, checkpoint
// stalls), as models/network/fabric_report.* is for the fabric: the reliability/* and goodput/*
// summary. Times are GPU-seconds (job GPUs x wall time) unless named otherwise.

#include <cstddef>
#include <map>
#include <string>
#include <utility>

#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

struct GoodputCounts {
  std::size_t interruptions = 0;      // job interruptions by faults
  std::size_t preemptions = 0;        // running jobs a preemptive scheduler stopped
  double preempted_lost_gpu_s = 0.0;  // work preempted jobs lost (part of lost_gpu_s)
  double lost_gpu_s = 0.0;            // work lost (since the last checkpoint)
  double restart_gpu_s = 0.0;         // held by restarting jobs before their work resumed
  // Of restart_gpu_s: faults' detection and diagnosis (seams/recovery_delay.hpp), and their
  // wall time summed over the interruptions.
  double detection_gpu_s = 0.0, diagnosis_gpu_s = 0.0;
  double detection_s = 0.0, diagnosis_s = 0.0;
  double held_gpu_s = 0.0;            // held by jobs
  double stall_s = 0.0;               // wall time jobs stalled at held checkpoints (CheckpointGate)
  double stalled_gpu_s = 0.0;         // GPU time they held meanwhile
  double transfer_gpu_s = 0.0;        // held by cloud jobs while their dataset arrived
  std::map<std::string, std::pair<std::size_t, double>> by_cause;  // cause -> (interruptions, lost GPU-s)
  std::size_t elastic_shrinks = 0, elastic_reforms = 0, elastic_expands = 0;
  double expand_lost_gpu_s = 0.0;     // steps in flight abandoned when a job grew back
  double shrunk_missing_gpu_s = 0.0;  // submitted GPUs an elastic job ran without, x time
  std::size_t alarms = 0, false_alarms = 0, migrations = 0, alarm_stays = 0;
};

// Training jobs' wall time since their first start and the part of it in steps they kept
// (nominal step time x steps saved or done): the "effective training time" of Llama 3's report.
struct TrainingTimeKept {
  double kept_s = 0.0;
  double wall_s = 0.0;
};

// Emits the reliability/* and goodput/* summary of `counts`.
void emit_goodput_summary(const GoodputCounts& counts, const TrainingTimeKept& training, sim::TraceSink& sink);

}  // namespace dcsim::models::cluster
