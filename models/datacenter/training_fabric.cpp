#include "models/datacenter/training_fabric.hpp"

#include <algorithm>
#include <limits>

#include "models/collective/collective_estimator.hpp"
#include "models/datacenter/training_job_run.hpp"
#include "sim/error.hpp"

namespace dcsim::models::datacenter {

namespace mc = collective;

TrainingFabric::TrainingFabric(sim::Simulator& sim, network::FabricSimulation& fabric,
                               std::vector<network::NodeId> hosts,
                               const mc::CollectiveRegistry& collectives, int remeasure_steps,
                               const mc::CollectiveTuning& tuning)
    : sim_(sim), fabric_(fabric), hosts_(std::move(hosts)), collectives_(collectives),
      remeasure_steps_(std::max(1, remeasure_steps)), tuning_(tuning) {
  // Flow mode sends Simple-protocol chunks: compare with the analytic Simple ring.
  for (int p = 0; p < mc::kProtocolCount; ++p) {
    tuning_.enable_protocol[p] = p == static_cast<int>(mc::Protocol::kSimple);
  }
}

bool TrainingFabric::crosses_nodes(const workload::TrainingStepResult& step) {
  return step.dp > 1 && step.dp_system.nodes > 1 && step.dp_grad_bytes > 0.0;
}

std::size_t TrainingFabric::attach(TrainingJobRun& run, const workload::TrainingStepResult& step,
                                   const std::vector<int>& nodes) {
  const mc::CollectiveSystem& s = step.dp_system;
  if (!crosses_nodes(step) || nodes.size() % static_cast<std::size_t>(s.nodes) != 0 ||
      step.dp_node_nics < 1) {
    throw sim::InternalError("TrainingFabric::attach: a job whose DP does not span its nodes (this is a bug)");
  }
  Job job;
  job.run = &run;
  job.step = &step;
  for (int node : nodes) {
    if (node < 0 || static_cast<std::size_t>(node) >= hosts_.size()) {
      throw sim::InternalError("TrainingFabric::attach: node without a fabric host (this is a bug)");
    }
    job.hosts.push_back(hosts_[static_cast<std::size_t>(node)]);
  }
  const double S = step.dp_grad_bytes;
  const int n = s.ranks();
  const int steps = 2 * (n - 1);
  const int inter = 2 * (s.nodes - 1);
  const int pi = static_cast<int>(mc::Protocol::kSimple);
  const double edge_bytes = steps * (S / n);  // over one node boundary, whole all_reduce
  job.flow_bytes = step.dp_groups_per_node * edge_bytes / step.dp_node_nics / tuning_.network_efficiency;
  job.nvlink_s = s.gpus_per_node > 1 ? edge_bytes / mc::nvlink_bandwidth(s, tuning_) : 0.0;
  job.latency_s = (tuning_.ring_base_latency_us[pi] + (steps - inter) * tuning_.ring_nvlink_step_us[pi] +
                   inter * tuning_.ring_net_step_us[pi]) *
                  1e-6;
  job.analytic_s =
      mc::estimate_collective(collectives_, mc::CollectiveOp::kAllReduce, S, s, tuning_, "ring").time_s;
  jobs_.push_back(std::move(job));
  request_round();
  return jobs_.size() - 1;
}

void TrainingFabric::detach(std::size_t handle) {
  jobs_[handle].run = nullptr;
  request_round();
}

void TrainingFabric::request_round() {
  if (in_round_) {
    round_requested_ = true;  // after the flows in flight: they would skew a new round
    return;
  }
  start_round();
}

void TrainingFabric::start_round() {
  sim_.cancel(timer_);
  round_requested_ = false;
  round_start_ = sim_.now();
  measuring_ = 0;
  for (std::size_t h = 0; h < jobs_.size(); ++h) {
    Job& job = jobs_[h];
    if (job.run == nullptr) continue;
    const int ring = job.step->dp_system.nodes;
    const int channels = job.step->dp_node_nics;
    job.last = round_start_;
    for (std::size_t base = 0; base < job.hosts.size(); base += static_cast<std::size_t>(ring)) {
      for (int i = 0; i < ring; ++i) {
        const network::NodeId src = job.hosts[base + static_cast<std::size_t>(i)];
        const network::NodeId dst = job.hosts[base + static_cast<std::size_t>((i + 1) % ring)];
        for (int c = 0; c < channels; ++c) {
          ++job.pending;
          ++flows_;
          fabric_.start_flow(src, dst, job.flow_bytes,
                             [this, h](const network::FinishedFlow& f) { on_flow(h, f); });
        }
      }
    }
    ++measuring_;
  }
  if (measuring_ == 0) return;  // no job left: nothing to measure until one attaches
  in_round_ = true;
  ++rounds_;
}

void TrainingFabric::on_flow(std::size_t handle, const network::FinishedFlow& f) {
  Job& job = jobs_[handle];
  job.last = std::max(job.last, f.finish);
  if (--job.pending > 0) return;
  if (job.run != nullptr) {
    const double bandwidth_s = std::max(job.nvlink_s, (job.last - round_start_).seconds());
    job.scale = (bandwidth_s + job.latency_s) / job.analytic_s;
    job.run->set_dp_scale(job.scale);
  }
  if (--measuring_ > 0) return;
  in_round_ = false;
  if (round_requested_) {
    start_round();
  } else {
    schedule_next_round();
  }
}

void TrainingFabric::schedule_next_round() {
  double step_s = std::numeric_limits<double>::infinity();
  for (const Job& job : jobs_) {
    if (job.run != nullptr) step_s = std::min(step_s, job.run->current_step_time_s());
  }
  if (!(step_s < std::numeric_limits<double>::infinity())) return;
  timer_ = sim_.after(sim::Time::ceil_from_seconds(remeasure_steps_ * step_s), [this] { request_round(); });
}

}  // namespace dcsim::models::datacenter
