#pragma once
// "first_fit": scans waiting jobs in arrival order and starts every one that fits in the free
// nodes. Higher utilisation than fifo, but a large job can starve behind a stream of small ones
// (no reservation: EASY backfilling adds one).

#include "models/policy/scheduler.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::policy {

class FirstFitScheduler : public Scheduler {
 public:
  std::vector<std::size_t> pick(std::span<const WaitingJob> waiting, int free_nodes,
                                sim::Time now) override;
};

void register_first_fit_scheduler(sim::Registry<SchedulerFactory>& registry);

}  // namespace dcsim::models::policy
