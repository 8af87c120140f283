#include "models/cluster/cloud_pool.hpp"

#include <algorithm>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

constexpr double kSecondsPerHour = 3600.0;

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw sim::ConfigError(field, message);
}

}  // namespace

CloudPool::CloudPool(const CloudPoolConfig& config, int gpus_per_node, int first_node, std::uint64_t seed,
                     std::string scheduler, Host& host, sim::Simulator& sim)
    : config_(config),
      first_node_(first_node),
      scheduler_(std::move(scheduler)),
      host_(host),
      sim_(sim),
      rng_(seed, "cluster/cloud_pool", "spot_preemption") {
  const CloudPoolConfig& p = config_;
  economics::validate(p.offer, "cloud_pool.offer_params.");
  require(p.offer.gpus_per_instance == gpus_per_node, "cloud_pool.offer",
          "expected an offer whose instances have the node's " + std::to_string(gpus_per_node) +
              " GPUs (jobs hold whole instances as they hold whole nodes), got '" + p.offer.name + "' with " +
              std::to_string(p.offer.gpus_per_instance));
  require(p.max_instances >= 1, "cloud_pool.max_instances",
          "expected at least 1 instance, got " + std::to_string(p.max_instances));
  require(p.provisioning_delay >= sim::Time::zero(), "cloud_pool.provisioning_delay", "must not be negative");
  require(p.idle_release >= sim::Time::zero(), "cloud_pool.idle_release", "must not be negative");
  require(p.dataset_bytes >= 0 && p.results_bytes >= 0, "cloud_pool.transfer", "sizes must not be negative");
  require(p.wan_bits_per_s > 0, "cloud_pool.transfer.wan_bandwidth", "must be positive");
  slots_.resize(static_cast<std::size_t>(p.max_instances));
}

void CloudPool::announce(int node, seams::CloudInstanceChange::Kind kind, double lost_gpu_s) const {
  if (signals_ == nullptr) return;
  signals_->cloud_instance.emit(
      seams::CloudInstanceChange{sim_.now(), node, kind, config_.offer.gpus_per_instance, lost_gpu_s});
}

void CloudPool::request(const policy::CloudRequest& r) {
  if (r.instances > 0) provision(r.instances);
  if (r.ask_again_at == sim::Time::max()) return;
  if (r.ask_again_at <= sim_.now()) {
    throw sim::InternalError("scheduler '" + scheduler_ + "' asked to be asked again at " +
                             std::to_string(r.ask_again_at.seconds()) + " s, not after now (this is a bug)");
  }
  if (r.ask_again_at >= wake_at_) return;  // an earlier ask is pending; it asks again then
  wake_at_ = r.ask_again_at;
  sim_.at(r.ask_again_at, [this, at = r.ask_again_at] {
    if (wake_at_ == at) wake_at_ = sim::Time::max();
    host_.cloud_capacity_changed();
  });
}

void CloudPool::provision(int instances) {
  if (instances > config_.max_instances - provisioning_ - ready_) {
    throw sim::InternalError("scheduler '" + scheduler_ + "' requested " + std::to_string(instances) +
                             " cloud instances beyond the pool's maximum (this is a bug)");
  }
  for (std::size_t i = 0; instances > 0 && i < slots_.size(); ++i) {
    if (slots_[i].state != State::kOff) continue;
    const int node = first_node_ + static_cast<int>(i);
    slots_[i].state = State::kProvisioning;
    ++provisioning_;
    ++requested_;
    --instances;
    announce(node, seams::CloudInstanceChange::Kind::kRequested);
    sim_.at(sim_.now() + config_.provisioning_delay, [this, node] { on_ready(node); });
  }
}

void CloudPool::on_ready(int node) {
  Slot& s = slot(node);
  s.state = State::kReady;
  s.ready_since = sim_.now();
  --provisioning_;
  ++ready_;
  peak_ready_ = std::max(peak_ready_, ready_);
  host_.set_instance_provisioned(node, true);
  announce(node, seams::CloudInstanceChange::Kind::kReady);
  const double rate =
      config_.offer.purchase == economics::CloudPurchase::kSpot ? config_.offer.preemptions_per_instance_hour : 0.0;
  if (rate > 0) {
    const double life_s = rng_.exponential(kSecondsPerHour / rate);
    s.preempt_event = sim_.at(
        sim_.now() + sim::Time::from_seconds(life_s), [this, node] { preempt(node); }, sim::Priority::kFirst);
  }
  instance_idle(node);  // until a job takes it
  host_.cloud_capacity_changed();
}

void CloudPool::instance_held(int node) {
  idle_.erase(std::lower_bound(idle_.begin(), idle_.end(), node));
  sim_.cancel(slot(node).idle_event);
}

void CloudPool::instance_idle(int node) {
  idle_.insert(std::lower_bound(idle_.begin(), idle_.end(), node), node);
  slot(node).idle_event = sim_.at(sim_.now() + config_.idle_release, [this, node] { release(node); });
}

void CloudPool::release(int node) {
  Slot& s = slot(node);
  const auto at = std::lower_bound(idle_.begin(), idle_.end(), node);
  if (s.state != State::kReady || at == idle_.end() || *at != node) {
    throw sim::InternalError("cloud instance " + std::to_string(node) + " released while not idle (this is a bug)");
  }
  idle_.erase(at);
  sim_.cancel(s.preempt_event);
  s.state = State::kOff;
  instance_s_ += (sim_.now() - s.ready_since).seconds();
  --ready_;
  ++releases_;
  host_.set_instance_provisioned(node, false);
  announce(node, seams::CloudInstanceChange::Kind::kReleased);
  // Jobs waiting for instances may now be requested again (the pool had no room).
  host_.cloud_capacity_changed();
}

void CloudPool::preempt(int node) {
  Slot& s = slot(node);
  const auto at = std::lower_bound(idle_.begin(), idle_.end(), node);
  if (at != idle_.end() && *at == node) {  // idle: no job on it
    idle_.erase(at);
    sim_.cancel(s.idle_event);
  }
  s.state = State::kOff;
  instance_s_ += (sim_.now() - s.ready_since).seconds();
  --ready_;
  ++preemptions_;
  // Gone first: its jobs' release does not make it idle.
  host_.set_instance_provisioned(node, false);
  const double lost_gpu_s = host_.interrupt_instance_jobs(node, "spot_preemption");
  announce(node, seams::CloudInstanceChange::Kind::kPreempted, lost_gpu_s);
  host_.cloud_capacity_changed();
}

sim::Time CloudPool::send_dataset(std::size_t job) {
  const double bytes = config_.dataset_bytes;
  if (bytes <= 0) return sim::Time::zero();
  // A fresh instance has nothing: the dataset (or checkpoint) crosses the WAN before the work
  // starts, the job holding its instances meanwhile.
  ingress_bytes_ += bytes;
  if (signals_ != nullptr) signals_->cloud_transfer.emit(seams::CloudTransfer{sim_.now(), job, bytes, false});
  return sim::Time::from_seconds(bytes * 8.0 / config_.wan_bits_per_s);
}

void CloudPool::job_finished(std::size_t job) {
  ++jobs_completed_;
  const double bytes = config_.results_bytes;
  if (bytes <= 0) return;
  egress_bytes_ += bytes;
  if (signals_ != nullptr) signals_->cloud_transfer.emit(seams::CloudTransfer{sim_.now(), job, bytes, true});
}

void CloudPool::emit_summary(std::uint64_t burst_jobs, double held_gpu_s, double transfer_gpu_s,
                             sim::TraceSink& sink) const {
  double instance_s = instance_s_;
  for (const auto& s : slots_) {
    if (s.state == State::kReady) instance_s += (sim_.now() - s.ready_since).seconds();
  }
  const auto put = [&sink](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  const auto put_count = [&sink](const std::string& path, std::uint64_t v, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put_count("workload/burst/jobs", burst_jobs, "jobs that ran on cloud pool instances at least once");
  put_count("workload/burst/jobs_completed", jobs_completed_, "jobs that finished on cloud pool instances");
  put("workload/burst/gpu_hours", held_gpu_s_ / kSecondsPerHour, "GPU-h",
      "GPU time jobs held on cloud pool instances (transfers, restarts and lost work included)");
  put("workload/onprem/gpu_hours", (held_gpu_s - held_gpu_s_) / kSecondsPerHour, "GPU-h",
      "GPU time jobs held on on-prem nodes");
  put_count("workload/spot_preemptions", preemptions_, "cloud pool instances preempted (spot)");
  put("goodput/transfer_gpu_h", transfer_gpu_s / kSecondsPerHour, "GPU-h",
      "GPU time jobs held on cloud instances while their dataset crossed the WAN");
  put_count("cloud/instances_requested", requested_, "cloud pool instances requested");
  put_count("cloud/instances_released", releases_, "cloud pool instances released after their idle timeout");
  sink.set_summary("cloud/peak_instances", sim::SummaryValue{static_cast<std::int64_t>(peak_ready_), "",
                                                             "most cloud pool instances provisioned at once"});
  put("cloud/instance_hours", instance_s / kSecondsPerHour, "instance-h",
      "instance time provisioned (usable), busy or idle: what the provider bills");
  put("cloud/ingress_bytes", ingress_bytes_, "B", "datasets sent on-prem -> cloud (free at the providers)");
  put("cloud/egress_bytes", egress_bytes_, "B", "results sent cloud -> on-prem (billed as egress)");
}

}  // namespace dcsim::models::cluster
