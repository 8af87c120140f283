#pragma once
// The cluster's nodes as its scheduler sees them (policy::ClusterView): each node's state and the
// jobs holding its GPUs, the schedulable free nodes and GPUs, the failover policy's hot spares,
// the running jobs by expected end, and the wait queue and cloud pool it is handed. The pool
// keeps the counts consistent with the nodes' health, drains and spares as the cluster reports
// faults, repairs and drains; what a node's GPUs draw (utilization, clock_factor) is the
// cluster's.
//
// Invariants: free_nodes() holds exactly the schedulable on-prem nodes with every GPU free,
// ascending; free_gpus() the free GPUs of schedulable on-prem nodes; in_service_gpus() every GPU
// of them; busy_nodes() the on-prem nodes holding at least one job. Cloud instances (ids from
// node_count()) are reported to the cloud pool instead (held, idle).
//
// Cost: hold and release O(log nodes + free nodes) (a sorted vector), O(jobs on the node) for a
// release; the running jobs are a map by (expected end, job): O(log running) per start and end.

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/cloud_pool.hpp"
#include "models/cluster/hot_spares.hpp"
#include "models/policy/cluster_view.hpp"
#include "models/policy/scheduler.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::seams {
class NodeConditions;
}

namespace dcsim::models::cluster {

class WaitQueue;

class NodePool final : public policy::ClusterView {
 public:
  struct Node {
    policy::NodeState state;
    double utilization = 0.0;
    double clock_factor = 1.0;
    std::vector<std::pair<std::size_t, int>> jobs;  // (job, GPUs it holds here)
    int faults_down = 0;  // faults holding it down (two GPUs can fail before either is repaired)
  };

  // `nodes` on-prem nodes of `gpus_per_node` GPUs, `nodes_per_rack` to a rack, all free.
  // `node_load_power_w`: what a node adds from idle to full load (the view's). Not owned:
  // `waiting`, `sim`.
  NodePool(int nodes, int nodes_per_rack, int gpus_per_node, double node_load_power_w, const WaitQueue& waiting,
           const sim::Simulator& sim);
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  // Nodes of one NVLink domain (hardware/nvlink_domain.hpp; default 1): placements must keep a
  // job's NVLink blocks inside one (check).
  void set_nodes_per_nvlink_domain(int nodes) { nodes_per_nvlink_domain_ = nodes; }
  // The cloud pool's instances become nodes after the on-prem ones (unprovisioned). Not owned.
  void add_cloud(CloudPool& cloud, int instances);
  // Zones, temperatures and rack headroom from a facility model (null: none). Not owned.
  void set_conditions(const seams::NodeConditions* conditions);
  // Fabric group (leaf switch) of every on-prem node.
  void set_fabric_groups(const std::vector<int>& group_of_node);

  Node& at(int node) { return nodes_[static_cast<std::size_t>(node)]; }
  const Node& at(int node) const { return nodes_[static_cast<std::size_t>(node)]; }
  bool is_cloud(int node) const { return node >= on_prem_; }
  // The jobs holding GPUs on the node, in the order they took them (a copy: acting on one may
  // release the node).
  std::vector<std::size_t> jobs_on(int node) const;

  // `job` takes `gpus` of the node's free GPUs / gives them back.
  void hold(int node, std::size_t job, int gpus);
  void release(int node, std::size_t job, int gpus);

  // The highest-numbered `count` on-prem nodes leave the pool as hot spares (hot_spares.hpp).
  void hold_spares(int count);
  const HotSpares& spares() const { return spares_; }
  // The ready spare replaces a node of a job: an ordinary node in the pool from now on.
  void use_spare(int node);
  // A fault takes the node out of service; false when another fault already holds it down.
  bool fault(int node);
  // A fault's repair; false while another still holds the node down. The node rejoins the pool,
  // or becomes a spare (one went into service for it), or stays out until its drain ends.
  bool repair(int node);
  // A precursor's warning drains the node (no new work) or the drain ends.
  void set_drained(int node, bool drained);

  // A job runs on `nodes` (kept by the caller until end_running) until about `expected_end`.
  void start_running(std::size_t job, sim::Time expected_end, int priority, int gpus_per_node,
                     std::span<const int> nodes);
  void end_running(std::size_t job, sim::Time expected_end);

  int busy_nodes() const { return busy_nodes_; }
  // Distinct fabric groups among the nodes; the slowest clock factor among them (1 = nominal).
  int fabric_groups(std::span<const int> nodes) const;
  double slowest_clock(std::span<const int> nodes) const;
  // Throws InternalError, naming `scheduler`, unless the placement fits what is free and waiting
  // (`waiting_size` jobs, before any of this decision's placements left).
  void check(const policy::Placement& placement, std::size_t waiting_size, const std::string& scheduler) const;

  // policy::ClusterView
  sim::Time now() const override { return sim_.now(); }
  int node_count() const override { return on_prem_; }
  int gpus_per_node() const override { return gpus_per_node_; }
  int nodes_per_nvlink_domain() const override { return nodes_per_nvlink_domain_; }
  const policy::NodeState& node(int id) const override { return at(id).state; }
  std::span<const int> free_nodes() const override { return free_nodes_; }
  int free_gpus() const override { return free_gpus_; }
  double gpu_temperature_c(int node) const override;
  double rack_power_headroom_w(int rack) const override;
  double node_load_power_w() const override { return node_load_power_w_; }
  std::span<const policy::WaitingJob> waiting() const override;
  void visit_running_by_expected_end(const std::function<bool(const policy::RunningJob&)>& visit) const override;
  std::size_t running_count() const override { return running_.size(); }
  int in_service_gpus() const override { return in_service_gpus_; }
  int cloud_max_instances() const override { return cloud_ ? cloud_->max_instances() : 0; }
  int cloud_provisioning() const override { return cloud_ ? cloud_->provisioning() : 0; }
  int cloud_provisioned() const override { return cloud_ ? cloud_->provisioned() : 0; }
  std::span<const int> cloud_idle_nodes() const override {
    return cloud_ ? cloud_->idle_nodes() : std::span<const int>();
  }

 private:
  int on_prem_;
  int gpus_per_node_;
  int nodes_per_nvlink_domain_ = 1;
  double node_load_power_w_;
  const WaitQueue& waiting_;
  const sim::Simulator& sim_;
  CloudPool* cloud_ = nullptr;
  const seams::NodeConditions* conditions_ = nullptr;
  std::vector<Node> nodes_;
  std::vector<int> free_nodes_;  // schedulable on-prem nodes with every GPU free, ascending
  int free_gpus_ = 0;            // on schedulable on-prem nodes
  int in_service_gpus_ = 0;      // of schedulable on-prem nodes
  int busy_nodes_ = 0;           // on-prem nodes holding at least one job
  std::map<std::pair<sim::Time, std::size_t>, policy::RunningJob> running_;  // by (start + estimate, job)
  HotSpares spares_;                                                         // the failover policy's

  // A schedulable node leaves the pool (down, drained, made a spare), its free GPUs with it; or
  // comes back (no longer a spare either). Either does nothing for a node not schedulable.
  void take_out(int node);
  void put_back(int node);
  // The node's free GPUs change by `gpus`; a schedulable on-prem node's pool counts with them.
  void change_free(int node, int gpus);
};

}  // namespace dcsim::models::cluster
