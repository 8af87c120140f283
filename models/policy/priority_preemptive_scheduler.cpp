// "priority_preemptive": fifo in queue order (priority, then arrival), plus preemption. When the
// first job that does not fit outranks running whole-node jobs by at least `min_priority_gap`,
// the lowest-priority of them (latest expected end first among equals: the least-finished work)
// are preempted until it fits; it starts on the free nodes and theirs. Preempted jobs lose their
// work since their last checkpoint, wait again in queue order and pay `relaunch_overhead` plus
// their checkpoint reload when they start again (Slurm's PreemptMode=REQUEUE, with the job's
// own checkpoints). Only whole-node jobs preempt and are preempted (shared nodes would free
// GPUs, not nodes).
// Cost per call: fifo's O(jobs started), plus O(running jobs x log) when the blocked head
// outranks some running job (the running jobs are visited to find victims).

#include <algorithm>
#include <tuple>

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

class PriorityPreemptiveScheduler : public Scheduler {
 public:
  explicit PriorityPreemptiveScheduler(const sim::Params& p)
      : relaunch_(p.duration("relaunch_overhead")), gap_(p.integer("min_priority_gap")) {}

  bool preempts() const override { return true; }

  std::vector<Placement> schedule(const ClusterView& view) override {
    std::vector<Placement> out;
    FreeCapacity free(view);
    const auto waiting = view.waiting();
    const std::size_t i = place_queue_prefix(view, free, out);
    if (i == waiting.size()) return out;
    const WaitingJob& head = waiting[i];
    if (head.gpus_per_node != view.gpus_per_node()) return out;  // a partial-node job does not preempt
    // Victims: running whole-node jobs outranked by the gap, on nodes that will be schedulable.
    struct Candidate {
      int priority;
      sim::Time expected_end;
      std::size_t job;
      std::vector<int> nodes;
    };
    std::vector<Candidate> candidates;
    view.visit_running_by_expected_end([&](const RunningJob& r) {
      if (r.gpus_per_node != view.gpus_per_node() || static_cast<std::int64_t>(head.priority) - r.priority < gap_) {
        return true;
      }
      for (int n : r.node_ids) {
        const NodeState& s = view.node(n);
        if (!s.healthy || s.spare || s.drained) return true;
      }
      candidates.push_back({r.priority, r.expected_end, r.job_index, {r.node_ids.begin(), r.node_ids.end()}});
      return true;
    });
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return std::tie(a.priority, b.expected_end, b.job) < std::tie(b.priority, a.expected_end, a.job);
    });
    std::vector<int> nodes = free.whole_free_list();
    if (static_cast<int>(nodes.size()) > head.nodes) nodes.resize(static_cast<std::size_t>(head.nodes));
    Placement p{i, {}, {}, relaunch_};
    for (const Candidate& c : candidates) {
      if (static_cast<int>(nodes.size()) >= head.nodes) break;
      p.preempt.push_back(c.job);
      for (int n : c.nodes) {
        if (static_cast<int>(nodes.size()) < head.nodes) nodes.push_back(n);
      }
    }
    if (static_cast<int>(nodes.size()) < head.nodes) return out;  // not even preemption makes room
    if (head.nvlink_block_nodes > 1) {
      // Whole NVLink blocks from one domain each (free_capacity.hpp), or no preemption.
      std::sort(nodes.begin(), nodes.end());
      if (!nvlink_aligned(nodes, head.nvlink_block_nodes, view.nodes_per_nvlink_domain())) return out;
    }
    p.nodes = std::move(nodes);
    out.push_back(std::move(p));
    return out;
  }

 private:
  sim::Time relaunch_;
  std::int64_t gap_;
};

}  // namespace

void register_priority_preemptive_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"priority_preemptive",
                "fifo, and a blocked job preempts running whole-node jobs of lower priority (they lose the work since "
                "their last checkpoint and wait again)",
                {{"relaunch_overhead", "duration", "\"10 min\"", "x >= 0",
                  "what a preempted job pays when it starts again: scheduling, container start, NCCL warm-up "
                  "(checkpoint reload comes on top, at the job's checkpoint rate)"},
                 {"min_priority_gap", "integer", "1", "x >= 1",
                  "a job preempts only jobs whose priority is at least this much below its own"}},
                [](const sim::Params& p) { return std::make_unique<PriorityPreemptiveScheduler>(p); }});
}

}  // namespace dcsim::models::policy
