// "first_fit": scans the queue in order (priority, then arrival) and starts every job that fits now, with no
// reservation: small jobs overtake a large head, which may then starve (the failure EASY backfill
// exists to prevent). Cost per call: O(min(queue, queue_depth)); the scan also stops as soon as
// nothing is free.

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

class FirstFitScheduler : public Scheduler {
 public:
  explicit FirstFitScheduler(std::size_t queue_depth) : queue_depth_(queue_depth) {}

  std::vector<Placement> schedule(const ClusterView& view) override {
    std::vector<Placement> out;
    FreeCapacity free(view);
    const auto waiting = view.waiting();
    for (std::size_t i = 0; i < waiting.size() && i < queue_depth_ && free.free_gpus() > 0; ++i) {
      if (auto nodes = free.take_default(waiting[i])) out.push_back({i, std::move(*nodes)});
    }
    return out;
  }

 private:
  std::size_t queue_depth_;
};

}  // namespace

void register_first_fit_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"first_fit",
                "start, in queue order (priority, then arrival), every waiting job that fits; no reservation (may starve large jobs)",
                {{"queue_depth", "integer", "100", "x >= 1",
                  "queue positions examined per decision (Slurm's default_queue_depth for event-triggered "
                  "scheduling, slurm.schedmd.com/sched_config.html)"}},
                [](const sim::Params& p) {
                  return std::make_unique<FirstFitScheduler>(static_cast<std::size_t>(p.integer("queue_depth")));
                }});
}

}  // namespace dcsim::models::policy
