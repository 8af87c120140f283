#include "models/policy/fifo_scheduler.hpp"

namespace dcsim::models::policy {

std::vector<std::size_t> FifoScheduler::pick(std::span<const WaitingJob> waiting,
                                             int free_nodes, sim::Time /*now*/) {
  std::vector<std::size_t> start;
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    if (waiting[i].nodes > free_nodes) break;
    free_nodes -= waiting[i].nodes;
    start.push_back(i);
  }
  return start;
}

void register_fifo_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"fifo", "strict arrival order; a job that does not fit blocks those behind it", {},
                [] { return std::make_unique<FifoScheduler>(); }});
}

}  // namespace dcsim::models::policy
