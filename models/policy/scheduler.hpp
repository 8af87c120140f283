#pragma once
// Scheduler policy: which waiting jobs start now, and on which nodes. Implementations register by
// name with their documented parameters (models/register_builtin.cpp); scenario files choose one
// under /policies/scheduler and set its parameters under /policies/scheduler_params.

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "models/policy/cluster_view.hpp"
#include "sim/params.hpp"
#include "sim/time.hpp"

namespace dcsim::models::policy {

struct Placement {
  std::size_t position = 0;  // in view.waiting()
  std::vector<int> nodes;    // distinct node ids, exactly the job's node count
  // Running jobs (job ids) the cluster preempts before it places this job, each of a lower
  // priority than the placed job: they stop now, lose their work since their last checkpoint and
  // wait again in queue order; they pay `preempt_relaunch` (plus the checkpoint reload) when
  // they start again. Their nodes count as free for this placement.
  std::vector<std::size_t> preempt{};
  sim::Time preempt_relaunch{};
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Placements to act on now, in start order. Each must fit what is free after the ones before
  // it (the cluster checks: a policy that over-allocates is a bug, not bad input). The cluster
  // calls it when a job arrives, nodes free up or health changes. Each policy documents its cost
  // per call; it must not grow with the queue beyond what the policy needs (queues of 1e5+ jobs
  // are routine in traces).
  virtual std::vector<Placement> schedule(const ClusterView& view) = 0;
  // True for a policy that may preempt: the cluster then asks it even when no GPU is free.
  virtual bool preempts() const { return false; }
};

using SchedulerFactory = std::function<std::unique_ptr<Scheduler>(const sim::Params&)>;

}  // namespace dcsim::models::policy
