#include "models/cluster/node_pool.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "models/cluster/wait_queue.hpp"
#include "models/seams/node_conditions.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

NodePool::NodePool(int nodes, int nodes_per_rack, int gpus_per_node, double node_load_power_w, const WaitQueue& waiting,
                   const sim::Simulator& sim)
    : on_prem_(nodes),
      gpus_per_node_(gpus_per_node),
      node_load_power_w_(node_load_power_w),
      waiting_(waiting),
      sim_(sim),
      nodes_(static_cast<std::size_t>(nodes)),
      free_nodes_(static_cast<std::size_t>(nodes)),
      free_gpus_(nodes * gpus_per_node),
      in_service_gpus_(free_gpus_) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i].state.rack = static_cast<int>(i) / nodes_per_rack;
    nodes_[i].state.gpus = gpus_per_node;
    nodes_[i].state.free_gpus = gpus_per_node;
  }
  std::iota(free_nodes_.begin(), free_nodes_.end(), 0);
}

void NodePool::add_cloud(CloudPool& cloud, int instances) {
  cloud_ = &cloud;
  for (int i = 0; i < instances; ++i) {  // not in the building: no rack
    const int g = gpus_per_node_;
    nodes_.emplace_back().state = {.rack = -1, .gpus = g, .free_gpus = g, .cloud = true, .provisioned = false};
  }
}

void NodePool::set_conditions(const seams::NodeConditions* conditions) {
  conditions_ = conditions;
  for (int i = 0; i < on_prem_; ++i) at(i).state.zone = conditions_ ? conditions_->zone_of_node(i) : 0;
}

void NodePool::set_fabric_groups(const std::vector<int>& group_of_node) {
  if (group_of_node.size() != static_cast<std::size_t>(on_prem_)) {
    throw sim::InternalError("set_fabric_groups: " + std::to_string(group_of_node.size()) + " groups for " +
                             std::to_string(on_prem_) + " nodes (this is a bug)");
  }
  for (std::size_t i = 0; i < group_of_node.size(); ++i) nodes_[i].state.fabric_group = group_of_node[i];
}

std::vector<std::size_t> NodePool::jobs_on(int node) const {
  std::vector<std::size_t> jobs;
  for (const auto& [index, gpus] : at(node).jobs) jobs.push_back(index);
  return jobs;
}

void NodePool::hold(int node, std::size_t job, int gpus) {
  auto& n = at(node);
  if (n.state.cloud && n.state.free_gpus == n.state.gpus) cloud_->instance_held(node);
  if (!n.state.cloud && n.jobs.empty()) ++busy_nodes_;
  n.jobs.emplace_back(job, gpus);
  change_free(node, -gpus);
}

void NodePool::release(int node, std::size_t job, int gpus) {
  auto& n = at(node);
  n.jobs.erase(std::find(n.jobs.begin(), n.jobs.end(), std::pair{job, gpus}));
  if (!n.state.cloud && n.jobs.empty()) --busy_nodes_;
  change_free(node, gpus);
  if (n.state.cloud && n.state.provisioned && n.state.free_gpus == n.state.gpus) cloud_->instance_idle(node);
}

void NodePool::change_free(int node, int gpus) {
  auto& n = at(node);
  const bool in_pool = !n.state.cloud && n.state.schedulable();
  if (in_pool && n.state.free_gpus == n.state.gpus) {
    free_nodes_.erase(std::lower_bound(free_nodes_.begin(), free_nodes_.end(), node));
  }
  n.state.free_gpus += gpus;
  if (!in_pool) return;
  free_gpus_ += gpus;
  if (n.state.free_gpus == n.state.gpus)
    free_nodes_.insert(std::lower_bound(free_nodes_.begin(), free_nodes_.end(), node), node);
}

void NodePool::take_out(int node) {
  auto& n = at(node);
  if (!n.state.schedulable()) return;
  if (n.state.free_gpus == n.state.gpus)
    free_nodes_.erase(std::lower_bound(free_nodes_.begin(), free_nodes_.end(), node));
  free_gpus_ -= n.state.free_gpus;
  in_service_gpus_ -= n.state.gpus;
}

void NodePool::put_back(int node) {
  auto& n = at(node);
  n.state.spare = false;
  if (!n.state.schedulable()) return;
  free_gpus_ += n.state.free_gpus;
  in_service_gpus_ += n.state.gpus;
  if (n.state.free_gpus == n.state.gpus) {
    free_nodes_.insert(std::lower_bound(free_nodes_.begin(), free_nodes_.end(), node), node);
  }
}

void NodePool::hold_spares(int count) {
  for (int i = on_prem_ - count; i < on_prem_; ++i) {
    take_out(i);
    at(i).state.spare = true;
  }
  spares_ = HotSpares(on_prem_ - count, count);
}

void NodePool::use_spare(int node) {
  spares_.use(node);
  put_back(node);
}

bool NodePool::fault(int node) {
  auto& n = at(node);
  if (n.faults_down++ > 0) return false;
  if (!n.state.spare) {
    take_out(node);
  } else if (!n.state.drained) {
    spares_.set_ready(node, false);
  }
  n.state.healthy = false;
  return true;
}

bool NodePool::repair(int node) {
  auto& n = at(node);
  if (n.faults_down == 0 || --n.faults_down > 0) return false;
  n.state.healthy = true;
  if (!n.state.spare && spares_.refill()) n.state.spare = true;
  if (n.state.drained) return true;  // back in service when its drain ends
  if (n.state.spare) {
    spares_.set_ready(node, true);
  } else {
    put_back(node);
  }
  return true;
}

void NodePool::set_drained(int node, bool drained) {
  auto& n = at(node);
  if (!drained) n.state.drained = false;  // before the pool takes it back (schedulable)
  if (n.state.healthy && n.state.spare) {
    spares_.set_ready(node, !drained);
  } else if (n.state.healthy && drained) {
    take_out(node);
  } else if (n.state.healthy) {
    put_back(node);
  }
  if (drained) n.state.drained = true;  // after it left the pool
}

void NodePool::start_running(std::size_t job, sim::Time expected_end, int priority, int gpus_per_node,
                             std::span<const int> nodes) {
  running_.emplace(std::pair{expected_end, job}, policy::RunningJob{job, static_cast<int>(nodes.size()), gpus_per_node,
                                                                    expected_end, priority, nodes});
}

void NodePool::end_running(std::size_t job, sim::Time expected_end) { running_.erase({expected_end, job}); }

int NodePool::fabric_groups(std::span<const int> nodes) const {
  std::vector<int> groups;
  for (int n : nodes) groups.push_back(at(n).state.fabric_group);
  std::sort(groups.begin(), groups.end());
  return static_cast<int>(std::unique(groups.begin(), groups.end()) - groups.begin());
}

double NodePool::slowest_clock(std::span<const int> nodes) const {
  double rate = 1.0;
  for (int node : nodes) rate = std::min(rate, at(node).clock_factor);
  return rate;
}

void NodePool::check(const policy::Placement& p, std::size_t waiting_size, const std::string& scheduler) const {
  const auto fail = [&scheduler](const std::string& what) {
    throw sim::InternalError("scheduler '" + scheduler + "' " + what + " (this is a bug)");
  };
  if (p.position >= waiting_size) fail("placed a job that is not waiting");
  const policy::WaitingJob& job = waiting()[p.position];
  if (static_cast<int>(p.nodes.size()) != job.nodes) fail("gave a job the wrong number of nodes");
  for (const int n : p.nodes) {
    if (n < 0 || n >= static_cast<int>(nodes_.size())) fail("placed a job on a node that does not exist");
    if (is_cloud(n) != is_cloud(p.nodes.front())) fail("placed a job across on-prem nodes and cloud instances");
    const auto& state = at(n).state;
    if (is_cloud(n) && job.gpus_per_node != state.gpus) fail("placed a job on part of a cloud instance");
    if (!state.schedulable() || state.free_gpus < job.gpus_per_node) fail("placed a job on a node without room");
  }
  if (!is_cloud(p.nodes.front()) &&
      !policy::nvlink_aligned(p.nodes, job.nvlink_block_nodes, nodes_per_nvlink_domain_)) {
    fail("split one of a job's NVLink groups over two NVLink domains");
  }
  // Twice on one node: a scan of the earlier nodes for a few, a sorted copy past that (a
  // 2,048-node job re-placed after every fault was 2 million comparisons): O(n log n).
  constexpr std::size_t kScanLimit = 32;
  if (p.nodes.size() <= kScanLimit) {
    for (auto it = p.nodes.begin(); it != p.nodes.end(); ++it) {
      if (std::find(p.nodes.begin(), it, *it) != it) fail("placed a job twice on one node");
    }
  } else {
    std::vector<int> sorted = p.nodes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) fail("placed a job twice on one node");
  }
}

double NodePool::gpu_temperature_c(int node) const {
  return conditions_ ? conditions_->gpu_temperature_c(node) : std::numeric_limits<double>::quiet_NaN();
}

double NodePool::rack_power_headroom_w(int rack) const {
  return conditions_ ? conditions_->rack_power_headroom_w(rack) : std::numeric_limits<double>::infinity();
}

std::span<const policy::WaitingJob> NodePool::waiting() const { return waiting_.jobs(); }

void NodePool::visit_running_by_expected_end(const std::function<bool(const policy::RunningJob&)>& visit) const {
  for (const auto& [key, job] : running_) {
    policy::RunningJob r = job;
    r.expected_end = std::max(r.expected_end, sim_.now());
    if (!visit(r)) return;
  }
}

}  // namespace dcsim::models::cluster
