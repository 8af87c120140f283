#pragma once
// What a scheduling policy sees of the cluster: a read-only view, so that policies decide and the
// cluster acts (DESIGN.md, "the datacenter assembly"). Policies return placements, {job, node
// ids}; the cluster checks every placement before it acts on it.
//
// Granularity: a job holds `gpus_per_node` GPUs on each of its `nodes` distinct nodes. Whole-node
// jobs hold every GPU of their nodes; a job asking fewer GPUs than a node has shares the node with
// other such jobs (trace pods). GPUs are allocated whole (a trace's fractional GPU share is a
// utilisation, not a placement unit).

#include <cstddef>
#include <functional>
#include <span>

#include "sim/time.hpp"

namespace dcsim::models::policy {

struct NodeState {
  int rack = 0;
  int zone = 0;          // cooling zone (0 without a facility model)
  int fabric_group = 0;  // leaf switch the node's first NIC attaches to (0 without a fabric)
  bool healthy = true;   // false while a fault holds the node down
  bool spare = false;    // held back as a hot spare by the failover policy: not for scheduling
  bool drained = false;  // warned of a coming fault (a precursor signal): no new work
  int gpus = 1;
  int free_gpus = 1;     // GPUs no job holds
  // A cloud pool instance (node ids node_count() and up; models/cluster/cloud_pool.hpp), not an
  // on-prem node; usable only while provisioned (requested and past its provisioning delay).
  bool cloud = false;
  bool provisioned = true;
  bool schedulable() const { return healthy && provisioned && !spare && !drained; }
};

struct WaitingJob {
  std::size_t job_index = 0;  // the cluster's job id (stable for the whole run)
  int nodes = 1;
  int gpus_per_node = 1;      // resolved: a whole-node job asks every GPU of a node
  sim::Time arrival;
  // What the policy plans with: the user's estimate when the job gives one, else its nominal
  // work. The real run time can differ both ways (trace estimates are notoriously high, and a
  // throttled or interrupted job runs longer).
  sim::Time estimate;
  int priority = 0;  // higher first in the queue (JobSpec::priority)
  // Consecutive nodes of its node list that must share one NVLink domain: a TP or EP group over
  // the trays of a multi-node domain (GB200 NVL72, nodes_per_nvlink_domain() > 1). 1: any nodes.
  int nvlink_block_nodes = 1;
  int gpus() const { return nodes * gpus_per_node; }
};

// Whether every block of `block_nodes` consecutive nodes of `nodes` lies in one NVLink domain of
// `domain_nodes` nodes (always, when either is 1). O(nodes).
inline bool nvlink_aligned(std::span<const int> nodes, int block_nodes, int domain_nodes) {
  if (block_nodes <= 1 || domain_nodes <= 1) return true;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::size_t first = i - i % static_cast<std::size_t>(block_nodes);
    if (nodes[i] / domain_nodes != nodes[first] / domain_nodes) return false;
  }
  return true;
}

struct RunningJob {
  std::size_t job_index = 0;
  int nodes = 1;
  int gpus_per_node = 1;
  // start + estimate, but never before now: a job that outran its estimate is expected to end
  // any moment (its real end is unknown to the policy).
  sim::Time expected_end;
  int priority = 0;             // JobSpec::priority
  std::span<const int> node_ids;  // the nodes it holds (valid during the visit)
  int gpus() const { return nodes * gpus_per_node; }
};

class ClusterView {
 public:
  virtual ~ClusterView() = default;
  virtual sim::Time now() const = 0;
  // On-prem nodes, ids 0 .. node_count() - 1. A cloud pool's instances follow them (cloud_*).
  virtual int node_count() const = 0;
  virtual int gpus_per_node() const = 0;  // of the cluster's node type
  // Nodes of one NVLink domain: domain d holds on-prem nodes [d n, (d + 1) n); 1 where the node
  // is its own domain (HGX), 18 for GB200 NVL72 trays.
  virtual int nodes_per_nvlink_domain() const { return 1; }
  virtual const NodeState& node(int id) const = 0;
  // Schedulable nodes (healthy, not spares) with every GPU free, ascending ids. O(1).
  virtual std::span<const int> free_nodes() const = 0;
  // Free GPUs on schedulable nodes, whole free nodes included. O(1).
  virtual int free_gpus() const = 0;
  // Hottest GPU die on the node now (C), NaN without a thermal model. O(1).
  virtual double gpu_temperature_c(int node) const = 0;
  // Rack power (W) the facility still allows before capping: rated rack power minus the rack's
  // present draw; +inf when no facility model sets a limit.
  virtual double rack_power_headroom_w(int rack) const = 0;
  // Power (W) a node adds when its GPUs go from idle to full load: what a placement costs a rack.
  virtual double node_load_power_w() const = 0;
  // Waiting jobs in queue order: higher priority first, then arrival (ties by job id); a job
  // resuming from a checkpoint goes ahead of all. O(1).
  virtual std::span<const WaitingJob> waiting() const = 0;
  // Running jobs by expected end, earliest first, until `visit` returns false. O(jobs visited).
  virtual void visit_running_by_expected_end(const std::function<bool(const RunningJob&)>& visit) const = 0;
  virtual std::size_t running_count() const = 0;
  // GPUs of the schedulable on-prem nodes (healthy, not spares, not drained), busy or free: the
  // denominator of on-prem occupancy. O(1).
  virtual int in_service_gpus() const = 0;

  // The cloud pool (models/cluster/cloud_pool.hpp), all zero without one: at most
  // cloud_max_instances() instances of cloud_gpus_per_instance() GPUs, node ids node_count() ..
  // node_count() + cloud_max_instances() - 1. A scheduler asks for instances through
  // Scheduler::cloud_request and places whole-node jobs on idle ones like on any node. O(1).
  virtual int cloud_max_instances() const { return 0; }
  virtual int cloud_provisioning() const { return 0; }  // requested, not usable yet
  virtual int cloud_provisioned() const { return 0; }   // usable, busy or idle
  // Provisioned instances no job holds, ascending node ids.
  virtual std::span<const int> cloud_idle_nodes() const { return {}; }
};

}  // namespace dcsim::models::policy
