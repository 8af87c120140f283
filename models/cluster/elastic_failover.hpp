#pragma once
// Elastic data parallelism: a training job that lost nodes re-forms at once on the data-parallel
// replicas it still has (plus free nodes) and grows back as nodes free up. The column math, the
// plans by DP degree and the list of shrunk jobs are here; the cluster that holds it acts
// (stops and starts the runs, accounts their costs) through Host, which this class declares, and
// shows its jobs through JobTable (job_table.hpp).
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
// queue, as many columns as free nodes allow, at every event that frees nodes (try_expand).
//
// Cost: try_expand is O(shrunk jobs) when no node is free, a re-formation O(job nodes x free
// nodes); a new DP degree replans the job once (kept: runs refer to their plans).

#include <cstddef>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/cluster/job_table.hpp"
#include "models/collective/collective_algorithm.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/training_job.hpp"
#include "sim/time.hpp"

namespace dcsim::models::cluster {

class ElasticFailover {
 public:
  // What growing back needs of the cluster.
  class Host {
   public:
    // Healthy free nodes (every GPU free), ascending.
    virtual std::span<const int> free_nodes() const = 0;
    // Grow: the job keeps its whole steps, abandons the one in flight and starts again on
    // `nodes` after `delay`, running `plan` (null: its submitted plan, at full size again).
    virtual void grow(std::size_t job, const std::vector<int>& nodes, const workload::TrainingJobPlan* plan,
                      sim::Time delay) = 0;

   protected:
    ~Host() = default;
  };

  // `failover` names the policy, for its errors.
  ElasticFailover(const hardware::NodeSpec& node, const collective::CollectiveRegistry& algorithms,
                  std::string failover, const JobTable& jobs, Host& host);
  ElasticFailover(const ElasticFailover&) = delete;
  ElasticFailover& operator=(const ElasticFailover&) = delete;

  // The job's submitted DP degree when its replicas fill whole nodes in at least two columns
  // (failover_policy.hpp), else 0. `gpus_per_node`: what the job holds of each node.
  int replicas(const workload::TrainingJobPlan& plan, int gpus_per_node) const;
  // The most replicas the job (submitted as `plan`, on `nodes`) can re-form with now, its nodes
  // released: its columns without a failed node, plus columns of free nodes, up to its
  // submitted size; 0 when that does not fit.
  int replicas_available(std::size_t job, const std::shared_ptr<const workload::TrainingJobPlan>& plan,
                         const std::vector<int>& nodes, const std::vector<int>& failed_nodes);
  // The policy re-forms the job on `replicas` (InternalError, naming `name`, when those are not
  // whole columns it has): its new nodes and the plan they run (the submitted one at full size).
  // The job waits `reconfigure_time` at every later growth.
  struct Reform {
    std::vector<int> nodes;
    const workload::TrainingJobPlan* plan = nullptr;
    bool shrunk = false;
  };
  Reform reform(std::size_t job, const std::string& name, const std::shared_ptr<const workload::TrainingJobPlan>& plan,
                const std::vector<int>& nodes, const std::vector<int>& failed_nodes, int replicas,
                sim::Time reconfigure_time);
  // The shrunk job restarts (or is given up) at its submitted size: it no longer grows.
  void restored(std::size_t job);
  // Shrunk jobs take free nodes back, as many columns as fit, in the order they shrank.
  void try_expand();

 private:
  struct JobState {
    std::shared_ptr<const workload::TrainingJobPlan> submitted;
    std::map<int, std::shared_ptr<const workload::TrainingJobPlan>> by_dp;  // null: does not fit
    sim::Time reconfigure_time;
  };
  JobState& state(std::size_t job, const std::shared_ptr<const workload::TrainingJobPlan>& plan);
  const workload::TrainingJobPlan* plan_for(JobState& s, int replicas);

  hardware::NodeSpec node_;
  const collective::CollectiveRegistry& algorithms_;
  std::string failover_;
  const JobTable& job_table_;  // a stepping job can grow now
  Host& host_;
  std::map<std::size_t, JobState> jobs_;  // jobs ever re-formed or asked about, by index
  std::vector<std::size_t> shrunk_;       // running on fewer replicas than submitted, in the order they shrank
};

}  // namespace dcsim::models::cluster
