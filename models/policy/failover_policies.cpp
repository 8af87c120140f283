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
//   elastic             a training job that lost nodes re-forms at once on the data-parallel
//                       replicas it still has (plus free nodes) and goes on at their throughput,
//                       paying `reconfigure_time` instead of a relaunch; it grows back when nodes
//                       free up. Below `min_replicas` of its DP degree, or for jobs that are not
//                       elastic (DP 1, batch jobs), checkpoint_restart.
//   predictive_migration  a precursor signal warns `lead_time` before some faults; the job on
//                       the warned node checkpoints and moves to a healthy free node (relaunch +
//                       reload) before the fault; unwarned faults: checkpoint_restart.

#include <algorithm>
#include <cmath>
#include <string>

#include "models/policy/failover_policies.hpp"
#include "models/reliability/checkpoint_interval.hpp"
#include "sim/error.hpp"

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

// Elastic training (TorchElastic, Megatron's elastic mode, Oobleck, Bamboo): see the header and
// failover_policy.hpp for how replicas map to nodes.
class Elastic final : public CheckpointRestart {
 public:
  explicit Elastic(const sim::Params& p)
      : CheckpointRestart(p), reconfigure_(p.duration("reconfigure_time")), min_replicas_(p.number("min_replicas")),
        state_recovery_(p.text("state_recovery")) {
    if (state_recovery_ != "auto" && state_recovery_ != "replicas" && state_recovery_ != "checkpoint") {
      throw sim::ConfigError("state_recovery", "expected \"auto\", \"replicas\" or \"checkpoint\", got \"" +
                                                   state_recovery_ + "\"");
    }
  }
  bool elastic() const override { return true; }
  FailoverDecision on_interrupt(const InterruptedJob& job, const std::vector<int>& healthy_spares) override {
    FailoverDecision d = CheckpointRestart::on_interrupt(job, healthy_spares);
    if (d.action == FailoverDecision::Action::kFail || job.replicas < 2) return d;
    // The fewest replicas worth going on with, rounded up: 0.5 of DP 3 is 2.
    const int least = std::max(1, static_cast<int>(std::ceil(min_replicas_ * job.replicas - 1e-9)));
    if (job.replicas_available < least) return d;
    // Lost ranks' state: every DP replica holds the full weights and (ZeRO 0) optimizer state;
    // with ZeRO 1-3 the lost ranks' optimizer (and gradient, weight) shards exist nowhere else
    // but in the last checkpoint, and a consistent state needs every shard at the same step, so
    // the whole job reloads the checkpoint and redoes the work since.
    const bool keep = state_recovery_ == "replicas" || (state_recovery_ == "auto" && job.zero_stage == 0);
    if (!keep && !job.checkpoints) return d;  // nothing to reload from: start over as checkpoint_restart does
    d.action = FailoverDecision::Action::kReconfigure;
    d.replicas = job.replicas_available;
    d.reconfigure_time = reconfigure_;
    d.keep_progress = keep;
    return d;
  }

 private:
  sim::Time reconfigure_;
  double min_replicas_;
  std::string state_recovery_;
};

class PredictiveMigration final : public CheckpointRestart {
 public:
  explicit PredictiveMigration(const sim::Params& p) : CheckpointRestart(p) {
    precursor_.lead_time = p.duration("lead_time");
    precursor_.precision = p.number("precision");
    precursor_.recall = p.number("recall");
    precursor_.drain_time = p.duration("drain_time");
    const std::string& list = p.text("precursor_classes");
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      std::string name = list.substr(start, end - start);
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      if (!name.empty()) precursor_.classes.push_back(name);
      start = end + 1;
    }
  }
  FailoverDecision on_warning(const WarnedJob& job) override {
    FailoverDecision d;
    d.relaunch_overhead = relaunch_;
    // Only a job that can save its progress gains from moving; another keeps running.
    d.action = job.checkpoints ? FailoverDecision::Action::kMigrate : FailoverDecision::Action::kIgnore;
    return d;
  }
  std::optional<reliability::PrecursorConfig> precursor() const override { return precursor_; }

 private:
  reliability::PrecursorConfig precursor_;
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
  registry.add({"elastic",
                "a training job that lost nodes goes on at once on its remaining data-parallel replicas and grows "
                "back when nodes free up (checkpoint_restart below min_replicas, for DP 1 and batch jobs)",
                {kRelaunch, kInterval, kMaxRestarts,
                 {"reconfigure_time", "duration", "\"1 min\"", "x >= 0",
                  "each re-formation (shrink or growth): rendezvous, new NCCL communicators, state sent to new "
                  "replicas (assumption: no public figure found)"},
                 {"min_replicas", "", "0.5", "0 < x <= 1",
                  "fewest replicas, as a share of the job's DP degree, it goes on with; below: checkpoint_restart "
                  "(assumption)"},
                 {"state_recovery", "string", "\"auto\"", "",
                  "where a re-formed job gets the lost ranks' state: replicas (the survivors hold it all, no work "
                  "lost), checkpoint (reload the last one: ZeRO shards of lost ranks exist nowhere else), auto "
                  "(replicas for ZeRO 0, else checkpoint)"}},
                [](const sim::Params& p) { return std::make_unique<Elastic>(p); }});
  registry.add({"predictive_migration",
                "a precursor signal warns lead_time before some faults: the job checkpoints and moves off the node, "
                "which is drained; unwarned faults: checkpoint_restart",
                {kRelaunch, kInterval, kMaxRestarts,
                 // Desh (HPDC'18), Doomsday (SC'18): 2-4 min leads at recall 73-85% (public-figures.md).
                 {"lead_time", "duration", "\"3 min\"", "x >= 0", "how long before a predicted fault its alarm fires"},
                 {"recall", "", "0.8", "0 <= x <= 1", "share of the precursor classes' faults that raise an alarm"},
                 {"precision", "", "0.9", "0 < x <= 1",
                  "share of alarms that precede a fault; the rest are false alarms on random nodes (assumption: "
                  "below HiPC'19's 0.994 on HPC logs)"},
                 {"precursor_classes", "string", "\"gpu_faulty,gpu_hbm3,gpu_sram,gpu_thermal_interface\"", "",
                  "comma-separated fault classes whose faults have a precursor (GPU, HBM and SRAM wear, thermal "
                  "trend; the Llama 3 preset's names)"},
                 {"drain_time", "duration", "\"1 h\"", "x >= 0",
                  "a false alarm's node stays out of service for this long (diagnostics; assumption); a true "
                  "alarm's until the fault is repaired"}},
                [](const sim::Params& p) { return std::make_unique<PredictiveMigration>(p); }});
}

}  // namespace dcsim::models::policy
