#include "models/datacenter/cluster_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>

#include "models/datacenter/step_executor.hpp"
#include "models/datacenter/training_fabric.hpp"
#include "models/datacenter/training_job_run.hpp"
#include "models/power/node_power.hpp"
#include "sim/error.hpp"

namespace dcsim::models::datacenter {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw sim::ConfigError(field, message);
}

void validate(const ClusterConfig& c) {
  require(c.nodes >= 1, "nodes", "must be at least 1");
  require(c.nodes_per_rack >= 1, "nodes_per_rack", "must be at least 1");
  require(c.node.gpus >= 1, "node.gpus", "must be at least 1");
  require(c.node.gpu.idle_power_w >= 0, "node.gpu_idle_power", "must not be negative");
  require(c.node.gpu.max_power_w >= c.node.gpu.idle_power_w, "node.gpu_max_power",
          "must be at least the GPU idle power");
  require(c.node.other_idle_power_w >= 0, "node.other_idle_power", "must not be negative");
  require(c.node.other_max_power_w >= c.node.other_idle_power_w, "node.other_max_power",
          "must be at least the idle power of the rest of the node");
  for (std::size_t i = 0; i < c.jobs.size(); ++i) {
    const auto& j = c.jobs[i];
    const std::string at = "jobs[" + std::to_string(i) + "]";
    require(j.nodes >= 1 && j.nodes <= c.nodes, at + ".nodes",
            "must be between 1 and the cluster's " + std::to_string(c.nodes) + " nodes");
    require(j.work > sim::Time::zero(), at + ".work", "must be positive");
    require(j.gpu_utilization >= 0 && j.gpu_utilization <= 1, at + ".gpu_utilization",
            "must be between 0 and 1");
    require(j.arrival >= sim::Time::zero(), at + ".arrival", "must not be negative");
  }
  for (std::size_t g = 0; g < c.generators.size(); ++g) {
    for (std::size_t k = 0; k < c.generators[g].node_choices.size(); ++k) {
      const int n = c.generators[g].node_choices[k];
      require(n >= 1 && n <= c.nodes,
              "generators[" + std::to_string(g) + "].nodes[" + std::to_string(k) + "]",
              "must be between 1 and the cluster's " + std::to_string(c.nodes) + " nodes");
    }
  }
}

}  // namespace

struct ClusterSimulation::Job {
  enum class State { kPending, kWaiting, kRunning, kDone };
  workload::JobSpec spec;
  State state = State::kPending;
  sim::Time start = sim::Time::max();
  sim::Time finish = sim::Time::max();
  std::vector<int> nodes;
  double energy_at_start_j = 0.0;
  double energy_j = 0.0;
  bool named = false;  // listed in the scenario (not generated): gets a headline row
  std::unique_ptr<sim::Activity> work;
  std::unique_ptr<workload::StepGraph> step_graph;  // flow mode (before `training`: it outlives it)
  std::unique_ptr<TrainingJobRun> training;  // training jobs instead of `work`
  TrainingJobRun::Series training_series;
};

ClusterSimulation::ClusterSimulation(ClusterConfig config, const ModelRegistries& registries,
                                     sim::Simulator& sim, sim::TraceSink& sink)
    : config_(std::move(config)), sim_(sim), sink_(sink), registries_(registries) {
  validate(config_);
  scheduler_ = registries.schedulers.get(config_.scheduler).factory();

  std::vector<workload::JobSpec> specs = config_.jobs;
  append_training_jobs(config_, registries_, specs);
  const std::size_t named_count = specs.size();
  for (std::size_t g = 0; g < config_.generators.size(); ++g) {
    try {
      auto generated = workload::generate_jobs(config_.generators[g], config_.seed);
      specs.insert(specs.end(), generated.begin(), generated.end());
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError("generators[" + std::to_string(g) + "]." + e.field(), e.detail());
    }
  }
  // Trace jobs: unnamed like the generated ones (statistics only, no headline row); moved, as a
  // trace can hold millions.
  specs.insert(specs.end(), std::make_move_iterator(config_.trace_jobs.begin()),
               std::make_move_iterator(config_.trace_jobs.end()));
  config_.trace_jobs = {};
  // Arrival order, ties broken by position in the list: deterministic.
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto job = std::make_unique<Job>();
    job->spec = std::move(specs[i]);
    job->named = i < named_count;
    if (job->spec.training) job->training_series = TrainingJobRun::declare_series(sink_, job->spec.name);
    jobs_.push_back(std::move(job));
  }
  std::stable_sort(jobs_.begin(), jobs_.end(),
                   [](const auto& a, const auto& b) { return a->spec.arrival < b->spec.arrival; });

  nodes_.resize(static_cast<std::size_t>(config_.nodes));
  for (auto& n : nodes_) {
    n.power_w = power::node_power_w(config_.node, 0.0);
    n.last_update = sim_.now();
  }
  free_nodes_.resize(nodes_.size());
  std::iota(free_nodes_.begin(), free_nodes_.end(), 0);
  const int racks = (config_.nodes + config_.nodes_per_rack - 1) / config_.nodes_per_rack;
  rack_power_w_.assign(static_cast<std::size_t>(racks), 0.0);

  power_series_ = sink_.declare_series("power/cluster_w", "W", "IT power of all compute nodes");
  for (int r = 0; r < racks; ++r) {
    rack_series_.push_back(sink_.declare_series("power/rack/" + std::to_string(r) + "_w", "W",
                                                "IT power of the compute nodes in rack " +
                                                    std::to_string(r)));
  }
  running_series_ = sink_.declare_series("jobs/running", "jobs", "jobs holding nodes");
  waiting_series_ = sink_.declare_series("jobs/waiting", "jobs", "jobs arrived and not started");
  busy_series_ = sink_.declare_series("nodes/busy", "nodes", "nodes held by a job");

  std::vector<sim::Column> job_columns = {
      {"name", sim::ColumnType::kString, "", "job name"},
      {"nodes", sim::ColumnType::kInt64, "nodes", "nodes held"},
      {"state", sim::ColumnType::kString, "", "done, running or waiting at the end of the run"},
      {"arrival_s", sim::ColumnType::kFloat64, "s", "arrival time"},
      {"start_s", sim::ColumnType::kFloat64, "s", "start time (NaN if never started)"},
      {"finish_s", sim::ColumnType::kFloat64, "s", "finish time (NaN if unfinished)"},
      {"wait_s", sim::ColumnType::kFloat64, "s", "start - arrival (NaN if never started)"},
      {"completion_s", sim::ColumnType::kFloat64, "s", "finish - arrival (NaN if unfinished)"},
      {"energy_kwh", sim::ColumnType::kFloat64, "kWh", "energy of the job's nodes while it ran"},
  };
  append_training_columns(job_columns);
  std::vector<sim::Column> event_columns = job_columns;
  event_columns.insert(event_columns.begin() + 2,
                       {"node_list", sim::ColumnType::kString, "", "node indices, space-separated"});
  jobs_table_ = sink_.declare_table("jobs", event_columns);
  summary_jobs_table_ = sink_.declare_table("summary/jobs", job_columns);
}

ClusterSimulation::~ClusterSimulation() = default;

void ClusterSimulation::start() {
  cluster_last_update_ = sim_.now();
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    sim_.at(std::max(jobs_[i]->spec.arrival, sim_.now()), [this, i] { on_arrival(i); });
  }
  mark_dirty();
  if (config_.telemetry_interval > sim::Time::zero()) {
    sim_.at(sim_.now(), [this] { on_telemetry_tick(); }, sim::Priority::kTelemetry);
  }
}

double ClusterSimulation::progress_fraction() const {
  return jobs_.empty() ? 1.0 : static_cast<double>(finished_) / static_cast<double>(jobs_.size());
}

void ClusterSimulation::on_arrival(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.state = Job::State::kWaiting;
  waiting_.push_back({job_index, job.spec.nodes, job.spec.arrival, job.spec.work});
  try_schedule();
  mark_dirty();
}

void ClusterSimulation::try_schedule() {
  if (waiting_head_ == waiting_.size() || free_nodes_.empty()) return;
  const std::span<const policy::WaitingJob> view(waiting_.data() + waiting_head_,
                                                 waiting_.size() - waiting_head_);
  const auto picked = scheduler_->pick(view, static_cast<int>(free_nodes_.size()), sim_.now());
  if (picked.empty()) return;
  // Validate the policy's answer: positions in range, no repeats, within the free nodes.
  std::vector<std::size_t> sorted = picked;
  std::sort(sorted.begin(), sorted.end());
  int needed = 0;
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (sorted[k] >= view.size() || (k > 0 && sorted[k] == sorted[k - 1])) {
      throw sim::InternalError("scheduler '" + config_.scheduler +
                               "' picked a job that is not waiting (this is a bug)");
    }
    needed += view[sorted[k]].nodes;
  }
  if (needed > static_cast<int>(free_nodes_.size())) {
    throw sim::InternalError("scheduler '" + config_.scheduler + "' over-allocated nodes (this is a bug)");
  }
  for (std::size_t p : picked) start_job(view[p].job_index);
  if (sorted.back() + 1 == sorted.size()) {
    waiting_head_ += sorted.size();  // a prefix: fifo's case, O(1)
  } else {
    std::size_t out = waiting_head_;
    std::size_t next_started = 0;
    for (std::size_t i = 0; i < view.size(); ++i) {
      if (next_started < sorted.size() && sorted[next_started] == i) {
        ++next_started;
      } else {
        waiting_[out++] = waiting_[waiting_head_ + i];
      }
    }
    waiting_.resize(out);
  }
  // Compact once the dead prefix dominates: amortised O(1) per started job.
  if (waiting_head_ > 1024 && waiting_head_ * 2 > waiting_.size()) {
    waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(waiting_head_));
    waiting_head_ = 0;
  }
}

void ClusterSimulation::start_job(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  const auto n = static_cast<std::size_t>(job.spec.nodes);
  job.nodes.assign(free_nodes_.begin(), free_nodes_.begin() + static_cast<std::ptrdiff_t>(n));
  free_nodes_.erase(free_nodes_.begin(), free_nodes_.begin() + static_cast<std::ptrdiff_t>(n));
  job.state = Job::State::kRunning;
  job.start = sim_.now();
  job.energy_at_start_j = 0.0;
  for (int node : job.nodes) {
    integrate_node(node);
    job.energy_at_start_j += nodes_[static_cast<std::size_t>(node)].energy_j;
    nodes_[static_cast<std::size_t>(node)].job = job_index;
    set_node_utilization(node, job.spec.gpu_utilization);
  }
  ++running_;
  if (job.spec.training) {
    const workload::TrainingJobPlan& plan = *job.spec.training;
    std::unique_ptr<StepExecutor> executor;
    if (training_fabric_) {
      // Flow mode: every step as its graph, on the jobs' shared fabric.
      job.step_graph = std::make_unique<workload::StepGraph>(workload::build_step_graph(
          plan.job, plan.step, config_.node, plan.fabric, registries_.collective_algorithms,
          plan.graph_options));
      executor = std::make_unique<StepExecutor>(*job.step_graph, *training_fabric_, job.nodes, job_rate(job));
    }
    job.training = std::make_unique<TrainingJobRun>(plan, job.training_series, job_rate(job), sim_, sink_,
                                                    [this, job_index] { on_completion(job_index); },
                                                    std::move(executor));
    return;
  }
  job.work = std::make_unique<sim::Activity>(
      sim_, job.spec.work.seconds(), job_rate(job),
      [this, job_index](sim::Activity&) { on_completion(job_index); });
}

double ClusterSimulation::job_rate(const Job& job) const {
  double rate = 1.0;
  for (int node : job.nodes) rate = std::min(rate, nodes_[static_cast<std::size_t>(node)].clock_factor);
  return rate;
}

void ClusterSimulation::on_completion(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.state = Job::State::kDone;
  job.finish = sim_.now();
  double energy_now = 0.0;
  for (int node : job.nodes) {
    integrate_node(node);
    energy_now += nodes_[static_cast<std::size_t>(node)].energy_j;
  }
  job.energy_j = energy_now - job.energy_at_start_j;
  busy_node_seconds_ += static_cast<double>(job.nodes.size()) * (job.finish - job.start).seconds();
  for (int node : job.nodes) {
    nodes_[static_cast<std::size_t>(node)].job = SIZE_MAX;
    set_node_utilization(node, 0.0);
    free_nodes_.insert(std::lower_bound(free_nodes_.begin(), free_nodes_.end(), node), node);
  }
  --running_;
  ++finished_;
  last_completion_ = sim_.now();
  emit_job_row(job);
  try_schedule();
  mark_dirty();
}

void ClusterSimulation::set_node_clock_factor(int node, double factor) {
  if (node < 0 || node >= config_.nodes || !(factor > 0.0 && factor <= 1.0)) {
    throw sim::InternalError("set_node_clock_factor(" + std::to_string(node) + ", " +
                             std::to_string(factor) + "): out of range (this is a bug)");
  }
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.clock_factor = factor;
  if (n.job != SIZE_MAX) {
    Job& job = *jobs_[n.job];
    // A power source may set the clock while the job's nodes are being assigned, before the
    // job's work exists: the work then starts at job_rate().
    if (job.training) {
      job.training->set_clock_factor(job_rate(job));
    } else if (job.work) {
      job.work->set_rate(job_rate(job));
    }
  }
  if (power_source_) refresh_node_power(node);
}

void ClusterSimulation::set_power_source(NodePowerSource* source) {
  power_source_ = source;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    integrate_node(static_cast<int>(i));
    if (power_source_) {
      power_source_->on_node_utilization(static_cast<int>(i), nodes_[i].utilization);
      nodes_[i].power_w = power_source_->node_power_w(static_cast<int>(i));
    }
  }
  mark_dirty();
}

void ClusterSimulation::refresh_node_power(int node) {
  integrate_node(node);
  auto& n = nodes_[static_cast<std::size_t>(node)];
  const double p = power_source_ ? power_source_->node_power_w(node)
                                 : power::node_power_w(config_.node, n.utilization);
  if (p != n.power_w) {
    n.power_w = p;
    mark_dirty();
  }
}

void ClusterSimulation::integrate_node(int node) {
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.energy_j += n.power_w * (sim_.now() - n.last_update).seconds();
  n.last_update = sim_.now();
}

void ClusterSimulation::set_node_utilization(int node, double utilization) {
  integrate_node(node);
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.utilization = utilization;
  if (power_source_) {
    power_source_->on_node_utilization(node, utilization);
    n.power_w = power_source_->node_power_w(node);
  } else {
    n.power_w = power::node_power_w(config_.node, utilization);
  }
}

double ClusterSimulation::energy_j() const {
  double total = 0.0;
  for (const auto& n : nodes_) total += n.energy_j + n.power_w * (sim_.now() - n.last_update).seconds();
  return total;
}

void ClusterSimulation::mark_dirty() {
  if (flush_pending_) return;
  flush_pending_ = true;
  // At the end of the instant, so that several changes at one time give one settled point and
  // zero-length intermediate states never count as a peak.
  sim_.at(sim_.now(), [this] { record_series(); }, sim::Priority::kTelemetry);
}

void ClusterSimulation::record_series() {
  flush_pending_ = false;
  settle();
  if (config_.telemetry_interval > sim::Time::zero()) return;  // the tick samples instead
  append_samples();
}

void ClusterSimulation::settle() {
  // Sums recomputed in node order (not updated by deltas): no drift, same result on every run.
  cluster_power_w_ = 0.0;
  std::fill(rack_power_w_.begin(), rack_power_w_.end(), 0.0);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    cluster_power_w_ += nodes_[i].power_w;
    rack_power_w_[i / static_cast<std::size_t>(config_.nodes_per_rack)] += nodes_[i].power_w;
  }
  peak_power_w_ = std::max(peak_power_w_, cluster_power_w_);
  for (double p : rack_power_w_) peak_rack_power_w_ = std::max(peak_rack_power_w_, p);
}

void ClusterSimulation::append_samples() {
  const sim::Time now = sim_.now();
  sink_.append(power_series_, now, cluster_power_w_);
  for (std::size_t r = 0; r < rack_series_.size(); ++r) sink_.append(rack_series_[r], now, rack_power_w_[r]);
  sink_.append(running_series_, now, running_);
  sink_.append(waiting_series_, now, static_cast<double>(waiting_jobs()));
  sink_.append(busy_series_, now, static_cast<double>(nodes_.size() - free_nodes_.size()));
}

void ClusterSimulation::on_telemetry_tick() {
  // A change at this instant may still have its flush queued behind this tick: settle first.
  settle();
  append_samples();
  const sim::Time now = sim_.now();
  const bool bounded = !config_.duration.is_max();
  const sim::Time next = now + config_.telemetry_interval;
  // An open-ended run ends when the work does; ticks must not keep it alive.
  if ((bounded && next <= config_.duration) || (!bounded && has_work_left())) {
    sim_.at(next, [this] { on_telemetry_tick(); }, sim::Priority::kTelemetry);
  }
}

void ClusterSimulation::emit_job_row(const Job& job) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool started = job.start != sim::Time::max();
  const bool done = job.state == Job::State::kDone;
  const char* state = done ? "done" : (job.state == Job::State::kRunning ? "running" : "waiting");
  std::string node_list;
  for (int n : job.nodes) node_list += (node_list.empty() ? "" : " ") + std::to_string(n);
  const double arrival = job.spec.arrival.seconds();
  const double start = started ? job.start.seconds() : nan;
  const double finish = done ? job.finish.seconds() : nan;
  std::vector<sim::Cell> row = {job.spec.name, std::int64_t{job.spec.nodes}, node_list, state,
                                 arrival, start, finish, started ? start - arrival : nan,
                                 done ? finish - arrival : nan, job.energy_j / kJoulesPerKwh};
  append_training_cells(job.spec.training.get(), job.training.get(), row);
  sink_.append_row(jobs_table_, row);
  if (!job.named) return;  // generated streams are summarised by statistics, not listed
  row.erase(row.begin() + 2);  // the headline table has no node list
  sink_.append_row(summary_jobs_table_, row);
}

void ClusterSimulation::finish() {
  if (finished_run_) throw sim::InternalError("ClusterSimulation::finish called twice (this is a bug)");
  finished_run_ = true;
  for (std::size_t i = 0; i < nodes_.size(); ++i) integrate_node(static_cast<int>(i));
  // Unfinished jobs get a row too, so the tables account for every job.
  double wait_sum_s = 0.0;
  double completion_sum_s = 0.0;
  std::size_t started_count = 0;
  for (auto& job : jobs_) {
    if (job->state == Job::State::kRunning) {
      double energy_now = 0.0;
      for (int node : job->nodes) energy_now += nodes_[static_cast<std::size_t>(node)].energy_j;
      job->energy_j = energy_now - job->energy_at_start_j;
      busy_node_seconds_ += static_cast<double>(job->nodes.size()) * (sim_.now() - job->start).seconds();
    }
    if (job->state == Job::State::kRunning || job->state == Job::State::kWaiting) emit_job_row(*job);
    if (job->start != sim::Time::max()) {
      wait_sum_s += (job->start - job->spec.arrival).seconds();
      ++started_count;
    }
    if (job->state == Job::State::kDone) completion_sum_s += (job->finish - job->spec.arrival).seconds();
  }

  const double energy = energy_j();
  const double elapsed_s = sim_.now().seconds();
  auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  auto put_count = [this](const std::string& path, std::size_t v, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put("energy/it_kwh", energy / kJoulesPerKwh, "kWh", "IT energy of the compute nodes");
  put("power/mean_w", elapsed_s > 0 ? energy / elapsed_s : cluster_power_w_, "W",
      "IT energy / simulated time");
  put("power/peak_w", peak_power_w_, "W", "highest settled cluster IT power");
  put("power/peak_rack_w", peak_rack_power_w_, "W", "highest settled rack IT power");
  put_count("workload/jobs_total", jobs_.size(), "jobs in the workload");
  put_count("workload/jobs_completed", finished_, "jobs finished within the run");
  put_count("workload/jobs_unfinished", jobs_.size() - finished_, "jobs waiting or running at the end");
  put("workload/mean_wait_s", started_count > 0 ? wait_sum_s / static_cast<double>(started_count) : 0.0,
      "s", "mean start - arrival over started jobs");
  put("workload/mean_completion_s", finished_ > 0 ? completion_sum_s / static_cast<double>(finished_) : 0.0,
      "s", "mean finish - arrival over finished jobs");
  put("makespan_s", last_completion_.seconds(), "s", "time of the last job completion");
  put("simulated_s", elapsed_s, "s", "simulated time at the end of the run");
  put("utilization/node_busy_fraction",
      elapsed_s > 0 ? busy_node_seconds_ / (elapsed_s * static_cast<double>(nodes_.size())) : 0.0, "",
      "node-seconds held by jobs / (nodes x simulated time)");
}

}  // namespace dcsim::models::datacenter
