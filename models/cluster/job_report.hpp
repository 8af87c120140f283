#pragma once
// What the cluster reports about its jobs, declared apart from the lifecycle that decides it, as
// goodput_report.hpp and integrity_report.hpp are: the tables
//   jobs          one row per job, at its end or at the end of the run;
//   summary/jobs  the same for the jobs the scenario names, without placement details
//                 (generated streams can hold 1e5+ jobs: they are summarised by statistics);
//   job_states    transitions with their cause (which ones: the lifecycle decides).
// Cost: a row is O(the job's nodes) (its node list).

#include <span>
#include <string>
#include <vector>

#include "sim/time.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::workload {
struct TrainingJobPlan;
}

namespace dcsim::models::cluster {

class TrainingJobRun;

class JobReport {
 public:
  // A job's row, as the lifecycle knows it.
  struct Row {
    const std::string& name;
    int nodes_asked = 0;
    std::span<const int> nodes;  // held (the last ones, for a finished job)
    int gpus_per_node = 0;
    int fabric_groups = 0;             // distinct fabric groups of `nodes`
    const char* state = "";            // done, failed, running or waiting
    bool done = false;                 // finish is its end (else unfinished)
    sim::Time arrival, start, finish;  // start Time::max(): never started
    double energy_j = 0.0;
    int restarts = 0;
    double lost_gpu_s = 0.0;
    // Training jobs: the plan and latest run the training columns read (training_job_run.hpp).
    const workload::TrainingJobPlan* plan = nullptr;
    const TrainingJobRun* training = nullptr;
    double stall_s = 0.0;
    bool named = false;  // listed in the scenario: also in summary/jobs
  };

  explicit JobReport(sim::TraceSink& sink) : sink_(sink) {}

  // Declares jobs, job_states and summary/jobs, in this order; once, before any row.
  void declare();
  void row(const Row& r);
  // One job_states row: the job moved `from` -> `to` at `at`, for `cause` (empty: a normal step).
  void state_change(sim::Time at, const std::string& job, const char* from, const char* to, const std::string& cause,
                    std::span<const int> nodes);

 private:
  sim::TraceSink& sink_;
  sim::TableId jobs_table_ = 0;
  sim::TableId states_table_ = 0;
  sim::TableId summary_jobs_table_ = 0;
};

}  // namespace dcsim::models::cluster
