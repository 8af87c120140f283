// ClusterSimulation's cloud pool (cloud_pool.hpp): provisioning, idle release, spot preemptions,
// the data a job's move carries, and the pool's part of the summary.

#include "models/cluster/cloud_pool.hpp"

#include <algorithm>
#include <string>

#include "models/cluster/cluster_job.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

constexpr double kSecondsPerHour = 3600.0;

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw sim::ConfigError(field, message);
}

}  // namespace

void ClusterSimulation::build_cloud_pool() {
  const CloudPoolConfig& p = *config_.cloud_pool;
  economics::validate(p.offer, "cloud_pool.offer_params.");
  require(p.offer.gpus_per_instance == config_.node.gpus, "cloud_pool.offer",
          "expected an offer whose instances have the node's " + std::to_string(config_.node.gpus) +
              " GPUs (jobs hold whole instances as they hold whole nodes), got '" + p.offer.name + "' with " +
              std::to_string(p.offer.gpus_per_instance));
  require(p.max_instances >= 1, "cloud_pool.max_instances", "expected at least 1 instance, got " +
                                                                std::to_string(p.max_instances));
  require(p.provisioning_delay >= sim::Time::zero(), "cloud_pool.provisioning_delay", "must not be negative");
  require(p.idle_release >= sim::Time::zero(), "cloud_pool.idle_release", "must not be negative");
  require(p.dataset_bytes >= 0 && p.results_bytes >= 0, "cloud_pool.transfer", "sizes must not be negative");
  require(p.wan_bits_per_s > 0, "cloud_pool.transfer.wan_bandwidth", "must be positive");
  cloud_ = std::make_unique<CloudPool>(p, config_.nodes, config_.seed);
  for (int i = 0; i < p.max_instances; ++i) {
    Node n;
    n.state.rack = -1;  // not in the building
    n.state.gpus = p.offer.gpus_per_instance;
    n.state.free_gpus = n.state.gpus;
    n.state.cloud = true;
    n.state.provisioned = false;
    nodes_.push_back(std::move(n));
    power_->add_unracked_node(sim_.now());
  }
}

int ClusterSimulation::cloud_max_instances() const { return cloud_ ? cloud_->config.max_instances : 0; }
int ClusterSimulation::cloud_provisioning() const { return cloud_ ? cloud_->provisioning : 0; }
int ClusterSimulation::cloud_provisioned() const { return cloud_ ? cloud_->ready : 0; }
std::span<const int> ClusterSimulation::cloud_idle_nodes() const {
  return cloud_ ? std::span<const int>(cloud_->idle) : std::span<const int>();
}

void ClusterSimulation::request_cloud() {
  const policy::CloudRequest r = scheduler_->cloud_request(*this);
  if (r.instances > 0) provision_cloud(r.instances);
  if (r.ask_again_at == sim::Time::max()) return;
  if (r.ask_again_at <= sim_.now()) {
    throw sim::InternalError("scheduler '" + config_.scheduler + "' asked to be asked again at " +
                             std::to_string(r.ask_again_at.seconds()) + " s, not after now (this is a bug)");
  }
  if (r.ask_again_at >= cloud_->wake_at) return;  // an earlier ask is pending; it asks again then
  cloud_->wake_at = r.ask_again_at;
  sim_.at(r.ask_again_at, [this, at = r.ask_again_at] {
    if (cloud_->wake_at == at) cloud_->wake_at = sim::Time::max();
    try_schedule();
    telemetry_->mark_dirty();
  });
}

void ClusterSimulation::provision_cloud(int instances) {
  CloudPool& pool = *cloud_;
  if (instances > pool.config.max_instances - pool.provisioning - pool.ready) {
    throw sim::InternalError("scheduler '" + config_.scheduler + "' requested " + std::to_string(instances) +
                             " cloud instances beyond the pool's maximum (this is a bug)");
  }
  for (std::size_t i = 0; instances > 0 && i < pool.slots.size(); ++i) {
    if (pool.slots[i].state != CloudPool::State::kOff) continue;
    const int node = pool.first_node + static_cast<int>(i);
    pool.slots[i].state = CloudPool::State::kProvisioning;
    ++pool.provisioning;
    ++pool.requested;
    --instances;
    if (signals_ != nullptr) {
      signals_->cloud_instance.emit(seams::CloudInstanceChange{sim_.now(), node, seams::CloudInstanceChange::Kind::kRequested,
                                                        pool.config.offer.gpus_per_instance, 0.0});
    }
    sim_.at(sim_.now() + pool.config.provisioning_delay, [this, node] { on_cloud_ready(node); });
  }
}

void ClusterSimulation::on_cloud_ready(int node) {
  CloudPool& pool = *cloud_;
  CloudPool::Slot& slot = pool.slot(node);
  slot.state = CloudPool::State::kReady;
  slot.ready_since = sim_.now();
  --pool.provisioning;
  ++pool.ready;
  pool.peak_ready = std::max(pool.peak_ready, pool.ready);
  nodes_[static_cast<std::size_t>(node)].state.provisioned = true;
  if (signals_ != nullptr) {
    signals_->cloud_instance.emit(seams::CloudInstanceChange{sim_.now(), node, seams::CloudInstanceChange::Kind::kReady,
                                                      pool.config.offer.gpus_per_instance, 0.0});
  }
  const double rate = pool.config.offer.purchase == economics::CloudPurchase::kSpot
                          ? pool.config.offer.preemptions_per_instance_hour
                          : 0.0;
  if (rate > 0) {
    const double life_s = pool.rng.exponential(kSecondsPerHour / rate);
    slot.preempt_event =
        sim_.at(sim_.now() + sim::Time::from_seconds(life_s), [this, node] { preempt_cloud(node); }, sim::Priority::kFirst);
  }
  cloud_release(node);  // idle until a job takes it
  try_schedule();
  telemetry_->mark_dirty();
}

void ClusterSimulation::cloud_hold(int node) {
  CloudPool& pool = *cloud_;
  pool.idle.erase(std::lower_bound(pool.idle.begin(), pool.idle.end(), node));
  sim_.cancel(pool.slot(node).idle_event);
}

void ClusterSimulation::cloud_release(int node) {
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  if (!n.state.provisioned || n.state.free_gpus != n.state.gpus) return;
  CloudPool& pool = *cloud_;
  pool.idle.insert(std::lower_bound(pool.idle.begin(), pool.idle.end(), node), node);
  pool.slot(node).idle_event = sim_.at(sim_.now() + pool.config.idle_release, [this, node] { release_cloud(node); });
}

void ClusterSimulation::release_cloud(int node) {
  CloudPool& pool = *cloud_;
  CloudPool::Slot& slot = pool.slot(node);
  Node& n = nodes_[static_cast<std::size_t>(node)];
  if (slot.state != CloudPool::State::kReady || !n.jobs.empty()) {
    throw sim::InternalError("cloud instance " + std::to_string(node) + " released while not idle (this is a bug)");
  }
  pool.idle.erase(std::lower_bound(pool.idle.begin(), pool.idle.end(), node));
  sim_.cancel(slot.preempt_event);
  slot.state = CloudPool::State::kOff;
  pool.instance_s += (sim_.now() - slot.ready_since).seconds();
  --pool.ready;
  ++pool.releases;
  n.state.provisioned = false;
  if (signals_ != nullptr) {
    signals_->cloud_instance.emit(seams::CloudInstanceChange{sim_.now(), node, seams::CloudInstanceChange::Kind::kReleased,
                                                      pool.config.offer.gpus_per_instance, 0.0});
  }
  // Jobs waiting for instances may now be requested again (the pool had no room).
  try_schedule();
  telemetry_->mark_dirty();
}

void ClusterSimulation::preempt_cloud(int node) {
  CloudPool& pool = *cloud_;
  CloudPool::Slot& slot = pool.slot(node);
  Node& n = nodes_[static_cast<std::size_t>(node)];
  if (n.jobs.empty()) {
    pool.idle.erase(std::lower_bound(pool.idle.begin(), pool.idle.end(), node));
    sim_.cancel(slot.idle_event);
  }
  slot.state = CloudPool::State::kOff;
  pool.instance_s += (sim_.now() - slot.ready_since).seconds();
  --pool.ready;
  ++pool.preemptions;
  n.state.provisioned = false;  // gone: its jobs' release below does not make it idle
  const double lost_before = goodput_.lost_gpu_s;
  std::vector<std::size_t> victims;
  for (const auto& [index, gpus] : n.jobs) victims.push_back(index);
  for (std::size_t j : victims) interrupt_job(j, "spot_preemption", {node});
  if (signals_ != nullptr) {
    signals_->cloud_instance.emit(seams::CloudInstanceChange{sim_.now(), node, seams::CloudInstanceChange::Kind::kPreempted,
                                                      pool.config.offer.gpus_per_instance, goodput_.lost_gpu_s - lost_before});
  }
  try_schedule();
  telemetry_->mark_dirty();
}

void ClusterSimulation::start_cloud_transfer(Job& job) {
  CloudPool& pool = *cloud_;
  job.ran_in_cloud = true;
  const double bytes = pool.config.dataset_bytes;
  if (bytes <= 0) return;
  // A fresh instance has nothing: the dataset (or checkpoint) crosses the WAN before the work
  // starts, the job holding its instances meanwhile.
  job.transfer_delay = sim::Time::from_seconds(bytes * 8.0 / pool.config.wan_bits_per_s);
  job.restart_delay += job.transfer_delay;
  pool.ingress_bytes += bytes;
  if (signals_ != nullptr) signals_->cloud_transfer.emit(seams::CloudTransfer{sim_.now(), job.index, bytes, false});
}

void ClusterSimulation::finish_cloud_job(const Job& job) {
  CloudPool& pool = *cloud_;
  ++pool.jobs_completed;
  const double bytes = pool.config.results_bytes;
  if (bytes <= 0) return;
  pool.egress_bytes += bytes;
  if (signals_ != nullptr) signals_->cloud_transfer.emit(seams::CloudTransfer{sim_.now(), job.index, bytes, true});
}

void ClusterSimulation::account_start_delay(Job& job) {
  const double held_s = (sim_.now() - job.run_start).seconds();
  const double transfer_s = std::min(held_s, job.transfer_delay.seconds());
  goodput_.transfer_gpu_s += job.gpus() * transfer_s;
  goodput_.restart_gpu_s += job.gpus() * (held_s - transfer_s);
  job.transfer_delay = sim::Time::zero();
}

void ClusterSimulation::emit_cloud_summary() {
  if (!cloud_) return;
  const CloudPool& pool = *cloud_;
  double instance_s = pool.instance_s;
  for (const auto& slot : pool.slots) {
    if (slot.state == CloudPool::State::kReady) instance_s += (sim_.now() - slot.ready_since).seconds();
  }
  std::uint64_t burst_jobs = 0;
  for (const auto& job : jobs_) burst_jobs += job->ran_in_cloud ? 1 : 0;
  const auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  const auto put_count = [this](const std::string& path, std::uint64_t v, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put_count("workload/burst/jobs", burst_jobs, "jobs that ran on cloud pool instances at least once");
  put_count("workload/burst/jobs_completed", pool.jobs_completed, "jobs that finished on cloud pool instances");
  put("workload/burst/gpu_hours", pool.held_gpu_s / kSecondsPerHour, "GPU-h",
      "GPU time jobs held on cloud pool instances (transfers, restarts and lost work included)");
  put("workload/onprem/gpu_hours", (goodput_.held_gpu_s - pool.held_gpu_s) / kSecondsPerHour, "GPU-h",
      "GPU time jobs held on on-prem nodes");
  put_count("workload/spot_preemptions", pool.preemptions, "cloud pool instances preempted (spot)");
  put("goodput/transfer_gpu_h", goodput_.transfer_gpu_s / kSecondsPerHour, "GPU-h",
      "GPU time jobs held on cloud instances while their dataset crossed the WAN");
  put_count("cloud/instances_requested", pool.requested, "cloud pool instances requested");
  put_count("cloud/instances_released", pool.releases, "cloud pool instances released after their idle timeout");
  sink_.set_summary("cloud/peak_instances", sim::SummaryValue{static_cast<std::int64_t>(pool.peak_ready), "",
                                                             "most cloud pool instances provisioned at once"});
  put("cloud/instance_hours", instance_s / kSecondsPerHour, "instance-h",
      "instance time provisioned (usable), busy or idle: what the provider bills");
  put("cloud/ingress_bytes", pool.ingress_bytes, "B", "datasets sent on-prem -> cloud (free at the providers)");
  put("cloud/egress_bytes", pool.egress_bytes, "B", "results sent cloud -> on-prem (billed as egress)");
}

}  // namespace dcsim::models::cluster
