#pragma once
// "fifo": jobs start strictly in arrival order. A job that does not fit blocks every job behind
// it (head-of-line blocking), which is what a plain FIFO batch queue does; nodes may idle while
// a large job waits. The baseline against which backfilling policies are measured.

#include "models/policy/scheduler.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::policy {

class FifoScheduler : public Scheduler {
 public:
  std::vector<std::size_t> pick(std::span<const WaitingJob> waiting, int free_nodes,
                                sim::Time now) override;
};

void register_fifo_scheduler(sim::Registry<SchedulerFactory>& registry);

}  // namespace dcsim::models::policy
