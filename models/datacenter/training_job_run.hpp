#pragma once
// The run of one training job on its nodes: segments of steps, each an Activity whose rate
// follows the clock factor of the job's slowest node, separated by synchronous checkpoint
// writes, each an Activity of bytes at the per-node write rate (which no clock affects).
//
// A segment's work is its step count; its rate is 1 / step_time_s(f) steps per second
// (TrainingJobPlan::step_time_s: only the compute share stretches with 1/f). So a throttle in
// flight slows exactly the steps that remain.
//
// With a shared fabric, the exposed DP communication of a step follows the last flow-mode
// measurement (set_dp_scale), and changes the segment's rate in flight like a clock change.
//
// Emits (step functions, a point whenever the value changes):
//   jobs/<name>/step_time_s   current step time (NaN while checkpointing)
//   jobs/<name>/tokens_per_s  current training throughput (0 while checkpointing)

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/datacenter/cluster_config.hpp"
#include "models/model_registries.hpp"
#include "models/workload/job_spec.hpp"
#include "models/workload/training_job.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::datacenter {

class TrainingJobRun {
 public:
  struct Series {
    sim::SeriesId step_time = 0;
    sim::SeriesId tokens_per_s = 0;
  };
  // Declared when the model is built (before the run starts), for job `name`.
  static Series declare_series(sim::TraceSink& sink, const std::string& name);

  // Starts at sim.now() at `clock_factor`; calls on_done once the last step has finished.
  TrainingJobRun(const workload::TrainingJobPlan& plan, Series series, double clock_factor,
                 sim::Simulator& sim, sim::TraceSink& sink, std::function<void()> on_done);
  ~TrainingJobRun();
  TrainingJobRun(const TrainingJobRun&) = delete;
  TrainingJobRun& operator=(const TrainingJobRun&) = delete;

  void set_clock_factor(double factor);
  // Flow mode (training_fabric.hpp): the job's DP collectives take `scale` times their analytic
  // time from now on; the step's exposed DP communication is re-derived (dp_exposed_at_scale).
  void set_dp_scale(double scale);
  // Step time at the current clock factor and DP scale.
  double current_step_time_s() const { return plan_.step_time_s(clock_factor_) + extra_exposed_s_; }
  // Exposed communication added to the analytic step by the fabric (may be negative).
  double extra_exposed_s() const { return extra_exposed_s_; }

  // Steps finished up to now (fractional while a segment runs).
  double steps_done() const;
  // Time spent in steps (excluding checkpoints) and writing checkpoints, up to now.
  double training_s() const;
  double checkpoint_s() const;
  int checkpoints_written() const { return checkpoints_written_; }
  double checkpoint_bytes_written() const;

 private:
  void start_segment();
  void on_segment_done();
  void on_checkpoint_done();
  void record(double step_time_s, double tokens_per_s);

  const workload::TrainingJobPlan& plan_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::function<void()> on_done_;
  double clock_factor_ = 1.0;
  double extra_exposed_s_ = 0.0;  // set_dp_scale
  int steps_finished_ = 0;  // in completed segments
  int checkpoints_written_ = 0;
  double training_s_ = 0.0;    // of completed segments
  double checkpoint_s_ = 0.0;  // of completed checkpoints
  std::unique_ptr<sim::Activity> segment_;
  std::unique_ptr<sim::Activity> checkpoint_;
  Series series_;
};

// Plans config.training_jobs (plan_training_job) and appends them to `specs` as named jobs
// whose `work` is the nominal duration. ConfigError fields read "training[i].<field>".
void append_training_jobs(const ClusterConfig& config, const ModelRegistries& registries,
                          std::vector<workload::JobSpec>& specs);

// The job tables' training columns (NaN for jobs that are not training jobs):
//   step_time_s, tokens_per_s, tflops_per_gpu, mfu   realised means over the steps run (they
//                                                    include throttling; nominal if none ran)
//   compute_s, exposed_comm_s, bubble_s              one step's breakdown at nominal clock
//                                                    (exposed_comm_s: with the fabric's last
//                                                    DP measurement, in flow mode)
//   steps_done, checkpoints, checkpoint_bytes, checkpoint_s   totals up to the row's time
void append_training_columns(std::vector<sim::Column>& columns);
void append_training_cells(const workload::TrainingJobPlan* plan, const TrainingJobRun* run,
                           std::vector<sim::Cell>& row);

}  // namespace dcsim::models::datacenter
