#pragma once
// The cluster's cloud pool (internal to ClusterSimulation's translation units; the mechanism is
// in cloud_pool.cpp): up to max_instances instances of one cloud offer, node ids after the on-prem
// nodes, that exist only while provisioned.
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
// Cost: a request is O(max_instances) (the lowest free slot; rare), holding or releasing an
// instance O(idle instances) (a sorted list the view hands out), a preemption O(its jobs).

#include <cstdint>
#include <vector>

#include "models/cluster/cluster_config.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"
#include "sim/time.hpp"

namespace dcsim::models::cluster {

struct CloudPool {
  CloudPool(const CloudPoolConfig& c, int first, std::uint64_t seed)
      : config(c), first_node(first), slots(static_cast<std::size_t>(c.max_instances)),
        rng(seed, "cluster/cloud_pool", "spot_preemption") {}

  enum class State { kOff, kProvisioning, kReady };
  struct Slot {
    State state = State::kOff;
    sim::Time ready_since;
    sim::EventHandle idle_event;     // its release, while it is idle
    sim::EventHandle preempt_event;  // spot: its preemption, while it is ready
  };
  Slot& slot(int node) { return slots[static_cast<std::size_t>(node - first_node)]; }

  CloudPoolConfig config;
  int first_node = 0;
  std::vector<Slot> slots;
  std::vector<int> idle;  // ready instances no job holds, ascending node ids
  int provisioning = 0;
  int ready = 0;
  sim::RandomStream rng;
  sim::Time wake_at = sim::Time::max();  // the earliest pending ask-again of the scheduler

  // What the run reports (cloud/*, workload/burst/*).
  std::uint64_t requested = 0;
  std::uint64_t preemptions = 0;
  std::uint64_t releases = 0;
  int peak_ready = 0;
  double instance_s = 0.0;  // ready time of instances gone so far
  double held_gpu_s = 0.0;  // GPU time jobs held on instances
  double ingress_bytes = 0.0;
  double egress_bytes = 0.0;
  std::uint64_t jobs_completed = 0;
};

}  // namespace dcsim::models::cluster
