#include "models/cluster/training_job_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "sim/error.hpp"

namespace dcsim::models::cluster {

sim::TableId TrainingJobRun::declare_steps_table(sim::TraceSink& sink) {
  using sim::ColumnType;
  return sink.declare_table(
      "training_steps",
      {{"start_ns", ColumnType::kInt64, "ns", "start of the first step of the piece"},
       {"end_ns", ColumnType::kInt64, "ns", "end of the last step of the piece"},
       {"job", ColumnType::kString, "", "training job name"},
       {"from_step", ColumnType::kFloat64, "steps", "job's steps done at start_ns (fractional where a piece was cut mid-step)"},
       {"to_step", ColumnType::kFloat64, "steps", "steps done at end_ns"},
       {"step_s", ColumnType::kFloat64, "s", "time of one step in this piece"},
       {"compute_s", ColumnType::kFloat64, "s", "compute part of one step"},
       {"exposed_comm_s", ColumnType::kFloat64, "s", "communication not hidden behind compute, one step"},
       {"bubble_s", ColumnType::kFloat64, "s", "pipeline bubble of one step (compute_s + exposed_comm_s + bubble_s = step_s)"},
       {"checkpoint_start_ns", ColumnType::kInt64, "ns", "start of the checkpoint write after the piece (-1: none)"},
       {"checkpoint_end_ns", ColumnType::kInt64, "ns", "its end (-1: none)"},
       {"interrupted", ColumnType::kInt64, "",
        "1: the run was interrupted at the row's last time (a partial step or write is lost)"}});
}

TrainingJobRun::Series TrainingJobRun::declare_series(sim::TraceSink& sink, const std::string& name,
                                                      sim::TableId steps_table) {
  return {sink.declare_series("jobs/" + name + "/step_time_s", "s",
                              "step time of training job " + name + " (NaN while checkpointing)"),
          sink.declare_series("jobs/" + name + "/tokens_per_s", "tokens/s",
                              "training throughput of job " + name + " (0 while checkpointing)"),
          steps_table, name};
}

StepMeasurement TrainingJobRun::split_at(double clock_factor) const {
  if (has_sample_) {
    // Sampled mode: the measured step, its compute and its bubble (the critical stage waiting on
    // other stages' compute: step_executor.hpp) stretched by the clock's ratio to the sample's,
    // its exposed communication as measured.
    StepMeasurement m = sample_;
    const double stretch = sample_clock_ / clock_factor;
    if (stretch != 1.0) {
      m.compute_s *= stretch;
      m.bubble_s *= stretch;
      m.step_s = m.compute_s + m.exposed_comm_s + m.bubble_s;
    }
    return m;
  }
  const workload::TrainingStepResult& r = plan_.step;
  StepMeasurement m;
  m.step_s = plan_.step_time_s(clock_factor);
  m.exposed_comm_s = r.exposed_comm_s;
  m.compute_s = std::min(r.compute_s / clock_factor, m.step_s - m.exposed_comm_s);
  // The rest of the stretch is the bubble's (it waits on other stages' slower compute).
  m.bubble_s = std::max(0.0, m.step_s - m.compute_s - m.exposed_comm_s);
  m.ep_s = r.ep_s;
  return m;
}

void TrainingJobRun::open_piece(double from_step) {
  piece_ = Piece{sim_.now(), sim_.now(), from_step, from_step, split_at(clock_factor_), true};
}

void TrainingJobRun::close_piece(double to_step, bool interrupted) {
  if (!piece_.open) return;
  piece_.open = false;
  if (!piece_.flow) {
    piece_.end = sim_.now();
    piece_.to_step = to_step;
    if (executor_) add_measured(piece_.split, to_step - piece_.from_step);  // sampled mode's segment
  }
  if (piece_.end == piece_.start) return;  // e.g. a rate change at the segment's start
  flush_piece(false, false);               // an earlier piece no checkpoint followed
  pending_ = piece_;
  pending_.open = true;
  if (interrupted) flush_piece(false, true);
}

void TrainingJobRun::flush_piece(bool with_checkpoint, bool interrupted) {
  if (!pending_.open && !with_checkpoint) return;
  if (!pending_.open) {
    // A write with no steps before it in this run: a piece of no steps carries it.
    pending_ = Piece{checkpoint_start_, checkpoint_start_, static_cast<double>(steps_finished_),
                     static_cast<double>(steps_finished_), split_at(clock_factor_), true};
  }
  pending_.open = false;
  const StepMeasurement& m = pending_.split;
  const std::int64_t ck_start = with_checkpoint ? checkpoint_start_.ns() : -1;
  const std::int64_t ck_end = with_checkpoint ? sim_.now().ns() : -1;
  sink_.append_row(series_.steps, {pending_.start.ns(), pending_.end.ns(), series_.job, pending_.from_step,
                                   pending_.to_step, m.step_s, m.compute_s, m.exposed_comm_s, m.bubble_s, ck_start,
                                   ck_end, std::int64_t{interrupted ? 1 : 0}});
}

void TrainingJobRun::add_measured(const StepMeasurement& m, double steps) {
  measured_.step_s += m.step_s * steps;
  measured_.compute_s += m.compute_s * steps;
  measured_.exposed_comm_s += m.exposed_comm_s * steps;
  measured_.bubble_s += m.bubble_s * steps;
  measured_.ep_s += m.ep_s * steps;
  measured_steps_ += steps;
}

void TrainingJobRun::record_steps_until_now() {
  if (interrupted_) return;
  close_piece(steps_done(), false);
  const bool writing = checkpointing();
  flush_piece(writing, false);
}

TrainingJobRun::TrainingJobRun(const workload::TrainingJobPlan& plan, Series series, double clock_factor,
                               sim::Simulator& sim, sim::TraceSink& sink, std::function<void()> on_done,
                               std::unique_ptr<StepExecutor> executor, int first_step, const TrainingJobRun* previous,
                               int saved_step, std::unique_ptr<DataFeed> feed, sim::Time sample_every)
    : plan_(plan),
      sim_(sim),
      sink_(sink),
      on_done_(std::move(on_done)),
      clock_factor_(clock_factor),
      executor_(std::move(executor)),
      steps_finished_(first_step),
      steps_saved_(saved_step >= 0 ? saved_step : first_step),
      first_step_(first_step),
      sample_every_(executor_ ? sample_every : sim::Time::zero()),
      series_(series) {
  if (previous != nullptr) {
    steps_executed_before_ = previous->steps_executed();
    flow_steps_ = previous->flow_steps_;
    measured_ = previous->measured_;
    measured_steps_ = previous->measured_steps_;
    checkpoints_written_ = previous->checkpoints_written_;
    checkpoints_failed_ = previous->checkpoints_failed_;
    training_s_ = previous->training_s();
    checkpoint_s_ = previous->checkpoint_s();
    data_stall_s_ = previous->data_stall_s();
  }
  feed_ = std::move(feed);
  if (executor_) executor_->set_clock_factor(clock_factor_);
  continue_steps();
}

bool TrainingJobRun::sample_due() const {
  return !has_sample_ || executor_->fabric_changes() != sample_changes_ ||
         (next_sample_at_ - sim_.now()).seconds() < current_step_time_s();
}

void TrainingJobRun::continue_steps() {
  if (executor_ && (!sampled() || sample_due())) {
    next_step();
    return;
  }
  if (piece_.flow) close_piece(0.0, false);  // the sample's row, before its segment's
  start_segment();
}

void TrainingJobRun::keep_sample(const StepMeasurement& m) {
  const sim::Time start = executor_->step_start();
  if (!has_sample_) first_sample_ = start;
  has_sample_ = true;
  sample_ = m;
  sample_clock_ = clock_factor_;
  sample_changes_ = step_changes_;
  // The next point of the grid first_sample_ + k x every after now.
  const std::int64_t every = sample_every_.ns();
  next_sample_at_ = first_sample_ + sim::Time::from_ns(every) * ((sim_.now() - first_sample_).ns() / every + 1);
}

bool TrainingJobRun::input_ready() {
  if (!feed_) return true;
  feed_->consumed_through(steps_finished_);
  if (feed_->steps_ready() > steps_finished_) return true;
  waiting_for_input_ = true;
  input_wait_start_ = sim_.now();
  record(std::numeric_limits<double>::quiet_NaN(), 0.0);
  feed_->wait_for(steps_finished_, [this] { on_input_ready(); });
  return false;
}

void TrainingJobRun::on_input_ready() {
  if (interrupted_ || !waiting_for_input_) return;
  waiting_for_input_ = false;
  data_stall_s_ += (sim_.now() - input_wait_start_).seconds();
  last_recorded_step_s_ = -1.0;
  continue_steps();
}

double TrainingJobRun::data_stall_s() const {
  return data_stall_s_ + (waiting_for_input_ ? (sim_.now() - input_wait_start_).seconds() : 0.0);
}

TrainingJobRun::~TrainingJobRun() = default;

void TrainingJobRun::record(double step_time_s, double tokens_per_s) {
  sink_.append(series_.step_time, sim_.now(), step_time_s);
  sink_.append(series_.tokens_per_s, sim_.now(), tokens_per_s);
}

int TrainingJobRun::steps_to_next_checkpoint() const {
  const int left = plan_.steps - steps_finished_;
  const int interval = plan_.checkpoint_interval_steps;
  return interval > 0 ? std::min(left, interval - steps_finished_ % interval) : left;
}

void TrainingJobRun::start_segment() {
  if (!input_ready()) return;
  int steps = steps_to_next_checkpoint();
  if (feed_) steps = std::min(steps, feed_->steps_ready() - steps_finished_);
  const double step_s = current_step_time_s();
  if (sampled()) {
    // Up to the last step boundary before the next grid point (the sample is not due, so that
    // is at least a step away): the step in flight at each grid point runs as flows.
    const double to_sample = std::floor((next_sample_at_ - sim_.now()).seconds() / step_s);
    steps = static_cast<int>(std::min(static_cast<double>(steps), std::max(1.0, to_sample)));
  }
  segment_ = std::make_unique<sim::Activity>(sim_, static_cast<double>(steps), 1.0 / step_s,
                                             [this](sim::Activity&) { on_segment_done(); });
  record(step_s, plan_.step.tokens_per_step / step_s);
  last_recorded_step_s_ = step_s;
  open_piece(steps_finished_);
}

void TrainingJobRun::next_step() {
  if (!input_ready()) return;
  step_changes_ = executor_->fabric_changes();
  executor_->run_step([this](const StepMeasurement& m) { on_step(m); });
}

void TrainingJobRun::interrupt() {
  if (interrupted_) return;
  progress_at_interrupt_ = steps_done();
  // A segment's piece ends here, its partial step lost; a flow piece's identical steps so far
  // are whole (the step in flight is not measured).
  close_piece(progress_at_interrupt_, !piece_.flow);
  if (checkpointing()) {
    flush_piece(true, true);
  } else {
    flush_piece(false, false);
  }
  interrupted_ = true;
  stalled_ = false;
  if (waiting_for_input_) {
    data_stall_s_ += (sim_.now() - input_wait_start_).seconds();
    waiting_for_input_ = false;
  }
  if (feed_) feed_->stop();
  if (segment_ && !segment_->done()) {
    steps_finished_ += static_cast<int>(segment_->total_work() - segment_->remaining());  // whole steps
    training_s_ += (sim_.now() - segment_->started_at()).seconds();
    segment_->cancel();
  }
  if (checkpoint_ && !checkpoint_->done()) checkpoint_->cancel();
  if (background_ && !background_->done()) background_->cancel();
  if (checkpoint_write_) checkpoint_write_->abandon();
  waiting_for_background_ = false;
  record(std::numeric_limits<double>::quiet_NaN(), 0.0);
}

void TrainingJobRun::on_step(const StepMeasurement& m) {
  if (interrupted_) return;
  ++steps_finished_;
  ++flow_steps_;
  const sim::Time step_start = executor_->step_start();
  const StepMeasurement& p = piece_.split;
  const bool same = piece_.open && piece_.flow && piece_.end == step_start && p.step_s == m.step_s &&
                    p.compute_s == m.compute_s && p.exposed_comm_s == m.exposed_comm_s && p.bubble_s == m.bubble_s;
  if (!same) {
    close_piece(0.0, false);
    piece_ = Piece{step_start, sim_.now(), steps_finished_ - 1.0, steps_finished_ - 1.0, m, true, true};
  }
  piece_.end = sim_.now();
  piece_.to_step = steps_finished_;
  training_s_ += m.step_s;
  if (on_step_) on_step_(m);
  add_measured(m, 1.0);
  if (sampled()) keep_sample(m);
  if (steps_finished_ >= plan_.steps) {
    close_piece(0.0, false);
    flush_piece(false, false);
    record(std::numeric_limits<double>::quiet_NaN(), 0.0);
    on_done_();
    return;
  }
  if ((plan_.checkpoint_interval_steps > 0 && steps_finished_ % plan_.checkpoint_interval_steps == 0) || on_saved_) {
    close_piece(0.0, false);
    start_checkpoint();
    last_recorded_step_s_ = -1.0;
    return;
  }
  // A point per change, not per step: a quiet fabric repeats the same step time (a segment
  // after a sample records its own).
  if ((!sampled() || sample_due()) && m.step_s != last_recorded_step_s_) {
    record(m.step_s, plan_.step.tokens_per_step / m.step_s);
    last_recorded_step_s_ = m.step_s;
  }
  continue_steps();
}

bool TrainingJobRun::checkpointing() const {
  return (checkpoint_ && !checkpoint_->done() && !checkpoint_->cancelled()) || checkpoint_on_fabric_ ||
         waiting_for_background_;
}

void TrainingJobRun::start_checkpoint() {
  if (hold_ && hold_()) {
    stalled_ = true;
    record(std::numeric_limits<double>::quiet_NaN(), 0.0);
    return;
  }
  if (background_active_) {
    // The previous async write still runs: this save waits for it (the host memory holds one).
    waiting_for_background_ = true;
    checkpoint_start_ = sim_.now();
    record(std::numeric_limits<double>::quiet_NaN(), 0.0);
    return;
  }
  write_checkpoint();
}

void TrainingJobRun::write_held_checkpoint() {
  if (!stalled_ || interrupted_) return;
  stalled_ = false;
  write_checkpoint();
}

void TrainingJobRun::write_checkpoint(bool keep_start) {
  if (!keep_start) checkpoint_start_ = sim_.now();
  if (plan_.checkpoint_config.async && !on_saved_) {
    snapshotting_ = true;
    checkpoint_ = std::make_unique<sim::Activity>(sim_, plan_.checkpoint_bytes_per_node,
                                                  plan_.checkpoint_snapshot_rate_bytes_per_s,
                                                  [this](sim::Activity&) { on_snapshot_done(); });
    record(std::numeric_limits<double>::quiet_NaN(), 0.0);
    return;
  }
  if (checkpoint_write_) {
    checkpoint_on_fabric_ = true;
    checkpoint_write_->start(plan_.checkpoint_bytes_per_node, [this](bool saved) {
      checkpoint_on_fabric_ = false;
      on_checkpoint_done(saved);
    });
    record(std::numeric_limits<double>::quiet_NaN(), 0.0);
    return;
  }
  checkpoint_ = std::make_unique<sim::Activity>(sim_, plan_.checkpoint_bytes_per_node,
                                                plan_.checkpoint_rate_bytes_per_s,
                                                [this](sim::Activity&) { on_checkpoint_done(); });
  record(std::numeric_limits<double>::quiet_NaN(), 0.0);
}

void TrainingJobRun::on_segment_done() {
  if (interrupted_) return;
  steps_finished_ += static_cast<int>(segment_->total_work());
  training_s_ += (sim_.now() - segment_->started_at()).seconds();
  close_piece(steps_finished_, false);
  if (steps_finished_ >= plan_.steps) {
    flush_piece(false, false);
    record(std::numeric_limits<double>::quiet_NaN(), 0.0);
    on_done_();
    return;
  }
  // Only between segments, and there is a segment after this one: no checkpoint after the last
  // step (the job's end leaves its final state to whatever saves it). A segment cut where its
  // input ended goes on without one.
  const int interval = plan_.checkpoint_interval_steps;
  if ((interval > 0 && steps_finished_ % interval == 0) || on_saved_) {
    start_checkpoint();
  } else {
    continue_steps();
  }
}

void TrainingJobRun::on_checkpoint_done(bool saved) {
  if (interrupted_) return;
  flush_piece(true, false);
  checkpoint_s_ += (sim_.now() - checkpoint_start_).seconds();
  if (saved) {
    ++checkpoints_written_;
    steps_saved_ = steps_finished_;
    if (on_checkpoint_) on_checkpoint_();
  } else {
    ++checkpoints_failed_;
  }
  resume_steps();
}

void TrainingJobRun::resume_steps() {
  if (on_saved_) {
    const auto on_saved = std::move(on_saved_);
    on_saved_ = nullptr;
    on_saved();
    if (interrupted_) return;
  }
  continue_steps();
}

void TrainingJobRun::on_snapshot_done() {
  snapshotting_ = false;
  if (interrupted_) return;
  background_step_ = steps_finished_;
  background_active_ = true;
  const auto done = [this](bool saved) {
    background_active_ = false;
    on_background_done(saved);
  };
  if (checkpoint_write_) {
    checkpoint_write_->start(plan_.checkpoint_bytes_per_node, done);
  } else {
    background_ = std::make_unique<sim::Activity>(sim_, plan_.checkpoint_bytes_per_node,
                                                  plan_.checkpoint_rate_bytes_per_s,
                                                  [done](sim::Activity&) { done(true); });
  }
  if (on_saved_) {
    // checkpoint_at_step_end came during the snapshot: its caller needs the save, so the job
    // waits for the write as a synchronous save would.
    waiting_for_background_ = true;
    return;
  }
  flush_piece(true, false);
  checkpoint_s_ += (sim_.now() - checkpoint_start_).seconds();
  resume_steps();
}

void TrainingJobRun::on_background_done(bool saved) {
  if (interrupted_) return;
  if (saved) {
    ++checkpoints_written_;
    steps_saved_ = background_step_;
    if (on_checkpoint_) on_checkpoint_();
  } else {
    ++checkpoints_failed_;
  }
  if (!waiting_for_background_) return;
  waiting_for_background_ = false;
  if (background_step_ == steps_finished_) {
    // The job waited for this very save (checkpoint_at_step_end during its snapshot).
    flush_piece(true, false);
    checkpoint_s_ += (sim_.now() - checkpoint_start_).seconds();
    resume_steps();
    return;
  }
  write_checkpoint(true);  // the save that waited for this one, its stall going on
}

void TrainingJobRun::checkpoint_at_step_end(std::function<void()> on_saved) {
  if (interrupted_) return;
  on_saved_ = std::move(on_saved);
  const bool writing = checkpointing();
  if (waiting_for_input_ && !writing) {
    // No step in flight: it writes now, and waits for its input again afterwards.
    waiting_for_input_ = false;
    data_stall_s_ += (sim_.now() - input_wait_start_).seconds();
    start_checkpoint();
    return;
  }
  // The write in flight, or a step running as flows: its end (on_step) writes.
  if (writing || (executor_ && executor_->running())) return;
  if (segment_ && !segment_->done() && !segment_->cancelled()) {
    // The segment ends with the step in flight; on_segment_done then writes the checkpoint.
    const double done = segment_->total_work() - segment_->remaining();
    segment_->set_total_work(std::min(segment_->total_work(), std::ceil(done)));
  }
}

void TrainingJobRun::set_clock_factor(double factor) {
  if (factor == clock_factor_ || interrupted_) return;
  clock_factor_ = factor;
  if (executor_) executor_->set_clock_factor(factor);
  if (segment_ && !segment_->done() && !segment_->cancelled()) {
    close_piece(steps_done(), false);
    const double step_s = current_step_time_s();
    segment_->set_rate(1.0 / step_s);
    record(step_s, plan_.step.tokens_per_step / step_s);
    last_recorded_step_s_ = step_s;
    open_piece(steps_done());
  }
}

double TrainingJobRun::steps_executed() const {
  return steps_executed_before_ + (interrupted_ ? progress_at_interrupt_ : steps_done()) - first_step_;
}

double TrainingJobRun::steps_done() const {
  double done = steps_finished_;
  if (segment_ && !segment_->done() && !segment_->cancelled()) done += segment_->total_work() - segment_->remaining();
  return done;
}

double TrainingJobRun::training_s() const {
  double t = training_s_;
  if (executor_ && executor_->running() && !interrupted_) t += (sim_.now() - executor_->step_start()).seconds();
  if (segment_ && !segment_->done() && !segment_->cancelled()) t += (sim_.now() - segment_->started_at()).seconds();
  return t;
}

double TrainingJobRun::checkpoint_s() const {
  double t = checkpoint_s_;
  if (checkpointing() && !interrupted_) t += (sim_.now() - checkpoint_start_).seconds();
  return t;
}

double TrainingJobRun::checkpoint_bytes_written() const {
  double bytes = checkpoints_written_ * plan_.checkpoint_bytes;
  if (checkpoint_ && !checkpoint_->done() && !snapshotting_) {
    bytes += (checkpoint_->total_work() - checkpoint_->remaining()) *
             (plan_.checkpoint_bytes / plan_.checkpoint_bytes_per_node);
  }
  return bytes;
}

double step_gpu_activity(const power::PhaseActivities& activities, double compute_s, double memory_bound_s,
                         double exposed_comm_s, double bubble_s) {
  const double memory_s = std::clamp(memory_bound_s, 0.0, std::max(0.0, compute_s));
  return power::mean_activity(activities, {std::max(0.0, compute_s) - memory_s, memory_s, exposed_comm_s, bubble_s});
}

double step_memory_bound_s(const workload::TrainingStepResult& step) { return step.optimizer_s + step.memory_bound_s; }

double step_gpu_activity(const power::PhaseActivities& activities, const workload::TrainingStepResult& step) {
  return step_gpu_activity(activities, step.compute_s, step_memory_bound_s(step), step.exposed_comm_s, step.bubble_s);
}

void append_training_jobs(const ClusterConfig& config, const collective::CollectiveRegistry& collectives,
                          std::vector<workload::JobSpec>& specs) {
  const power::PhaseActivities activities = power::phase_activities(config.gpu_phase_power, config.node.gpu);
  for (std::size_t i = 0; i < config.training_jobs.size(); ++i) {
    const workload::TrainingJobSpec& t = config.training_jobs[i];
    std::shared_ptr<const workload::TrainingJobPlan> plan;
    try {
      if (t.job.nodes > config.nodes) {
        throw sim::ConfigError("nodes", "must be between 1 and the cluster's " +
                                            std::to_string(config.nodes) + " nodes");
      }
      plan = std::make_shared<const workload::TrainingJobPlan>(
          workload::plan_training_job(t, config.node, collectives));
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError("training[" + std::to_string(i) + "]." + e.field(), e.detail());
    }
    workload::JobSpec spec;
    spec.name = t.job.name;
    spec.arrival = t.arrival;
    spec.nodes = t.job.nodes;
    spec.work = sim::Time::from_seconds(plan->nominal_duration_s());
    spec.gpu_utilization = step_gpu_activity(activities, plan->step);
    spec.training = std::move(plan);
    specs.push_back(std::move(spec));
  }
}

void append_training_columns(std::vector<sim::Column>& columns) {
  using sim::ColumnType;
  const std::vector<sim::Column> extra = {
      {"step_time_s", ColumnType::kFloat64, "s", "mean step time over the steps run (training jobs)"},
      {"tokens_per_s", ColumnType::kFloat64, "tokens/s", "tokens per step / step_time_s"},
      {"tflops_per_gpu", ColumnType::kFloat64, "TFLOP/s", "model FLOP/s per GPU (PaLM definition) / 1e12"},
      {"mfu", ColumnType::kFloat64, "", "model FLOP/s / (GPUs x dense peak of the precision)"},
      {"compute_s", ColumnType::kFloat64, "s", "compute part of one step (nominal clock; flow mode: realised mean)"},
      {"exposed_comm_s", ColumnType::kFloat64, "s", "communication not hidden behind compute, one step (flow mode: realised mean)"},
      {"bubble_s", ColumnType::kFloat64, "s", "pipeline bubble of one step, 1F1B (flow mode: realised mean)"},
      // The step model's split of its exposed communication (closed form, nominal clock; they
      // add up to its exposed_comm_s): where to look when communication shows.
      {"exposed_tp_s", ColumnType::kFloat64, "s", "exposed tensor-parallel communication of one step (closed form)"},
      {"exposed_cp_s", ColumnType::kFloat64, "s", "exposed context-parallel ring-attention transfers of one step (closed form)"},
      {"exposed_pp_s", ColumnType::kFloat64, "s", "exposed pipeline sends of one step (closed form)"},
      {"exposed_dp_s", ColumnType::kFloat64, "s", "exposed data-parallel gradient reduction and parameter gathers of one step (closed form)"},
      {"exposed_fp8_amax_s", ColumnType::kFloat64, "s", "FP8 amax all-reduces of one step (closed form)"},
      {"steps_done", ColumnType::kFloat64, "steps", "training steps completed"},
      {"checkpoints", ColumnType::kFloat64, "", "checkpoints written"},
      {"checkpoint_bytes", ColumnType::kFloat64, "B", "bytes of checkpoints written (all nodes)"},
      {"checkpoint_s", ColumnType::kFloat64, "s", "time spent writing checkpoints"},
  };
  columns.insert(columns.end(), extra.begin(), extra.end());
}

void append_training_cells(const workload::TrainingJobPlan* plan, const TrainingJobRun* run,
                           std::vector<sim::Cell>& row) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (plan == nullptr) {
    row.insert(row.end(), 16, sim::Cell{nan});
    return;
  }
  const auto& r = plan->step;
  double step_s = r.step_time_s;
  double compute_s = r.compute_s, exposed_s = r.exposed_comm_s, bubble_s = r.bubble_s;
  if (run != nullptr && run->flow_mode()) {
    // Realised means over the completed steps (a step in flight at the end is left out);
    // sampled mode: its segments' steps too, at their breakdowns.
    const double n = run->measured_steps();
    if (n > 0) {
      const StepMeasurement& m = run->measured();
      step_s = m.step_s / n;
      compute_s = m.compute_s / n;
      exposed_s = m.exposed_comm_s / n;
      bubble_s = m.bubble_s / n;
    }
  } else if (run != nullptr && run->steps_executed() > 0.0) {
    step_s = run->training_s() / run->steps_executed();
  }
  const double scale = r.step_time_s / step_s;  // realised throughput relative to nominal
  const double steps = run ? run->steps_done() : 0.0;
  row.insert(row.end(), {sim::Cell{step_s}, sim::Cell{r.tokens_per_s * scale},
                         sim::Cell{r.tflops_per_gpu * scale}, sim::Cell{r.mfu * scale},
                         sim::Cell{compute_s}, sim::Cell{exposed_s}, sim::Cell{bubble_s},
                         sim::Cell{r.tp_comm_s}, sim::Cell{r.cp_exposed_s}, sim::Cell{r.pp_comm_s},
                         sim::Cell{r.dp_exposed_s}, sim::Cell{r.amax_reduction_s},
                         sim::Cell{steps},
                         sim::Cell{static_cast<double>(run ? run->checkpoints_written() : 0)},
                         sim::Cell{run ? run->checkpoint_bytes_written() : 0.0},
                         sim::Cell{run ? run->checkpoint_s() : 0.0}});
}

}  // namespace dcsim::models::cluster
