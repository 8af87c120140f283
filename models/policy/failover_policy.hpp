#pragma once
// Failover policy: what happens to a running job when a fault interrupts it. Policies decide,
// the cluster acts: the decision is an action (requeue, resume from the last checkpoint, resume
// on hot spares) plus the restart cost the job pays before its work resumes. Implementations
// register by name with documented parameters (models/register_builtin.cpp); scenarios choose one
// under /policies/failover and set its parameters under /policies/failover_params.
//
// Restart cost (what an interrupted job pays before its work runs again, holding its nodes): the
// policy's relaunch overhead (scheduler, container start, NCCL communicator warm-up) plus, for a
// job resuming from a checkpoint, reading that checkpoint back at the job's checkpoint rate.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/policy/cluster_view.hpp"
#include "sim/params.hpp"
#include "sim/time.hpp"

namespace dcsim::models::policy {

struct InterruptedJob {
  std::size_t job_index = 0;
  std::vector<int> nodes;         // the job's nodes when it was interrupted
  std::vector<int> failed_nodes;  // those that went down (empty for a job crash)
  bool checkpoints = false;       // the job saves progress (training jobs with an interval)
  int interruptions = 1;          // this one included
};

struct FailoverDecision {
  enum class Action {
    kRequeue,           // back to the queue in arrival order; restarts from scratch
    kResumeFromCheckpoint,  // back to the queue ahead of every waiting job; resumes from the last checkpoint
    kResumeOnSpares,    // keeps its healthy nodes, failed ones replaced by `spares`; resumes from the last checkpoint
    kFail,              // given up: the job ends failed (its nodes are free, its work lost)
  };
  Action action = Action::kRequeue;
  std::vector<int> spares;        // kResumeOnSpares: one per failed node, from the spare pool
  sim::Time swap_time;            // kResumeOnSpares: before the spares are usable
  sim::Time relaunch_overhead;    // every restart
};

class FailoverPolicy {
 public:
  virtual ~FailoverPolicy() = default;
  // Nodes of a cluster of `nodes` held back from scheduling as hot spares (the highest ids).
  virtual int spare_nodes(int nodes) const { (void)nodes; return 0; }
  // `healthy_spares`: spare nodes up and unused now, ascending.
  virtual FailoverDecision on_interrupt(const InterruptedJob& job, const std::vector<int>& healthy_spares) = 0;
  // Checkpoint interval (seconds of training between checkpoints) for a job whose checkpoint
  // takes `checkpoint_s` and whose nodes fail every `mtbf_s` on average (infinity: no fault
  // model); 0 keeps the job's own interval.
  virtual double checkpoint_interval_s(double checkpoint_s, double mtbf_s) const {
    (void)checkpoint_s, (void)mtbf_s;
    return 0.0;
  }
};

using FailoverFactory = std::function<std::unique_ptr<FailoverPolicy>(const sim::Params&)>;

}  // namespace dcsim::models::policy
