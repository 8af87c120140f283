// "fifo": jobs start strictly in queue order (priority, then arrival) on the lowest free nodes. A job that does
// not fit blocks every job behind it (head-of-line blocking), which is what a plain FIFO batch
// queue does; nodes may idle while a large job waits. The baseline for the other policies.
// Cost per call: O(jobs started), whatever the queue's length.

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

class FifoScheduler : public Scheduler {
 public:
  std::vector<Placement> schedule(const ClusterView& view) override {
    return place_in_arrival_order(view, [](const ClusterView&, FreeCapacity& free, const WaitingJob& job) {
      return free.take_default(job);
    });
  }
};

}  // namespace

void register_fifo_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"fifo", "strict queue order (priority, then arrival) on the lowest free nodes; a job that does not fit blocks those behind it",
                {}, [](const sim::Params&) { return std::make_unique<FifoScheduler>(); }});
}

}  // namespace dcsim::models::policy
