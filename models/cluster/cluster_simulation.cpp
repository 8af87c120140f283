#include "models/cluster/cluster_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/step_executor.hpp"
#include "models/cluster/training_fabric.hpp"
#include "models/cluster/training_job_run.hpp"
#include "models/cluster/workload_report.hpp"
#include "models/hardware/nvlink_domain.hpp"
#include "models/power/node_power.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw sim::ConfigError(field, message);
}

ClusterConfig validated(ClusterConfig config) {
  validate(config);
  return config;
}

// The end of the run. Training jobs: the wall time since each first started that went into
// steps it kept (nominal step time x steps saved or done), the "effective training time" of
// Llama 3's report.
TrainingTimeKept training_time_kept(const std::vector<std::unique_ptr<ClusterSimulation::Job>>& jobs, sim::Time now) {
  TrainingTimeKept training;
  for (const auto& job : jobs) {
    if (!job->plan || job->start == sim::Time::max()) continue;
    const double steps = job->training ? job->training->steps_done() : job->resume_step;
    training.kept_s += steps * job->plan->step.step_time_s;
    training.wall_s +=
        ((job->state == ClusterSimulation::Job::State::kDone ? job->finish : now) - job->start).seconds();
  }
  return training;
}

// Training jobs that read their dataset from the store: how long their steps waited for it.
void emit_data_stall_summary(const std::vector<std::unique_ptr<ClusterSimulation::Job>>& jobs, sim::TraceSink& sink) {
  double total_s = 0.0, gpu_h = 0.0;
  bool any = false;
  for (const auto& job : jobs) {
    if (!job->plan || !job->plan->dataset.from_store) continue;
    any = true;
    const double s = job->training != nullptr ? job->training->data_stall_s() : 0.0;
    total_s += s;
    gpu_h += s * job->spec.nodes * job->gpus_per_node / 3600.0;
    sink.set_summary("storage/jobs/" + job->spec.name + "/data_stall_s",
                     sim::SummaryValue{s, "s", "time the job's steps waited for their input from the store"});
  }
  if (!any) return;
  sink.set_summary("storage/data_stall_s",
                   sim::SummaryValue{total_s, "s", "time training steps waited for input from the store, all jobs"});
  sink.set_summary("storage/data_stall_gpu_h",
                   sim::SummaryValue{gpu_h, "GPU-h",
                                     "those waits x the jobs' GPUs (with storage/stall_gpu_h: the "
                                     "goodput the store cost)"});
}

// Issue 41 item 4: the consecutive trays one NVLink group of a training job spans on a
// multi-node NVLink domain (GB200 NVL72): its TP x CP ranks, or its EP group where the step model
// keeps EP inside the domain (ep <= the domain); 1 where a node is its own domain (HGX). The
// schedulers keep such blocks inside one domain (policy/free_capacity.hpp). O(1).
int nvlink_block_nodes(const workload::TrainingJobConfig& job, const hardware::NodeSpec& node) {
  if (hardware::nodes_per_nvlink_domain(node) <= 1) return 1;
  const workload::ParallelismPlan& p = job.parallelism;
  int group = p.tp * p.cp;
  if (p.ep > 1 && p.ep <= hardware::nvlink_domain(node)) group = std::max(group, p.ep);
  return std::max(1, group / node.gpus);
}

// Issue 41 item 4: training jobs that started on trays splitting one of their NVLink groups over
// two NVLink domains (only migration, hot spares and elastic re-forming can place them so); a
// key for those jobs only, so every other summary stays as it was.
void emit_nvlink_split_summary(const std::vector<std::unique_ptr<ClusterSimulation::Job>>& jobs, sim::TraceSink& sink) {
  for (const auto& job : jobs) {
    if (job->nvlink_split_starts == 0) continue;
    sink.set_summary("training/jobs/" + job->spec.name + "/nvlink_split_starts",
                     sim::SummaryValue{static_cast<std::int64_t>(job->nvlink_split_starts), "starts",
                                       "starts on trays that split an NVLink group over two NVLink domains "
                                       "(chosen by migration, hot spares or elastic re-forming, which are not "
                                       "domain-aware yet); the step model still costs those groups as NVLink"});
  }
}

// Issue 41 item 2: MoE training jobs' expert-parallel all-to-alls in the closed-form step (dense
// jobs add nothing, so their summaries stay as they were).
void emit_expert_parallel_summary(const std::vector<std::unique_ptr<ClusterSimulation::Job>>& jobs,
                                  sim::TraceSink& sink) {
  for (const auto& job : jobs) {
    if (!job->plan || !job->plan->job.model.moe.enabled()) continue;
    const auto& r = job->plan->step;
    const std::string at = "training/jobs/" + job->spec.name + "/";
    // Flow mode: the realised mean over the measured steps, on the stage with the most.
    const TrainingJobRun* run = job->training;
    if (run != nullptr && run->flow_mode() && run->measured_steps() > 0) {
      sink.set_summary(at + "exposed_ep_s",
                       sim::SummaryValue{run->measured().ep_s / run->measured_steps(), "s",
                                         "exposed expert-parallel all-to-alls of one step, measured in flow mode "
                                         "(mean; the stage with the most; in exposed_comm_s when that stage is "
                                         "the critical one)"});
    } else {
      sink.set_summary(at + "exposed_ep_s", sim::SummaryValue{r.ep_s, "s",
                                                              "exposed expert-parallel all-to-alls of "
                                                              "one step (closed form; in exposed_comm_s)"});
    }
    sink.set_summary(at + "ep_comm_s",
                     sim::SummaryValue{r.ep_comm_s, "s", "the step's expert-parallel all-to-alls before overlap"});
    sink.set_summary(at + "ep_bytes_per_gpu",
                     sim::SummaryValue{r.ep_bytes_per_gpu, "B", "all-to-all bytes one GPU sends per step (mean)"});
  }
}

}  // namespace

ClusterSimulation::ClusterSimulation(ClusterConfig config, ClusterRegistries registries, sim::Simulator& sim,
                                     sim::TraceSink& sink)
    : config_(validated(std::move(config))),
      sim_(sim),
      sink_(sink),
      registries_(registries),
      elastic_(config_.node, registries.collective_algorithms, config_.failover, job_table_,
               static_cast<ElasticFailover::Host&>(*this)),
      precursor_(config_.nodes, static_cast<PrecursorDrain::Host&>(*this), sim),
      services_(config_.node.gpus, config_.duration,
                config_.node.storage_nics * config_.node.storage_nic_bandwidth_bps / 8.0, checkpoint_io_, job_table_,
                static_cast<ServiceJobs::Host&>(*this), sim),
      pool_(config_.nodes, config_.nodes_per_rack, config_.node.gpus,
            power::node_power_w(config_.node, 1.0) - power::node_power_w(config_.node, 0.0), waiting_, sim) {
  pool_.set_nodes_per_nvlink_domain(hardware::nodes_per_nvlink_domain(config_.node));
  const auto& entry = registries.schedulers.get(config_.scheduler);
  config_.scheduler_params.require_documented(entry.params, "scheduler_params.", "scheduler '" + config_.scheduler + "'");
  config_.scheduler_params.fill_defaults(entry.params);
  scheduler_ = entry.factory(config_.scheduler_params);
  // A pool nothing sends work to, or a bursting policy with nowhere to burst, would be a key
  // silently ignored.
  require(!config_.cloud_pool || scheduler_->uses_cloud_pool(), "cloud_pool",
          "needs a scheduler that sends work to it (cloud_burst), got '" + config_.scheduler + "'");
  require(config_.cloud_pool || !scheduler_->uses_cloud_pool(), "scheduler",
          "'" + config_.scheduler + "' sends work to a cloud pool, but the cluster declares none (cloud_pool)");
  const auto& failover = registries.failover_policies.get(config_.failover);
  config_.failover_params.require_documented(failover.params, "failover_params.",
                                             "failover policy '" + config_.failover + "'");
  config_.failover_params.fill_defaults(failover.params);
  try {
    failover_ = failover.factory(config_.failover_params);
  } catch (const sim::ConfigError& e) {
    throw sim::ConfigError("failover_params." + e.field(), e.detail());
  }

  std::vector<workload::JobSpec> specs = config_.jobs;
  append_training_jobs(config_, registries_.collective_algorithms, specs);
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
  std::optional<sim::TableId> steps_table;  // training_steps, declared with the first training job
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto job = std::make_unique<Job>();
    job->spec = std::move(specs[i]);
    job->named = i < named_count;
    job->gpus_per_node = job->spec.gpus_per_node > 0 ? job->spec.gpus_per_node : config_.node.gpus;
    if (job->spec.training) job->plan = plan_with_policy_interval(job->spec);
    if (job->plan) job->nvlink_block_nodes = nvlink_block_nodes(job->plan->job, config_.node);
    if (job->spec.training) {
      if (!steps_table) steps_table = TrainingJobRun::declare_steps_table(sink_);
      job->training_series = TrainingJobRun::declare_series(sink_, job->spec.name, *steps_table);
    }
    jobs_.push_back(std::move(job));
  }
  std::stable_sort(jobs_.begin(), jobs_.end(),
                   [](const auto& a, const auto& b) { return a->spec.arrival < b->spec.arrival; });
  for (std::size_t i = 0; i < jobs_.size(); ++i) jobs_[i]->index = i;

  power_.emplace(config_.nodes, config_.nodes_per_rack, power::node_power_w(config_.node, 0.0), sim_.now());
  gpu_activities_ = power::phase_activities(config_.gpu_phase_power, config_.node.gpu);
  // Hot spares: the highest-numbered nodes, held out of the scheduler's pool.
  const int spares = failover_->spare_nodes(config_.nodes);
  require(spares < config_.nodes, "failover_params",
          "holds " + std::to_string(spares) + " of the cluster's " + std::to_string(config_.nodes) +
              " nodes as spares: none would be left to run jobs");
  pool_.hold_spares(spares);
  for (const auto& job : jobs_) {
    require(job->spec.nodes <= config_.nodes - spares, "failover_params",
            "leaves " + std::to_string(config_.nodes - spares) + " nodes besides its " + std::to_string(spares) +
                " spares, but job '" + job->spec.name + "' needs " + std::to_string(job->spec.nodes));
  }
  if (config_.cloud_pool) {  // node ids after the on-prem ones
    cloud_ = std::make_unique<CloudPool>(*config_.cloud_pool, config_.node.gpus, config_.nodes, config_.seed,
                                         config_.scheduler, static_cast<CloudPool::Host&>(*this), sim_);
    pool_.add_cloud(*cloud_, config_.cloud_pool->max_instances);
    for (int i = 0; i < config_.cloud_pool->max_instances; ++i) power_->add_unracked_node(sim_.now());
  }
  telemetry_.emplace(ClusterTelemetry::Config{config_.telemetry_interval, config_.duration,
                                              config_.racks_per_power_series},
                     *power_, pool_, static_cast<const ClusterTelemetry::Source&>(*this), sim_, sink_);

  job_report_.declare();
  corruption_.emplace(config_.sdc_detection, config_.integrity_events, config_.seed, job_table_,
                      static_cast<SilentCorruption::Host&>(*this), sim_, sink_);
}

ClusterSimulation::~ClusterSimulation() = default;

void ClusterSimulation::connect(const ClusterConnections& links) {
  signals_ = links.signals;
  telemetry_->set_it_power_signal(signals_ != nullptr ? &signals_->it_power : nullptr);
  if (cloud_) cloud_->set_signals(signals_);
  if (!links.fabric_groups.empty()) pool_.set_fabric_groups(links.fabric_groups);
  training_fabric_ = links.training_fabric;
  if (training_fabric_ != nullptr && !config_.training_jobs.empty()) {
    collective_log_ = std::make_unique<CollectiveLog>(sink_);
  }
  checkpoint_io_.set_frontend_network(links.frontend_network);
  power_source_ = links.power_source;
  if (power_source_ != nullptr) {  // the node power the cluster had computed so far is the source's from now
    for (int i = 0; i < config_.nodes; ++i) {
      power_->integrate(i, sim_.now());
      power_source_->on_node_utilization(i, pool_.at(i).utilization);
      power_->set_power_w(i, sim_.now(), power_source_->node_power_w(i));
    }
    telemetry_->mark_dirty();
  }
  pool_.set_conditions(links.node_conditions);
}

void ClusterSimulation::start() {
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    sim_.at(std::max(jobs_[i]->spec.arrival, sim_.now()), [this, i] { on_arrival(i); });
  }
  telemetry_->start();
}

void ClusterSimulation::on_arrival(std::size_t job_index) {
  Job& job = *jobs_[job_index];
  job.state = Job::State::kWaiting;
  waiting_.insert(job.waiting_entry());
  try_schedule();
}

void ClusterSimulation::try_schedule() {
  elastic_.try_expand();  // shrunk elastic jobs take free nodes back before waiting jobs do
  place_waiting();
  if (cloud_) cloud_->request(scheduler_->cloud_request(pool_));  // after the placements, which the policy sees
  telemetry_->mark_dirty();
}

void ClusterSimulation::place_waiting() {
  const bool room = pool_.free_gpus() > 0 || (cloud_ && !cloud_->idle_nodes().empty()) || scheduler_->preempts();
  if (waiting_.empty() || !room) return;
  const auto placements = scheduler_->schedule(pool_);
  if (placements.empty()) return;
  const std::size_t waiting_size = waiting_.size();
  std::vector<std::size_t> positions, preempted;
  positions.reserve(placements.size());
  // Each placement is checked against what the ones before it left free, then acted on.
  for (const auto& p : placements) {
    for (std::size_t done : positions) {
      if (done == p.position) {
        throw sim::InternalError("scheduler '" + config_.scheduler + "' placed a job twice (this is a bug)");
      }
    }
    if (p.position < waiting_size) {
      for (std::size_t victim : p.preempt) {
        preempt_job(victim, waiting_[p.position], p.preempt_relaunch);
        preempted.push_back(victim);
      }
    }
    pool_.check(p, waiting_size, config_.scheduler);
    positions.push_back(p.position);
    start_job(waiting_[p.position].job_index, p.nodes);
  }
  waiting_.remove_started(std::move(positions));
  // Preempted jobs wait again only now: queueing them earlier would move the positions the
  // policy's placements refer to.
  for (std::size_t victim : preempted) enqueue(victim, false, "preempted");
  if (!preempted.empty()) telemetry_->mark_dirty();
}

void ClusterSimulation::update_node_utilization(int node) {
  // Shared nodes: each job's utilisation weighted by the share of the node's GPUs it holds.
  auto& n = pool_.at(node);
  double u = 0.0;
  for (const auto& [index, gpus] : n.jobs) {
    if (jobs_[index]->stalled || jobs_[index]->awaiting_work) continue;  // GPUs held, idle
    u += jobs_[index]->spec.gpu_utilization * static_cast<double>(gpus) / static_cast<double>(n.state.gpus);
  }
  // Energy at the old power up to now, before the power source hears of the change.
  power_->integrate(node, sim_.now());
  n.utilization = std::min(u, 1.0);
  if (power_source_) power_source_->on_node_utilization(node, n.utilization);
  power_->set_power_w(node, sim_.now(),
                      power_source_ ? power_source_->node_power_w(node)
                                    : power::node_power_w(config_.node, n.utilization));
}

void ClusterSimulation::set_job_utilization(std::size_t job_index, double utilization) {
  Job& job = *jobs_[job_index];
  if (job.spec.gpu_utilization == utilization) return;
  job.spec.gpu_utilization = utilization;
  for (int node : job.nodes) {
    if (!pool_.is_cloud(node)) update_node_utilization(node);  // cloud instances draw no on-prem power
  }
  telemetry_->mark_dirty();
}

void ClusterSimulation::set_node_clock_factor(int node, double factor) {
  if (node < 0 || node >= config_.nodes || !(factor > 0.0 && factor <= 1.0)) {
    throw sim::InternalError("set_node_clock_factor(" + std::to_string(node) + ", " +
                             std::to_string(factor) + "): out of range (this is a bug)");
  }
  auto& n = pool_.at(node);
  if (signals_ != nullptr && factor != n.clock_factor) {
    signals_->node_clock.emit(seams::NodeClockChange{sim_.now(), node, factor});
  }
  n.clock_factor = factor;
  for (const auto& [index, gpus] : n.jobs) {
    Job& job = *jobs_[index];
    // A power source may set the clock while the job's nodes are being assigned, or during a
    // restart delay, before the job's work exists: the work then starts at its nodes' slowest.
    if (job.run) job.run->set_clock_factor(pool_.slowest_clock(job.nodes));
  }
  if (power_source_) refresh_node_power(node);
}

void ClusterSimulation::refresh_node_power(int node) {
  power_->integrate(node, sim_.now());
  const double p =
      power_source_ ? power_source_->node_power_w(node) : power::node_power_w(config_.node, pool_.at(node).utilization);
  if (p != power_->node_power_w(node)) {
    power_->set_power_w(node, sim_.now(), p);
    telemetry_->mark_dirty();
  }
}

// The end of the run: rows for unfinished jobs and the summary (energy, power, the workload's
// waits and completions, reliability and goodput).

void ClusterSimulation::finish() {
  if (finished_run_) throw sim::InternalError("ClusterSimulation::finish called twice (this is a bug)");
  finished_run_ = true;
  if (collective_log_) collective_log_->finish();
  power_->integrate_all(sim_.now());
  // Unfinished jobs get a row too, so the tables account for every job.
  // The workload's jobs by how they ended. Inference replicas are cluster jobs too (placed, held,
  // interrupted like any), but the service decides when they end: they are counted apart and
  // kept out of the workload's counts, waits and makespan (their service reports its own).
  WorkloadTally workload;
  sim::Time makespan = sim::Time::zero();
  for (auto& job : jobs_) {
    // Unfinished training jobs delivered the whole steps they have done (running) or will resume
    // from (waiting), failed and unstarted ones nothing; completed ones reported at completion.
    if (job->state == Job::State::kRunning && job->run != nullptr && job->training != nullptr) {
      report_training_work(*job, std::floor(job->training->steps_done()));
      job->training->record_steps_until_now();  // the steps in flight at the end, in training_steps
    } else if (job->state == Job::State::kRunning || job->state == Job::State::kWaiting) {
      report_training_work(*job, job->resume_step);
    } else if (job->state == Job::State::kFailed || job->state == Job::State::kPending) {
      report_training_work(*job, 0);
    }
    if (job->state == Job::State::kRunning) close_run_accounts(*job);
    if (job->state == Job::State::kRunning || job->state == Job::State::kWaiting)
      job_report_.row(job->report_row(pool_.fabric_groups(job->nodes)));
    if (job->service) {
      ++workload.replicas;
      continue;
    }
    using Outcome = WorkloadTally::Outcome;
    workload.add(job->state == Job::State::kDone      ? Outcome::kCompleted
                 : job->state == Job::State::kFailed  ? Outcome::kFailed
                 : job->state == Job::State::kPending ? Outcome::kNotArrived
                                                      : Outcome::kUnfinished);
    if (job->start != sim::Time::max()) workload.add_wait((job->start - job->spec.arrival).seconds());
    if (job->state == Job::State::kDone) {
      makespan = std::max(makespan, job->finish);
      workload.add_completion((job->finish - job->spec.arrival).seconds(), job->spec.work.seconds());
    }
  }

  const double energy = power_->energy_j(sim_.now());
  const double elapsed_s = sim_.now().seconds();
  auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  put("energy/it_kwh", energy / kJoulesPerKwh, "kWh", "IT energy of the compute nodes");
  put("power/mean_w", elapsed_s > 0 ? energy / elapsed_s : power_->cluster_power_w(), "W",
      "IT energy / simulated time");
  put("power/peak_w", power_->peak_power_w(), "W", "highest settled cluster IT power");
  put("power/peak_rack_w", power_->peak_rack_power_w(), "W", "highest settled rack IT power");
  emit_workload_summary(workload, sink_);
  emit_goodput_summary(goodput_, training_time_kept(jobs_, sim_.now()), sink_);
  corruption_->finish();
  emit_data_stall_summary(jobs_, sink_);
  emit_expert_parallel_summary(jobs_, sink_);
  emit_nvlink_split_summary(jobs_, sink_);
  put("makespan_s", makespan.seconds(), "s", "time of the last job completion (inference replicas' ends excluded)");
  put("simulated_s", elapsed_s, "s", "simulated time at the end of the run");
  put("utilization/node_busy_fraction",
      elapsed_s > 0 ? busy_node_seconds_ / (elapsed_s * static_cast<double>(config_.nodes)) : 0.0, "",
      "on-prem node-seconds held by jobs / (nodes x simulated time); a job on k of a node's GPUs holds k/gpus of "
      "it");
  if (cloud_) {
    std::uint64_t burst_jobs = 0;
    for (const auto& job : jobs_) burst_jobs += job->ran_in_cloud ? 1 : 0;
    cloud_->emit_summary(burst_jobs, goodput_.held_gpu_s, goodput_.transfer_gpu_s, sink_);
  }
}

}  // namespace dcsim::models::cluster
