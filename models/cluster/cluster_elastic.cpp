// ClusterSimulation's elastic data parallelism: a training job that lost nodes re-forms at once on
// the data-parallel replicas it still has (plus free nodes) and grows back as nodes free up.
//
// Replicas and nodes (failover_policy.hpp): ranks are TP-innermost, then DP, then PP, so with g
// GPUs per node a stage's t d / g nodes are consecutive in the job's node list and node i holds
// the g / t replicas of column i mod (t d / g) for stage i div (t d / g). A column (one node
// per stage) is what a fault takes down and what the job re-forms with; its list stays in that
// order, stage-major, so the step graph (flow mode) maps it the same way.
//
// Throughput: the job on d' replicas runs the plan re-estimated for d' with the global batch
// kept (workload::replan_data_parallel: more micro-batches per replica), so a step takes about
// d / d' as long; the GPUs it no longer holds are free for other jobs, so goodput counts only
// what it holds (goodput/shrunk_missing_gpu_h says how much it ran without).
//
// Costs: every re-formation holds the job's new nodes for the policy's reconfigure_time (plus the
// checkpoint reload when its state comes from the checkpoint) before the work resumes; growing
// back abandons the step in flight (communicators are torn down mid-step), counted as lost work
// (goodput/lost_gpu_h_by_cause/elastic_expand). A shrunk job grows back ahead of the waiting
// queue, as many columns as free nodes allow, at every event that frees nodes.

#include <algorithm>
#include <cmath>
#include <string>

#include "models/cluster/cluster_job.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

struct Columns {
  int count = 0;     // of the submitted job: t d / g
  int replicas = 0;  // per column: g / t
  int stages = 1;    // pp: nodes per column
};

Columns columns_of(const workload::TrainingJobPlan& plan, int gpus_per_node) {
  const auto& p = plan.job.parallelism;
  Columns c;
  c.stages = p.pp;
  if (plan.step.dp < 2 || (p.tp * plan.step.dp) % gpus_per_node != 0 || gpus_per_node % p.tp != 0)
    return c;
  c.count = p.tp * plan.step.dp / gpus_per_node;
  c.replicas = gpus_per_node / p.tp;
  return c;
}

// The node list of `keep` columns of `nodes` (a list of `current` columns), then `fresh` nodes
// taken a column at a time (one node per stage), stage-major.
std::vector<int> column_list(const std::vector<int>& nodes, int current,
                             const std::vector<int>& keep, const std::vector<int>& fresh,
                             int stages) {
  std::vector<int> out;
  const int added = static_cast<int>(fresh.size()) / stages;
  for (int s = 0; s < stages; ++s) {
    for (int c : keep) out.push_back(nodes[static_cast<std::size_t>(s * current + c)]);
    for (int q = 0; q < added; ++q) out.push_back(fresh[static_cast<std::size_t>(q * stages + s)]);
  }
  return out;
}

// Columns of `nodes` (`current` of them) none of whose nodes failed, in order.
std::vector<int> surviving_columns(const std::vector<int>& nodes, int current, int stages,
                                   const std::vector<int>& failed_nodes) {
  std::vector<int> keep;
  for (int col = 0; col < current; ++col) {
    bool up = true;
    for (int s = 0; s < stages; ++s) {
      const int n = nodes[static_cast<std::size_t>(s * current + col)];
      up = up && std::find(failed_nodes.begin(), failed_nodes.end(), n) == failed_nodes.end();
    }
    if (up) keep.push_back(col);
  }
  return keep;
}

}  // namespace

int ClusterSimulation::elastic_replicas(const Job& job) const {
  if (!job.plan || job.gpus_per_node != config_.node.gpus) return 0;
  const Columns c = columns_of(*job.plan, config_.node.gpus);
  return c.count >= 2 ? job.plan->step.dp : 0;
}

const workload::TrainingJobPlan* ClusterSimulation::plan_for_replicas(Job& job, int replicas) {
  if (replicas == job.plan->step.dp) return job.plan.get();
  auto it = job.plans_by_dp.find(replicas);
  if (it == job.plans_by_dp.end()) {
    std::shared_ptr<const workload::TrainingJobPlan> plan;
    try {
      plan = std::make_shared<const workload::TrainingJobPlan>(workload::replan_data_parallel(
          *job.plan, replicas, config_.node, registries_.collective_algorithms));
    } catch (const sim::ConfigError&) {
      // Does not fit (ZeRO shards grow as replicas go): not a size the job can run at.
    }
    it = job.plans_by_dp.emplace(replicas, std::move(plan)).first;
  }
  return it->second.get();
}

int ClusterSimulation::replicas_available(Job& job, const std::vector<int>& failed_nodes) {
  const Columns c = columns_of(*job.plan, config_.node.gpus);
  const int current = static_cast<int>(job.nodes.size()) / c.stages;
  const std::vector<int> keep = surviving_columns(job.nodes, current, c.stages, failed_nodes);
  // State lives in the surviving replicas (and the checkpoint): with none left there is nothing
  // to re-form around.
  if (keep.empty()) return 0;
  const std::vector<int> kept = column_list(job.nodes, current, keep, {}, c.stages);
  const int fresh =
      static_cast<int>(free_nodes_.size()) -
      static_cast<int>(std::count_if(free_nodes_.begin(), free_nodes_.end(), [&](int n) {
        return std::find(kept.begin(), kept.end(), n) != kept.end();
      }));
  const int columns = std::min(c.count, static_cast<int>(keep.size()) + fresh / c.stages);
  // Memory per GPU only grows as replicas go (ZeRO shards over fewer ranks): if this size does
  // not fit, no smaller one does.
  if (plan_for_replicas(job, columns * c.replicas) == nullptr) return 0;
  return columns * c.replicas;
}

void ClusterSimulation::reconfigure_job(std::size_t job_index, const std::vector<int>& failed_nodes,
                                        const policy::FailoverDecision& d, bool reload) {
  Job& job = *jobs_[job_index];
  const Columns c = columns_of(*job.plan, config_.node.gpus);
  const int target = d.replicas / std::max(1, c.replicas);
  if (target < 1 || target * c.replicas != d.replicas ||
      d.replicas > replicas_available(job, failed_nodes)) {
    throw sim::InternalError("failover policy '" + config_.failover + "' re-formed job '" +
                             job.spec.name + "' on " + std::to_string(d.replicas) +
                             " replicas, not whole columns it has (this is a bug)");
  }
  const int current = static_cast<int>(job.nodes.size()) / c.stages;
  std::vector<int> keep = surviving_columns(job.nodes, current, c.stages, failed_nodes);
  if (static_cast<int>(keep.size()) > target) keep.resize(static_cast<std::size_t>(target));
  const std::vector<int> kept = column_list(job.nodes, current, keep, {}, c.stages);
  std::vector<int> fresh;
  const std::size_t wanted =
      static_cast<std::size_t>((target - static_cast<int>(keep.size())) * c.stages);
  for (int n : free_nodes_) {
    if (fresh.size() == wanted) break;
    if (std::find(kept.begin(), kept.end(), n) == kept.end()) fresh.push_back(n);
  }
  const std::vector<int> nodes = column_list(job.nodes, current, keep, fresh, c.stages);
  const workload::TrainingJobPlan* plan = plan_for_replicas(job, d.replicas);
  const bool shrunk = d.replicas < job.plan->step.dp;
  job.run_plan = shrunk ? plan : nullptr;
  job.reconfigure_time = d.reconfigure_time;
  // State from the checkpoint: every node reads its share of it back, as a restart does.
  job.restart_delay = d.reconfigure_time + checkpoint_reload_time(job, *plan, reload);
  const auto listed = std::find(shrunk_jobs_.begin(), shrunk_jobs_.end(), job_index);
  if (shrunk && listed == shrunk_jobs_.end()) shrunk_jobs_.push_back(job_index);
  if (!shrunk && listed != shrunk_jobs_.end()) shrunk_jobs_.erase(listed);
  ++(shrunk ? goodput_.elastic_shrinks : goodput_.elastic_reforms);
  start_job_after(job_index, nodes, "interrupted", shrunk ? "elastic_shrink" : "elastic_reform");
}

void ClusterSimulation::try_expand() {
  if (shrunk_jobs_.empty()) return;
  const std::vector<std::size_t> shrunk = shrunk_jobs_;
  for (std::size_t index : shrunk) {
    Job& job = *jobs_[index];
    // A job in its reconfiguration (no run yet) grows once its run begins (begin_run).
    if (job.state != Job::State::kRunning || !job.run || !job.training) continue;
    const Columns c = columns_of(*job.plan, config_.node.gpus);
    const int current = static_cast<int>(job.nodes.size()) / c.stages;
    const int add = std::min(c.count - current, static_cast<int>(free_nodes_.size()) / c.stages);
    if (add < 1) continue;
    const workload::TrainingJobPlan* plan = plan_for_replicas(job, (current + add) * c.replicas);
    if (plan == nullptr) continue;
    // The whole steps done are kept (every replica holds them); the step in flight is lost.
    const double steps = job.training->steps_done();
    const int whole = static_cast<int>(std::floor(steps));
    const double lost = (steps - whole) * job.current_plan().step.step_time_s * job.gpus();
    job.lost_gpu_s += lost;
    goodput_.lost_gpu_s += lost;
    goodput_.expand_lost_gpu_s += lost;
    job.resume_step = whole;
    job.resume_s = whole * job.current_plan().step.step_time_s;
    job.checkpoint_step = job.training->steps_saved();
    std::vector<int> keep(static_cast<std::size_t>(current));
    for (int col = 0; col < current; ++col) keep[static_cast<std::size_t>(col)] = col;
    const std::vector<int> fresh(free_nodes_.begin(), free_nodes_.begin() + add * c.stages);
    const std::vector<int> nodes = column_list(job.nodes, current, keep, fresh, c.stages);
    const char* from = running_label(job);  // stalled at a held checkpoint, or running
    stop_running(index);
    const bool full = current + add == c.count;
    job.run_plan = full ? nullptr : plan;
    job.reload_from_store = false;  // grown from the replicas' memory, not from the checkpoint
    job.restart_delay = job.reconfigure_time;
    if (full) shrunk_jobs_.erase(std::find(shrunk_jobs_.begin(), shrunk_jobs_.end(), index));
    ++goodput_.elastic_expands;
    start_job_after(index, nodes, from, "elastic_expand");
  }
}

}  // namespace dcsim::models::cluster
