#pragma once
// A batch job as the foundation's cluster model sees it: it asks for whole nodes, arrives at a
// time, and has a fixed amount of work expressed as its run time at nominal clock. Running on a
// throttled GPU (clock factor < 1) stretches it: the work is an Activity whose rate is the clock.

#include <memory>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::workload {

struct TrainingJobPlan;  // training_job.hpp

// One phase of a batch job's utilisation profile: `work` seconds of nominal run time at
// `gpu_utilization`. A profile's phases repeat in order until the job's work is done.
struct UtilizationPhase {
  sim::Time work = sim::Time::zero();
  double gpu_utilization = 1.0;
};

struct JobSpec {
  std::string name;
  sim::Time arrival = sim::Time::zero();
  int nodes = 1;
  // GPUs the job uses on each of its nodes; 0 = all of them (whole nodes). A one-node job asking
  // fewer GPUs than a node has shares the node with other such jobs (trace pods, inference).
  int gpus_per_node = 0;
  sim::Time work = sim::Time::zero();  // run time at nominal clock
  // The run time the user asked for (a trace's requested time, a wall-clock limit): what
  // backfilling policies plan with. It can be wrong both ways; zero = not given, use `work`.
  sim::Time estimate = sim::Time::zero();
  int priority = 0;  // the queue orders by priority (higher first), then arrival
  double gpu_utilization = 1.0;        // utilisation of the job's GPUs while it runs now, 0..1
  // Batch jobs: phases of utilisation that repeat through the run (empty: gpu_utilization
  // throughout). The cluster sets gpu_utilization to the phase in progress.
  std::vector<UtilizationPhase> utilization_profile;
  // Set for a training job: it runs steps and checkpoints (models/cluster/training_job_run)
  // instead of one block of work; `work` is then its nominal duration.
  std::shared_ptr<const TrainingJobPlan> training;
};

}  // namespace dcsim::models::workload
