// "easy_backfill": EASY backfilling (Lifka 1995; Mu'alem & Feitelson, IEEE TPDS 12(6), 2001).
// Jobs start in queue order (priority, then arrival) while they fit. The first job that does not fit (the head) gets a
// reservation: the shadow time, when enough GPUs will be free for it if running jobs end at their
// expected ends (start + the user's estimate), and the extra GPUs left over at that time. A later
// job may start now (backfill) if it fits now and either ends by the shadow time by its own
// estimate or uses only extra GPUs, so the head is never delayed — when estimates hold. Estimates
// can be wrong: a job running past its estimate makes the shadow time slip (the head waits
// longer), which is the behaviour real EASY schedulers show with trace estimates.
//
// Capacity is counted in GPUs (for whole-node clusters that is nodes x GPUs per node: exact);
// jobs smaller than a node can leave free GPUs scattered so that the head cannot start at the
// shadow time after all — the classic processor-count EASY shares that limit.
//
// Cost per call: O(jobs started + running jobs visited until the head's demand is met +
// min(queue, queue_depth) backfill candidates); each candidate is rejected in O(1) when nothing it
// could use is free. The decision runs at every arrival and completion, as Slurm's event-triggered
// pass does (its periodic backfill pass looks deeper, bf_max_job_test = 500, every bf_interval).

#include <algorithm>
#include <limits>

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

class EasyBackfillScheduler : public Scheduler {
 public:
  explicit EasyBackfillScheduler(std::size_t queue_depth) : queue_depth_(queue_depth) {}

  std::vector<Placement> schedule(const ClusterView& view) override {
    std::vector<Placement> out;
    FreeCapacity free(view);
    const auto waiting = view.waiting();
    const std::size_t head = place_queue_prefix(view, free, out);
    if (head == waiting.size() || free.free_gpus() == 0) return out;

    const Reservation r = reserve(view, waiting, out, free.free_gpus(), waiting[head].gpus());
    int extra = r.extra_gpus;
    const sim::Time now = view.now();
    const std::size_t end = std::min(waiting.size(), head + 1 + queue_depth_);
    for (std::size_t i = head + 1; i < end && free.free_gpus() > 0; ++i) {
      const WaitingJob& job = waiting[i];
      const bool ends_in_time = now + job.estimate <= r.shadow;
      if (!ends_in_time && job.gpus() > extra) continue;
      auto nodes = free.take_default(job);
      if (!nodes) continue;
      if (!ends_in_time) extra -= job.gpus();
      out.push_back({i, std::move(*nodes)});
    }
    return out;
  }

 private:
  struct Reservation {
    sim::Time shadow = sim::Time::max();
    int extra_gpus = 0;
  };

  // Walks running jobs (and the ones this call started) by expected end until the head's demand
  // is free. A head that can never fit (nodes down) reserves nothing: everything may backfill.
  static Reservation reserve(const ClusterView& view, std::span<const WaitingJob> waiting,
                             const std::vector<Placement>& started, int free_gpus, int demand) {
    std::vector<std::pair<sim::Time, int>> just_started;  // few: merged with the running order
    for (const auto& p : started) {
      just_started.emplace_back(view.now() + waiting[p.position].estimate, waiting[p.position].gpus());
    }
    std::sort(just_started.begin(), just_started.end());
    Reservation r;
    int available = free_gpus;
    std::size_t k = 0;
    const auto release = [&](sim::Time at, int gpus) {
      available += gpus;
      if (available >= demand) {
        r.shadow = at;
        r.extra_gpus = available - demand;
        return false;
      }
      return true;
    };
    bool open = true;
    view.visit_running_by_expected_end([&](const RunningJob& job) {
      for (; k < just_started.size() && just_started[k].first < job.expected_end && open; ++k) {
        open = release(just_started[k].first, just_started[k].second);
      }
      if (open) open = release(job.expected_end, job.gpus());
      return open;
    });
    for (; k < just_started.size() && open; ++k) open = release(just_started[k].first, just_started[k].second);
    if (open) r.extra_gpus = std::numeric_limits<int>::max();  // never fits: no reservation to protect
    return r;
  }

  std::size_t queue_depth_;
};

}  // namespace

void register_easy_backfill_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"easy_backfill",
                "queue order with a reservation for the first job that does not fit; later jobs start early "
                "when they do not delay it by their estimates (EASY)",
                {{"queue_depth", "integer", "100", "x >= 1",
                  "queue positions examined per decision (Slurm's default_queue_depth for event-triggered "
                  "scheduling, slurm.schedmd.com/sched_config.html)"}},
                [](const sim::Params& p) {
                  return std::make_unique<EasyBackfillScheduler>(static_cast<std::size_t>(p.integer("queue_depth")));
                }});
}

}  // namespace dcsim::models::policy
