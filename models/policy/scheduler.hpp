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

// What a bursting scheduler asks of the cloud pool after a decision: instances to provision now
// (at most cloud_max_instances() minus those provisioned or provisioning; the cluster checks),
// and when to be asked again although nothing happened (a sustain timer running out).
struct CloudRequest {
  int instances = 0;
  sim::Time ask_again_at = sim::Time::max();
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
  // True for a policy that sends work to a cloud pool: the scenario must then declare one, and a
  // pool needs such a policy (else its instances would never be used).
  virtual bool uses_cloud_pool() const { return false; }
  // Asked after every decision when the cluster has a cloud pool (the view then shows this
  // decision's placements as running), and at ask_again_at.
  virtual CloudRequest cloud_request(const ClusterView& view) {
    (void)view;
    return {};
  }
};

using SchedulerFactory = std::function<std::unique_ptr<Scheduler>(const sim::Params&)>;

}  // namespace dcsim::models::policy
