#include "models/policy/first_fit_scheduler.hpp"

namespace dcsim::models::policy {

std::vector<std::size_t> FirstFitScheduler::pick(std::span<const WaitingJob> waiting,
                                                 int free_nodes, sim::Time /*now*/) {
  std::vector<std::size_t> start;
  for (std::size_t i = 0; i < waiting.size() && free_nodes > 0; ++i) {
    if (waiting[i].nodes <= free_nodes) {
      free_nodes -= waiting[i].nodes;
      start.push_back(i);
    }
  }
  return start;
}

void register_first_fit_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"first_fit",
                "start, in arrival order, every waiting job that fits; no reservation (may starve "
                "large jobs)",
                {},
                [] { return std::make_unique<FirstFitScheduler>(); }});
}

}  // namespace dcsim::models::policy
