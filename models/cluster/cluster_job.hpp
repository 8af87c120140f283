#pragma once
// One job as the cluster keeps it (internal to ClusterSimulation's translation units: the
// cluster's bookkeeping, its lifecycle in cluster_lifecycle.cpp).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/cluster_simulation.hpp"
#include "models/cluster/job_report.hpp"
#include "models/cluster/job_run.hpp"
#include "models/cluster/training_job_run.hpp"
#include "models/policy/cluster_view.hpp"
#include "models/workload/job_spec.hpp"
#include "models/workload/step_graph.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

struct ClusterJob {
  // pending (not arrived) -> waiting -> running -> completed; a fault takes running to
  // interrupted, and the failover policy to requeued (waiting again), back to running (spares) or
  // failed (given up).
  enum class State { kPending, kWaiting, kRunning, kDone, kFailed };
  workload::JobSpec spec;
  std::size_t index = 0;   // in the cluster's job list (arrival order)
  std::shared_ptr<const workload::TrainingJobPlan> plan;  // training jobs, with the policy's checkpoint interval
  State state = State::kPending;
  sim::Time start = sim::Time::max();       // first start
  sim::Time run_start = sim::Time::max();   // this run's start (restarts included)
  sim::Time finish = sim::Time::max();
  std::vector<int> nodes;
  int gpus_per_node = 0;   // resolved: every GPU of a node for whole-node jobs
  sim::Time expected_end;  // what policies plan with (start + delay + remaining estimate)
  double energy_at_start_j = 0.0;
  double energy_j = 0.0;   // over every run, up to the last one's end
  bool named = false;      // listed in the scenario (not generated): gets a headline row
  // An unnamed job whose transitions are all logged from now on: a fault or preemption touched
  // it, so its restart and end are needed to tell its phases apart (timelines).
  bool states_logged = false;
  // Restarts: the resume point (nominal seconds of work saved, and the step for training jobs),
  // the delay the next start pays, the pending start of the work after such a delay.
  double resume_s = 0.0;
  int resume_step = 0;
  sim::Time restart_delay;
  // The last fault's detection and diagnosis end at these times (seams/recovery_delay.hpp); what
  // is left of them when the job starts again opens its delay, held on its GPUs (reported apart
  // when the delay ends). A job that waited in the queue meanwhile held none.
  sim::Time detected_at;
  sim::Time recovered_at;
  sim::Time delay_until;  // work starts at this time (run_start + delay)
  // Holding its GPUs before its work begins (a restart's relaunch and checkpoint reload, a read
  // from the store, a dataset's transfer): they draw idle power, as while stalled.
  bool awaiting_work = false;
  sim::EventHandle begin_event;
  int restarts = 0;
  double lost_gpu_s = 0.0;
  // On cloud pool instances in its latest run; ever there; the part of its start delay that is
  // its dataset's transfer to them.
  bool cloud = false;
  bool ran_in_cloud = false;
  sim::Time transfer_delay;
  // Runs: step graphs before runs (a flow-mode executor refers to its graph), retired ones kept
  // until the end (a retired flow-mode step drains on the fabric).
  std::vector<std::unique_ptr<workload::StepGraph>> step_graphs;
  std::vector<std::unique_ptr<JobRun>> retired_runs;
  std::unique_ptr<JobRun> run;
  // Elastic training (elastic_failover.hpp): the plan of the run on fewer DP replicas than
  // submitted (null: `plan`; the failover's, kept there: runs refer to it); the step of the last
  // checkpoint written (resume_step can be later: re-formed from the replicas' memory).
  const workload::TrainingJobPlan* run_plan = nullptr;
  int checkpoint_step = 0;
  // The next start's transition (from, cause); default waiting/requeued -> running.
  std::pair<const char*, std::string> start_label{nullptr, ""};
  // CheckpointGate: its next checkpoint is held; stalled at it since `stalled_since` (accounted
  // up to there); the label the release returns to (null once a migration relabelled it).
  bool checkpoints_held = false;
  bool stalled = false;
  sim::Time stalled_since;
  const char* stall_return = nullptr;
  double stall_s = 0.0;  // over every run
  bool service = false;  // an inference replica (service_jobs.hpp): ended by its service
  // Steps of the checkpoints the job can still restart from, oldest first (training jobs that
  // checkpoint; at most the store's keep_checkpoints when it keeps them there).
  std::vector<int> checkpoint_steps;
  // The next interruption resumes from no later than this step (a caught corruption), -1: none.
  int rollback_step = -1;
  TrainingJobRun* training = nullptr;  // the latest training run (rows read it)
  // Consecutive nodes of its list that one NVLink group spans (policy::WaitingJob); 1 but for
  // training jobs with TP or EP over the trays of a multi-node NVLink domain.
  int nvlink_block_nodes = 1;
  int nvlink_split_starts = 0;  // starts on trays that split such a group over two domains
  TrainingJobRun::Series training_series;
  int gpus() const { return static_cast<int>(nodes.size()) * gpus_per_node; }
  const workload::TrainingJobPlan& current_plan() const { return run_plan ? *run_plan : *plan; }
  // What policies plan with: the user's estimate (else the work) less what the job keeps.
  sim::Time remaining_estimate() const {
    const sim::Time estimate = spec.estimate > sim::Time::zero() ? spec.estimate : spec.work;
    return std::max(estimate - sim::Time::from_seconds(resume_s), sim::Time::zero());
  }
  // The job as the queue holds it; a restart's delay is part of its estimate.
  policy::WaitingJob waiting_entry() const {
    return {index,         spec.nodes,        gpus_per_node, spec.arrival, remaining_estimate() + restart_delay,
            spec.priority, nvlink_block_nodes};
  }
  // Its row in the jobs table (job_report.hpp); `fabric_groups`: distinct ones among its nodes.
  JobReport::Row report_row(int fabric_groups) const {
    const char* label = state == State::kDone      ? "done"
                        : state == State::kFailed  ? "failed"
                        : state == State::kRunning ? "running"
                                                   : "waiting";
    return {spec.name,    spec.nodes, nodes,  gpus_per_node, fabric_groups, label,      state == State::kDone,
            spec.arrival, start,      finish, energy_j,      restarts,      lost_gpu_s, plan.get(),
            training,     stall_s,    named};
  }
  // Its state as job_states names it while it runs.
  const char* running_label() const { return stalled && stall_return != nullptr ? "stalled" : "running"; }
};

}  // namespace dcsim::models::cluster
