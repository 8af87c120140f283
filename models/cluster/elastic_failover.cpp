#include "models/cluster/elastic_failover.hpp"

#include <algorithm>
#include <utility>

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
  if (plan.step.dp < 2 || (p.tp * plan.step.dp) % gpus_per_node != 0 || gpus_per_node % p.tp != 0) return c;
  c.count = p.tp * plan.step.dp / gpus_per_node;
  c.replicas = gpus_per_node / p.tp;
  return c;
}

// The node list of `keep` columns of `nodes` (a list of `current` columns), then `fresh` nodes
// taken a column at a time (one node per stage), stage-major.
std::vector<int> column_list(const std::vector<int>& nodes, int current, const std::vector<int>& keep,
                             std::span<const int> fresh, int stages) {
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

ElasticFailover::ElasticFailover(const hardware::NodeSpec& node, const collective::CollectiveRegistry& algorithms,
                                 std::string failover, const JobTable& jobs, Host& host)
    : node_(node), algorithms_(algorithms), failover_(std::move(failover)), job_table_(jobs), host_(host) {}

int ElasticFailover::replicas(const workload::TrainingJobPlan& plan, int gpus_per_node) const {
  if (gpus_per_node != node_.gpus) return 0;
  const Columns c = columns_of(plan, node_.gpus);
  return c.count >= 2 ? plan.step.dp : 0;
}

ElasticFailover::JobState& ElasticFailover::state(std::size_t job,
                                                  const std::shared_ptr<const workload::TrainingJobPlan>& plan) {
  JobState& s = jobs_[job];
  s.submitted = plan;
  return s;
}

const workload::TrainingJobPlan* ElasticFailover::plan_for(JobState& s, int replicas) {
  if (replicas == s.submitted->step.dp) return s.submitted.get();
  auto it = s.by_dp.find(replicas);
  if (it == s.by_dp.end()) {
    std::shared_ptr<const workload::TrainingJobPlan> plan;
    try {
      plan = std::make_shared<const workload::TrainingJobPlan>(
          workload::replan_data_parallel(*s.submitted, replicas, node_, algorithms_));
    } catch (const sim::ConfigError&) {
      // Does not fit (ZeRO shards grow as replicas go): not a size the job can run at.
    }
    it = s.by_dp.emplace(replicas, std::move(plan)).first;
  }
  return it->second.get();
}

int ElasticFailover::replicas_available(std::size_t job, const std::shared_ptr<const workload::TrainingJobPlan>& plan,
                                        const std::vector<int>& nodes, const std::vector<int>& failed_nodes) {
  JobState& s = state(job, plan);
  const Columns c = columns_of(*plan, node_.gpus);
  const int current = static_cast<int>(nodes.size()) / c.stages;
  const std::vector<int> keep = surviving_columns(nodes, current, c.stages, failed_nodes);
  // State lives in the surviving replicas (and the checkpoint): with none left there is nothing
  // to re-form around.
  if (keep.empty()) return 0;
  const std::vector<int> kept = column_list(nodes, current, keep, {}, c.stages);
  const std::span<const int> free = host_.free_nodes();
  const int fresh =
      static_cast<int>(free.size()) - static_cast<int>(std::count_if(free.begin(), free.end(), [&](int n) {
        return std::find(kept.begin(), kept.end(), n) != kept.end();
      }));
  const int columns = std::min(c.count, static_cast<int>(keep.size()) + fresh / c.stages);
  // Memory per GPU only grows as replicas go (ZeRO shards over fewer ranks): if this size does
  // not fit, no smaller one does.
  if (plan_for(s, columns * c.replicas) == nullptr) return 0;
  return columns * c.replicas;
}

ElasticFailover::Reform ElasticFailover::reform(std::size_t job, const std::string& name,
                                                const std::shared_ptr<const workload::TrainingJobPlan>& plan,
                                                const std::vector<int>& nodes, const std::vector<int>& failed_nodes,
                                                int replicas, sim::Time reconfigure_time) {
  const Columns c = columns_of(*plan, node_.gpus);
  const int target = replicas / std::max(1, c.replicas);
  if (target < 1 || target * c.replicas != replicas || replicas > replicas_available(job, plan, nodes, failed_nodes)) {
    throw sim::InternalError("failover policy '" + failover_ + "' re-formed job '" + name + "' on " +
                             std::to_string(replicas) + " replicas, not whole columns it has (this is a bug)");
  }
  JobState& s = jobs_.at(job);
  s.reconfigure_time = reconfigure_time;
  const int current = static_cast<int>(nodes.size()) / c.stages;
  std::vector<int> keep = surviving_columns(nodes, current, c.stages, failed_nodes);
  if (static_cast<int>(keep.size()) > target) keep.resize(static_cast<std::size_t>(target));
  const std::vector<int> kept = column_list(nodes, current, keep, {}, c.stages);
  std::vector<int> fresh;
  const std::size_t wanted = static_cast<std::size_t>((target - static_cast<int>(keep.size())) * c.stages);
  for (int n : host_.free_nodes()) {
    if (fresh.size() == wanted) break;
    if (std::find(kept.begin(), kept.end(), n) == kept.end()) fresh.push_back(n);
  }
  Reform r;
  r.nodes = column_list(nodes, current, keep, fresh, c.stages);
  r.plan = plan_for(s, replicas);
  r.shrunk = replicas < plan->step.dp;
  const auto listed = std::find(shrunk_.begin(), shrunk_.end(), job);
  if (r.shrunk && listed == shrunk_.end()) shrunk_.push_back(job);
  if (!r.shrunk && listed != shrunk_.end()) shrunk_.erase(listed);
  return r;
}

void ElasticFailover::restored(std::size_t job) { std::erase(shrunk_, job); }

void ElasticFailover::try_expand() {
  if (shrunk_.empty()) return;
  const std::vector<std::size_t> shrunk = shrunk_;
  for (std::size_t index : shrunk) {
    // A job in its reconfiguration (no run yet) grows once its run begins.
    if (!job_table_.stepping(index)) continue;
    JobState& s = jobs_.at(index);
    const std::vector<int>& nodes = job_table_.nodes(index);
    const std::span<const int> free = host_.free_nodes();
    const Columns c = columns_of(*s.submitted, node_.gpus);
    const int current = static_cast<int>(nodes.size()) / c.stages;
    const int add = std::min(c.count - current, static_cast<int>(free.size()) / c.stages);
    if (add < 1) continue;
    const workload::TrainingJobPlan* plan = plan_for(s, (current + add) * c.replicas);
    if (plan == nullptr) continue;
    std::vector<int> keep(static_cast<std::size_t>(current));
    for (int col = 0; col < current; ++col) keep[static_cast<std::size_t>(col)] = col;
    const std::vector<int> grown =
        column_list(nodes, current, keep, free.first(static_cast<std::size_t>(add * c.stages)), c.stages);
    const bool full = current + add == c.count;
    if (full) std::erase(shrunk_, index);
    host_.grow(index, grown, full ? nullptr : plan, s.reconfigure_time);
  }
}

}  // namespace dcsim::models::cluster
