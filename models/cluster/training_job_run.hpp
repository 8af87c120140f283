#pragma once
// The run of one training job on its nodes. Analytic mode (no fabric): segments of steps, each
// an Activity whose rate follows the clock factor of the job's slowest node, separated by
// synchronous checkpoint writes, each an Activity of bytes at the per-node write rate (which no
// clock affects).
//
// A segment's work is its step count; its rate is 1 / step_time_s(f) steps per second
// (TrainingJobPlan::step_time_s: only the compute share stretches with 1/f). So a throttle in
// flight slows exactly the steps that remain.
//
// Flow mode (a StepExecutor is given: the run has a fabric): every step runs as the job's step
// graph (step_graph.hpp, step_executor.hpp), its compute at the clock factor and its PP and DP
// traffic as flows on the shared fabric; the step time and its breakdown are what each step
// measured.
//
// Sampled mode (flow mode with `sample_every` > 0: a site's year cannot run every step as
// flows, yet must see the fabric): a step runs as flows (a sample) at the run's start, then
// analytic segments at the step time that sample measured -- its compute and bubble stretched by
// the clock ratio to the sample's as the analytic mode stretches the plan's clock share, its
// exposed communication as measured. The step in flight at each point of the grid first sample
// + k x sample_every runs as flows again (a segment ends at the last step boundary before it),
// so a run of T takes ceil(T / sample_every) samples; so does the first step after the fabric's
// links, switches or ports changed state (FlowNetwork::state_changes; seen at a segment's end,
// at once if they changed during the sample). A fault, a re-placement or a restart starts a new
// run, so a new sample. A sample sees what is on the fabric at its time: other sampled jobs'
// segments put no flows on it, so jobs slow each other only where their samples overlap
// (per-step flow mode for contention studies). Cost: a sample is one step graph (its fabric
// flows, StepGraph::fabric_flows, and an event per task); a segment O(1) (an Activity, a row and
// a series point), whatever the site's size; a run of T costs ceil(T / sample_every) samples and
// a segment per sample and per checkpoint interval.
//
// Checkpoints sit between steps in every mode; with a writer (checkpoint_writer.hpp:
// a store host, the shared object store) they are flows on a network, in either mode, and a
// write the target refuses or loses saves nothing (the run goes on from its previous checkpoint).
//
// An async save (CheckpointConfig::async) stalls the steps only for the snapshot's copy to host
// memory; its write runs beside the next steps and counts (steps_saved) once it has finished.
//
// With a DataFeed (data_feed.hpp: the job's input read from a store ahead of the steps) a
// segment ends where the input held ends as well, and a step whose input is not there waits for
// it (data_stall_s; NaN step time meanwhile); both modes.
//
// Emits (step functions, a point whenever the value changes):
//   jobs/<name>/step_time_s   current step time (NaN while checkpointing or stalled at a held
//                             checkpoint; flow mode: the last completed step's, first at the end
//                             of the first step; sampled: the sample's, then each segment's)
//   jobs/<name>/tokens_per_s  current training throughput (0 while checkpointing or stalled)
// and rows of the table training_steps (declare_steps_table, one for all jobs): a row per piece
// of steps at one step time and breakdown -- analytic mode: a segment, cut where the clock
// factor changes or the run is interrupted (its from_step/to_step are then fractional); flow
// mode: consecutive steps that measured exactly the same; sampled mode: both, a sample's row
// and its segments' -- with the checkpoint write that
// followed it, if any (one row, not two: a 54-day run has tens of thousands of checkpoints).
// Timelines (tools/output/timeline_*) draw each step from them.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/cluster_config.hpp"
#include "models/cluster/job_run.hpp"
#include "models/seams/checkpoint_writer.hpp"
#include "models/cluster/data_feed.hpp"
#include "models/cluster/step_executor.hpp"
#include "models/collective/collective_algorithm.hpp"
#include "models/power/gpu_phase_power.hpp"
#include "models/workload/job_spec.hpp"
#include "models/workload/training_job.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

class TrainingJobRun final : public JobRun {
 public:
  struct Series {
    sim::SeriesId step_time = 0;
    sim::SeriesId tokens_per_s = 0;
    sim::TableId steps = 0;  // training_steps, shared by every training job
    std::string job;
  };
  // Declared when the model is built (before the run starts), once for all training jobs.
  static sim::TableId declare_steps_table(sim::TraceSink& sink);
  // Declared when the model is built (before the run starts), for job `name`.
  static Series declare_series(sim::TraceSink& sink, const std::string& name, sim::TableId steps_table);

  // Starts at sim.now() at `clock_factor`; calls on_done once the last step has finished.
  // With `executor` (flow mode) every step runs as its graph, or with `sample_every` > 0 a
  // sample per sample_every (sampled mode); without, in analytic segments.
  // `first_step` > 0 resumes after that many steps: from a checkpoint taken there, or (an
  // elastic job re-formed from the weights its surviving replicas hold) from memory, with the
  // last checkpoint at `saved_step` (-1: at first_step). `previous` (the interrupted run it
  // replaces) hands over its totals, so the job's means and counts cover every run. Checkpoints
  // fall on multiples of the plan's interval whatever step a run starts from (Megatron saves
  // when iteration % save_interval == 0).
  TrainingJobRun(const workload::TrainingJobPlan& plan, Series series, double clock_factor, sim::Simulator& sim,
                 sim::TraceSink& sink, std::function<void()> on_done, std::unique_ptr<StepExecutor> executor = nullptr,
                 int first_step = 0, const TrainingJobRun* previous = nullptr, int saved_step = -1,
                 std::unique_ptr<DataFeed> feed = nullptr, sim::Time sample_every = sim::Time::zero());
  ~TrainingJobRun() override;
  TrainingJobRun(const TrainingJobRun&) = delete;
  TrainingJobRun& operator=(const TrainingJobRun&) = delete;

  void set_clock_factor(double factor) override;
  // Writes a checkpoint at the end of the step in flight (at once if one is being written, or
  // is due there anyway), then calls `on_saved` (which may interrupt the run; otherwise it goes
  // on as before). The steps up to there are useful work; only the write is the cost. Nothing
  // is called if the job ends first (its last step is in flight) or the run is interrupted.
  void checkpoint_at_step_end(std::function<void()> on_saved);
  // Flow mode: called with every step's measurement as it completes (before a checkpoint or the
  // next step), e.g. for GPU power to follow what the step did; sampled mode: every sample's.
  void set_on_step(std::function<void(const StepMeasurement&)> on_step) { on_step_ = std::move(on_step); }
  // Checkpoints go through `write` (checkpoint_writer.hpp: flows to a store host or into the
  // object store); without one they are written at the plan's analytic rate. Call before the
  // first checkpoint.
  void set_checkpoint_write(std::unique_ptr<seams::CheckpointWriter> write) { checkpoint_write_ = std::move(write); }
  // Called at the end of every checkpoint this run saves (before the run goes on); not for a
  // write the target refused.
  void set_on_checkpoint(std::function<void()> on_checkpoint) { on_checkpoint_ = std::move(on_checkpoint); }
  // Asked before every checkpoint write (models/seams/checkpoint_gate.hpp): true holds it,
  // and the run stalls (no step, no write) until write_held_checkpoint().
  void set_checkpoint_hold(std::function<bool()> hold) { hold_ = std::move(hold); }
  bool stalled() const { return stalled_; }
  // Ends a stall: the held checkpoint is written now, then the run goes on.
  void write_held_checkpoint();
  // The end of the simulation: the steps (and a checkpoint write) in flight up to now go into
  // training_steps, as if the run were cut here.
  void record_steps_until_now();
  // JobRun: a segment or checkpoint in flight is abandoned (a checkpoint not finished saves
  // nothing); flow mode: the step in flight drains on the fabric, its end is ignored.
  void interrupt() override;
  double done_s() const override { return steps_done() * plan_.step.step_time_s; }
  double saved_s() const override { return steps_saved_ * plan_.step.step_time_s; }
  // Steps as of the last completed checkpoint (or the resume point).
  int steps_saved() const { return steps_saved_; }
  // Seconds the steps waited for their input (a DataFeed), over every run, up to now.
  double data_stall_s() const;
  // Analytic and sampled mode: a segment's step time at the current clock factor.
  double current_step_time_s() const { return split_at(clock_factor_).step_s; }
  bool flow_mode() const { return executor_ != nullptr; }
  bool sampled() const { return sample_every_ > sim::Time::zero(); }
  const StepExecutor* executor() const { return executor_.get(); }
  // Flow mode: sums over the steps completed in every run (StepExecutor's breakdown; sampled
  // mode: its segments' steps too, at their breakdown, fractional where cut), and the steps they
  // cover.
  const StepMeasurement& measured() const { return measured_; }
  double measured_steps() const { return measured_steps_; }
  // Flow mode: steps run as their step graph in every run (sampled mode: the samples).
  int flow_steps() const { return flow_steps_; }
  // Steps executed in every run, lost ones included (fractional while a segment runs): what
  // realised step times are averaged over.
  double steps_executed() const;

  // Steps finished up to now (fractional while a segment runs).
  double steps_done() const;
  // Time spent in steps (excluding checkpoints) and writing checkpoints, up to now.
  double training_s() const;
  double checkpoint_s() const;
  int checkpoints_written() const { return checkpoints_written_; }
  // Writes the target refused or lost (each cost its time and saved nothing).
  int checkpoints_failed() const { return checkpoints_failed_; }
  double checkpoint_bytes_written() const;

 private:
  void start_segment();
  // The next step as flows (flow mode, or a sample due) or the next segment.
  void continue_steps();
  // Sampled mode: no sample yet in this run, the fabric changed since the last, or the next
  // step would cross the next grid point.
  bool sample_due() const;
  void keep_sample(const StepMeasurement& m);
  void add_measured(const StepMeasurement& m, double steps);
  // With a feed: true when the next step's input is there; otherwise the run stalls until it is
  // and then goes on (a segment, or the next step).
  bool input_ready();
  void on_input_ready();
  // Steps from steps_finished_ to the next checkpoint (a multiple of the interval) or the end.
  int steps_to_next_checkpoint() const;
  void on_segment_done();
  void next_step();
  void on_step(const StepMeasurement& m);
  // Asks the hold, then writes (write_checkpoint) or stalls.
  void start_checkpoint();
  // Writes now (synchronously, or an async save's snapshot); `keep_start` continues a stall
  // that began earlier (waiting for the previous async write).
  void write_checkpoint(bool keep_start = false);
  void on_checkpoint_done(bool saved = true);
  // Async saves: the snapshot is in host memory; the write goes on in the background.
  void on_snapshot_done();
  void on_background_done(bool saved);
  // The steps go on after a checkpoint (the next step, or the next segment), once
  // checkpoint_at_step_end's caller has heard of it.
  void resume_steps();
  // The job is stalled in a checkpoint: writing one, copying its snapshot, or waiting for the
  // previous async write.
  bool checkpointing() const;
  void record(double step_time_s, double tokens_per_s);
  // training_steps rows: the piece of steps in flight (analytic: open until its segment ends or
  // its rate changes; flow: the run of identical steps so far), and checkpoint writes.
  struct Piece {
    sim::Time start, end;
    double from_step = 0.0, to_step = 0.0;
    StepMeasurement split;  // one step's time and breakdown
    bool open = false;
    bool flow = false;  // steps run as flows (else a segment's)
  };
  // A segment's step breakdown at `clock_factor` (only the clock-bound share stretches): the
  // plan's, or in sampled mode the sample's.
  StepMeasurement split_at(double clock_factor) const;
  void open_piece(double from_step);
  // Closes the open piece; it waits (pending_) for the checkpoint write that may follow it.
  void close_piece(double to_step, bool interrupted);
  // Writes the pending piece's row, with the checkpoint write [checkpoint_start_, now) when
  // `with_checkpoint`, with none otherwise.
  void flush_piece(bool with_checkpoint, bool interrupted);

  const workload::TrainingJobPlan& plan_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::function<void()> on_done_;
  double clock_factor_ = 1.0;
  std::unique_ptr<StepExecutor> executor_;  // flow mode
  std::unique_ptr<seams::CheckpointWriter> checkpoint_write_;  // checkpoints as flows (a store host, the store)
  StepMeasurement measured_;                // flow mode: sums over completed steps
  double measured_steps_ = 0.0;             // the steps measured_ covers
  double last_recorded_step_s_ = -1.0;
  int steps_finished_ = 0;  // in completed segments
  int steps_saved_ = 0;     // as of the last completed checkpoint
  int first_step_ = 0;
  double steps_executed_before_ = 0.0;  // in earlier runs of the job
  double progress_at_interrupt_ = 0.0;  // steps_done() when interrupted (a step in flight counts in part)
  int flow_steps_ = 0;                  // flow mode: steps run as flows in every run
  // Sampled mode: the interval, the last sample (at sample_clock_; the fabric's state changes
  // at its start), the run's first sample's start and the next grid time.
  sim::Time sample_every_;
  bool has_sample_ = false;
  StepMeasurement sample_;
  double sample_clock_ = 1.0;
  std::uint64_t sample_changes_ = 0;
  std::uint64_t step_changes_ = 0;  // at the start of the step in flight
  sim::Time first_sample_, next_sample_at_;
  bool interrupted_ = false;
  int checkpoints_written_ = 0;
  int checkpoints_failed_ = 0;
  double training_s_ = 0.0;    // of completed segments
  double checkpoint_s_ = 0.0;  // of completed checkpoints
  std::unique_ptr<sim::Activity> segment_;
  std::unique_ptr<sim::Activity> checkpoint_;
  bool checkpoint_on_fabric_ = false;  // a write through checkpoint_write_ in flight
  // Async saves: the snapshot copy in flight (checkpoint_ is it); the background write in flight
  // (through checkpoint_write_, else background_ at the plan's rate) and the step it saves; a
  // checkpoint due (or a checkpoint_at_step_end) waiting for it.
  bool snapshotting_ = false;
  std::unique_ptr<sim::Activity> background_;
  bool background_active_ = false;
  int background_step_ = 0;
  bool waiting_for_background_ = false;
  sim::Time checkpoint_start_;
  Series series_;
  Piece piece_, pending_;  // open; closed and not yet written (pending_.open: there is one)
  std::function<void()> on_checkpoint_;
  std::function<void(const StepMeasurement&)> on_step_;
  std::function<bool()> hold_;
  bool stalled_ = false;  // at a held checkpoint
  std::function<void()> on_saved_;  // checkpoint_at_step_end's, until its checkpoint is written
  std::unique_ptr<DataFeed> feed_;
  bool waiting_for_input_ = false;
  sim::Time input_wait_start_;
  double data_stall_s_ = 0.0;  // completed waits, every run
};

// Mean GPU activity of one step (power/gpu_phase_power.hpp): its compute at compute activity,
// except its HBM-bound kernels (memory_bound_s, capped at compute_s) at memory-bound activity;
// its exposed communication and its bubble at theirs.
double step_gpu_activity(const power::PhaseActivities& activities, double compute_s, double memory_bound_s,
                         double exposed_comm_s, double bubble_s);
// The HBM-bound seconds of a step's compute: the micro-batches' memory-bound kernels and the
// optimizer (training_step.hpp). They do not scale with the SM clock.
double step_memory_bound_s(const workload::TrainingStepResult& step);
double step_gpu_activity(const power::PhaseActivities& activities, const workload::TrainingStepResult& step);

// Plans config.training_jobs (plan_training_job) and appends them to `specs` as named jobs
// whose `work` is the nominal duration and whose GPU utilisation is the mean activity of their
// step (step_gpu_activity, config.gpu_phase_power). ConfigError fields read "training[i].<field>".
void append_training_jobs(const ClusterConfig& config, const collective::CollectiveRegistry& collectives,
                          std::vector<workload::JobSpec>& specs);

// The job tables' training columns (NaN for jobs that are not training jobs):
//   step_time_s, tokens_per_s, tflops_per_gpu, mfu   realised means over the steps run (they
//                                                    include throttling; nominal if none ran)
//   compute_s, exposed_comm_s, bubble_s              one step's breakdown at nominal clock;
//                                                    flow mode: realised means over the steps
//                                                    completed (StepExecutor's attribution)
//   steps_done, checkpoints, checkpoint_bytes, checkpoint_s   totals up to the row's time
void append_training_columns(std::vector<sim::Column>& columns);
void append_training_cells(const workload::TrainingJobPlan* plan, const TrainingJobRun* run,
                           std::vector<sim::Cell>& row);

}  // namespace dcsim::models::cluster
