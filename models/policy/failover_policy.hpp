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
// An elastic re-formation (kReconfigure) pays the policy's reconfigure time instead of the
// relaunch, plus the reload when its state comes from the checkpoint.
//
// Data-parallel replicas (elastic policies): a training job of DP degree d, TP t and PP p on
// nodes of g GPUs places ranks TP-innermost, then DP, then PP (training_step.hpp), so the nodes
// of one pipeline stage are t d / g consecutive nodes of the job's list, each holding g / t
// replicas' ranks of that stage: a node's fault takes those g / t replicas down, and a re-formed
// job keeps whole columns (the p nodes, one per stage, that hold the same replicas).

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/policy/cluster_view.hpp"
#include "models/reliability/precursor_config.hpp"
#include "sim/params.hpp"
#include "sim/time.hpp"

namespace dcsim::models::policy {

struct InterruptedJob {
  std::size_t job_index = 0;
  std::vector<int> nodes;         // the job's nodes when it was interrupted
  std::vector<int> failed_nodes;  // those that went down (empty for a job crash)
  bool checkpoints = false;       // the job saves progress (training jobs with an interval)
  int interruptions = 1;          // this one included
  // Training jobs whose replicas fill whole nodes (else 0: not elastic): the job's DP degree as
  // submitted, and the most replicas it could re-form with now, on its nodes that are still up
  // plus healthy free ones, that fit in GPU memory (at most `replicas`; 0 if none).
  int replicas = 0;
  int replicas_available = 0;
  int zero_stage = 0;             // ZeRO shards optimizer state (1), + gradients (2), + weights (3)
};

// A job holding a node that a precursor signal warned of (predictive policies).
struct WarnedJob {
  std::size_t job_index = 0;
  int node = -1;
  bool checkpoints = false;       // it can save its progress before it moves
};

struct FailoverDecision {
  enum class Action {
    kRequeue,           // back to the queue in arrival order; restarts from scratch
    kResumeFromCheckpoint,  // back to the queue ahead of every waiting job; resumes from the last checkpoint
    kResumeOnSpares,    // keeps its healthy nodes, failed ones replaced by `spares`; resumes from the last checkpoint
    kFail,              // given up: the job ends failed (its nodes are free, its work lost)
    kReconfigure,       // re-forms at once on `replicas` DP replicas (its nodes still up, then free
                        // ones) and goes on; grows back to its full size when nodes free up
    kMigrate,           // (a warning) checkpoint at the end of the step in flight, move off the node
    kIgnore,            // (a warning) keep running
  };
  Action action = Action::kRequeue;
  std::vector<int> spares;        // kResumeOnSpares: one per failed node, from the spare pool
  sim::Time swap_time;            // kResumeOnSpares: before the spares are usable
  sim::Time relaunch_overhead;    // every restart (and every migration)
  int replicas = 0;               // kReconfigure: <= InterruptedJob::replicas_available
  sim::Time reconfigure_time;     // kReconfigure: each re-formation, shrink or growth
  // kReconfigure: the survivors hold all the state (the job keeps its steps, only the one in
  // flight is redone); false: it reloads its last checkpoint (lost: the work since).
  bool keep_progress = false;
};

class FailoverPolicy {
 public:
  virtual ~FailoverPolicy() = default;
  // Nodes of a cluster of `nodes` held back from scheduling as hot spares (the highest ids).
  virtual int spare_nodes(int nodes) const { (void)nodes; return 0; }
  // `healthy_spares`: spare nodes up and unused now, ascending.
  virtual FailoverDecision on_interrupt(const InterruptedJob& job, const std::vector<int>& healthy_spares) = 0;
  // Whether on_interrupt reads InterruptedJob::replicas (working them out re-plans the job's
  // step for fewer replicas, so the cluster does it only for policies that ask).
  virtual bool elastic() const { return false; }
  // A precursor warned of a fault on a node the job holds: kMigrate or kIgnore.
  virtual FailoverDecision on_warning(const WarnedJob& job) {
    (void)job;
    FailoverDecision d;
    d.action = FailoverDecision::Action::kIgnore;
    return d;
  }
  // The precursor signal this policy acts on (fault_precursor.hpp), if any: the scenario layer
  // connects one to the fault model and its alarms to the cluster's warn_node.
  virtual std::optional<reliability::PrecursorConfig> precursor() const { return std::nullopt; }
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
