#pragma once
// The cluster's cloud pool: up to max_instances instances of one cloud offer, node ids after the
// on-prem nodes, that exist only while provisioned.
//
//   off --request--> provisioning --provisioning_delay--> ready (usable; billed) --+
//    ^                                                                              |
//    +---- idle for idle_release (released) or a spot preemption (gone) -----------+
//
// A bursting scheduler (Scheduler::uses_cloud_pool) requests instances (Scheduler::cloud_request)
// and places whole-node jobs on idle ready ones. Clouds bill an instance while it exists, busy
// or not, so the instance-hours are ready-to-gone, idle tails included; the provisioning delay is
// not billed (AWS bills from the instance's `running` state). Spot instances are preempted at the
// offer's preemptions_per_instance_hour: each ready instance draws an exponential lifetime from
// the pool's stream (scenario seed, "cluster/cloud_pool", "spot_preemption"), so the instance
// count is a superposition of Poisson processes at that rate; its jobs are interrupted through
// the failover policy (cause "spot_preemption"; no spares and no elastic re-form on the cloud
// side: they resume from their checkpoint or start over, in the queue, on either side).
// Cloud instances draw no on-prem power: they have no rack, no facility load and no energy.
//
// The pool owns the instances' lifecycle and what the run reports of them (cloud/*,
// workload/burst/*); the cluster that holds it owns the nodes and their jobs, and hears of the
// instances through Host, which the pool declares: the consumer owns its seam.
//
// Cost: a request is O(max_instances) (the lowest free slot; rare), holding or releasing an
// instance O(idle instances) (a sorted list the view hands out), a preemption O(its jobs).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/cluster/cluster_config.hpp"
#include "models/policy/scheduler.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"
#include "sim/time.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

class CloudPool {
 public:
  // What the pool needs from the cluster that holds it.
  class Host {
   public:
    // The instance is usable from now (true), or gone (false): the scheduler's view of it.
    virtual void set_instance_provisioned(int node, bool provisioned) = 0;
    // The instance was preempted under its jobs (already not provisioned): each is interrupted
    // with `cause`. Returns the work they lost (GPU-s since their last checkpoints).
    virtual double interrupt_instance_jobs(int node, const std::string& cause) = 0;
    // The pool's capacity changed, or the scheduler asked to be asked again: place waiting work.
    virtual void cloud_capacity_changed() = 0;

   protected:
    ~Host() = default;
  };

  // Validates the config against the cluster's node (ConfigError names the field, "cloud_pool.*").
  // Instances are nodes first_node .. first_node + max_instances - 1. `scheduler` names the
  // policy that requests, for its errors.
  CloudPool(const CloudPoolConfig& config, int gpus_per_node, int first_node, std::uint64_t seed, std::string scheduler,
            Host& host, sim::Simulator& sim);
  CloudPool(const CloudPool&) = delete;
  CloudPool& operator=(const CloudPool&) = delete;

  // Where instances and transfers are announced; null: nowhere.
  void set_signals(const seams::DatacenterSignals* signals) { signals_ = signals; }

  // The scheduler's request: provisions that many instances (beyond the maximum: InternalError)
  // and asks the host again at ask_again_at (the earliest pending one only).
  void request(const policy::CloudRequest& r);
  // A job took the idle instance / the instance is idle again (its last job left it; it is
  // released after idle_release unless a job takes it first).
  void instance_held(int node);
  void instance_idle(int node);
  // A job starts on instances: its dataset crosses the WAN first. Returns how long that takes
  // (zero without a dataset).
  sim::Time send_dataset(std::size_t job);
  // A job finished on instances: its results cross the WAN back.
  void job_finished(std::size_t job);
  // GPU time a job held on instances (transfers, restarts and lost work included).
  void add_held_gpu_s(double gpu_s) { held_gpu_s_ += gpu_s; }

  int max_instances() const { return config_.max_instances; }
  int provisioning() const { return provisioning_; }
  int provisioned() const { return ready_; }
  std::span<const int> idle_nodes() const { return idle_; }

  // cloud/* and workload/burst/*: `burst_jobs` ran on instances at least once; every job's held
  // GPU time (on-prem is the rest) and its dataset transfers' share of it.
  void emit_summary(std::uint64_t burst_jobs, double held_gpu_s, double transfer_gpu_s, sim::TraceSink& sink) const;

 private:
  enum class State { kOff, kProvisioning, kReady };
  struct Slot {
    State state = State::kOff;
    sim::Time ready_since;
    sim::EventHandle idle_event;     // its release, while it is idle
    sim::EventHandle preempt_event;  // spot: its preemption, while it is ready
  };
  Slot& slot(int node) { return slots_[static_cast<std::size_t>(node - first_node_)]; }
  void provision(int instances);
  void on_ready(int node);
  void release(int node);
  void preempt(int node);
  void announce(int node, seams::CloudInstanceChange::Kind kind, double lost_gpu_s = 0.0) const;

  CloudPoolConfig config_;
  int first_node_ = 0;
  std::string scheduler_;
  Host& host_;
  sim::Simulator& sim_;
  const seams::DatacenterSignals* signals_ = nullptr;
  std::vector<Slot> slots_;
  std::vector<int> idle_;  // ready instances no job holds, ascending node ids
  int provisioning_ = 0;
  int ready_ = 0;
  sim::RandomStream rng_;
  sim::Time wake_at_ = sim::Time::max();  // the earliest pending ask-again of the scheduler

  // What the run reports.
  std::uint64_t requested_ = 0;
  std::uint64_t preemptions_ = 0;
  std::uint64_t releases_ = 0;
  int peak_ready_ = 0;
  double instance_s_ = 0.0;  // ready time of instances gone so far
  double held_gpu_s_ = 0.0;  // GPU time jobs held on instances
  double ingress_bytes_ = 0.0;
  double egress_bytes_ = 0.0;
  std::uint64_t jobs_completed_ = 0;
};

}  // namespace dcsim::models::cluster
