// "topology_aware": queue order like fifo, but a multi-node job is packed under as few fabric
// groups (leaf switches) as possible, so its collectives cross the spine less: the placement
// Meta's Llama 3 cluster scheduler does (public-figures.md, "Llama 3 405B fabric"). Best fit: the
// group with the fewest free nodes that still holds the whole job (big free groups stay whole for
// big jobs); a job no group holds takes the groups with the most free nodes first. Within a group,
// lowest node ids. Jobs smaller than a node: best-fit GPUs, as every policy.
// Cost per call: O(free nodes + groups) per job started.

#include <algorithm>
#include <map>

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

std::optional<std::vector<int>> pack_by_group(const ClusterView& view, FreeCapacity& free, const WaitingJob& job) {
  // A job with NVLink blocks takes whole blocks from one domain each (free_capacity.hpp).
  if (job.gpus_per_node < view.gpus_per_node() || job.nodes == 1 || job.nvlink_block_nodes > 1) {
    return free.take_default(job);
  }
  if (job.nodes > free.whole_free_nodes()) return std::nullopt;
  std::map<int, std::vector<int>> groups;  // group -> free nodes, ascending
  for (int n : free.whole_free_list()) groups[view.node(n).fabric_group].push_back(n);
  const std::vector<int>* best = nullptr;
  for (const auto& [g, nodes] : groups) {
    if (static_cast<int>(nodes.size()) >= job.nodes && (!best || nodes.size() < best->size())) best = &nodes;
  }
  std::vector<int> chosen;
  if (best) {
    chosen.assign(best->begin(), best->begin() + job.nodes);
  } else {
    std::vector<const std::vector<int>*> order;
    for (const auto& [g, nodes] : groups) order.push_back(&nodes);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->size() > b->size(); });
    for (const auto* nodes : order) {
      for (int n : *nodes) {
        if (static_cast<int>(chosen.size()) == job.nodes) break;
        chosen.push_back(n);
      }
    }
  }
  std::sort(chosen.begin(), chosen.end());
  if (!free.take(job, chosen)) return std::nullopt;
  return chosen;
}

class TopologyAwareScheduler : public Scheduler {
 public:
  std::vector<Placement> schedule(const ClusterView& view) override {
    return place_in_arrival_order(view, pack_by_group);
  }
};

}  // namespace

void register_topology_aware_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"topology_aware",
                "queue order; each job packed under the fewest leaf switches (best-fit group), fewer spine "
                "crossings for its collectives",
                {}, [](const sim::Params&) { return std::make_unique<TopologyAwareScheduler>(); }});
}

}  // namespace dcsim::models::policy
