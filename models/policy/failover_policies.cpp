// The built-in failover policies. Each is small: the mechanism (interrupt, lost work, restart
// cost, spares) lives in the cluster; a policy only chooses.
//
//   requeue             the job goes back to the queue in arrival order and starts over: what a
//                       batch scheduler does with a job whose node died (Slurm's --requeue).
//   checkpoint_restart  the job resumes from its last checkpoint ahead of the queue; training
//                       jobs checkpoint every `interval`, or at Daly's optimum for their size and
//                       the fault model's rate when interval is 0 (checkpoint_interval.hpp).
//   every policy        gives a job up (failed) after max_restarts interruptions, if set.
//   hot_spares          a pool of spare nodes (the highest ids) is held back from scheduling; a
//                       job that lost nodes gets spares after `swap_time` and resumes from its
//                       last checkpoint where it was; with no spare left it falls back to
//                       checkpoint_restart. A repaired node rejoins the pool as a spare.

#include <algorithm>
#include <cmath>

#include "models/policy/failover_policies.hpp"
#include "models/reliability/checkpoint_interval.hpp"

namespace dcsim::models::policy {

namespace {

// Relaunch overhead default: Daly's worked case uses R = 10 min for a restart
// (public-figures.md, "Checkpointing"); an assumption for any given cluster.
// Every policy gives a job up after max_restarts interruptions; 0, the default, never does
// (orchestrators of long training runs restart indefinitely; Slurm's --requeue has no limit).
const sim::ParamSpec kMaxRestarts{"max_restarts", "integer", "0", "x >= 0",
                                  "interruptions after which the job ends failed; 0 = never give up"};

// The decision every policy takes first: give the job up once it has been interrupted too often.
bool give_up(const InterruptedJob& job, std::int64_t max_restarts, FailoverDecision& d) {
  if (max_restarts <= 0 || job.interruptions <= max_restarts) return false;
  d.action = FailoverDecision::Action::kFail;
  return true;
}

const sim::ParamSpec kRelaunch{"relaunch_overhead", "duration", "\"10 min\"", "x >= 0",
                               "relaunch cost of every restart: scheduling, container start, NCCL warm-up "
                               "(checkpoint reload comes on top, at the job's checkpoint rate)"};

class Requeue final : public FailoverPolicy {
 public:
  explicit Requeue(const sim::Params& p)
      : relaunch_(p.duration("relaunch_overhead")), max_restarts_(p.integer("max_restarts")) {}
  FailoverDecision on_interrupt(const InterruptedJob& job, const std::vector<int>&) override {
    FailoverDecision d;
    d.relaunch_overhead = relaunch_;
    if (!give_up(job, max_restarts_, d)) d.action = FailoverDecision::Action::kRequeue;
    return d;
  }

 private:
  sim::Time relaunch_;
  std::int64_t max_restarts_;
};

class CheckpointRestart : public FailoverPolicy {
 public:
  explicit CheckpointRestart(const sim::Params& p)
      : relaunch_(p.duration("relaunch_overhead")), interval_s_(p.number("interval")),
        max_restarts_(p.integer("max_restarts")) {}
  FailoverDecision on_interrupt(const InterruptedJob& job, const std::vector<int>&) override {
    FailoverDecision d;
    d.relaunch_overhead = relaunch_;
    if (!give_up(job, max_restarts_, d)) d.action = FailoverDecision::Action::kResumeFromCheckpoint;
    return d;
  }
  double checkpoint_interval_s(double checkpoint_s, double mtbf_s) const override {
    if (interval_s_ > 0) return interval_s_;
    if (!(checkpoint_s > 0) || !std::isfinite(mtbf_s)) return 0.0;  // nothing to optimise against
    return reliability::checkpoint_interval_daly(checkpoint_s, mtbf_s);
  }

 protected:
  sim::Time relaunch_;
  double interval_s_;
  std::int64_t max_restarts_;
};

class HotSpares final : public CheckpointRestart {
 public:
  explicit HotSpares(const sim::Params& p)
      : CheckpointRestart(p), spare_fraction_(p.number("spare_fraction")), swap_(p.duration("swap_time")) {}
  int spare_nodes(int nodes) const override {
    return static_cast<int>(std::ceil(spare_fraction_ * nodes - 1e-9));
  }
  FailoverDecision on_interrupt(const InterruptedJob& job, const std::vector<int>& healthy_spares) override {
    FailoverDecision d = CheckpointRestart::on_interrupt(job, healthy_spares);
    if (d.action == FailoverDecision::Action::kFail || job.failed_nodes.empty() ||
        job.failed_nodes.size() > healthy_spares.size()) {
      return d;
    }
    d.action = FailoverDecision::Action::kResumeOnSpares;
    d.spares.assign(healthy_spares.begin(), healthy_spares.begin() + static_cast<std::ptrdiff_t>(job.failed_nodes.size()));
    d.swap_time = swap_;
    return d;
  }

 private:
  double spare_fraction_;
  sim::Time swap_;
};

const sim::ParamSpec kInterval{"interval", "duration", "\"0 s\"", "x >= 0",
                               "training time between checkpoints of jobs that checkpoint; 0 = Daly's optimum from the "
                               "checkpoint time and the job's MTBF under the fault model (the job's own interval without one)"};

}  // namespace

void register_failover_policies(sim::Registry<FailoverFactory>& registry) {
  registry.add({"requeue", "an interrupted job goes back to the queue in arrival order and starts over", {kRelaunch, kMaxRestarts},
                [](const sim::Params& p) { return std::make_unique<Requeue>(p); }});
  registry.add({"checkpoint_restart",
                "an interrupted job resumes from its last checkpoint ahead of the queue; checkpoint interval fixed "
                "or Daly-optimal",
                {kRelaunch, kInterval, kMaxRestarts},
                [](const sim::Params& p) { return std::make_unique<CheckpointRestart>(p); }});
  registry.add({"hot_spares",
                "spare nodes held back replace failed ones after a swap time; the job resumes in place from its "
                "last checkpoint (checkpoint_restart when no spare is left)",
                {kRelaunch, kInterval, kMaxRestarts,
                 // BLOOM kept 4 spares for 48 nodes; NCSA Delta guidance >= 5% (public-figures.md).
                 {"spare_fraction", "", "0.05", "0 < x < 1", "share of the cluster's nodes held as spares (rounded up)"},
                 {"swap_time", "duration", "\"10 min\"", "x >= 0",
                  "from the fault until a spare is usable: drain, health check, join (assumption)"}},
                [](const sim::Params& p) { return std::make_unique<HotSpares>(p); }});
}

}  // namespace dcsim::models::policy
