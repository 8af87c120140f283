// "cloud_burst": fifo on the on-prem nodes, and a burst to the cluster's cloud pool
// (models/cluster/cloud_pool.hpp) when on-prem occupancy stays high with work waiting.
//
//   occupancy = (in-service on-prem GPUs - free ones) / in-service on-prem GPUs  (1 with none)
//   burst condition: occupancy >= threshold and whole-node jobs the pool can hold are waiting
//   once it has held for `sustain` (observed at every decision: arrivals, completions and health
//   changes are the only instants occupancy and the queue change, and the policy asks to be
//   woken when the sustain time runs out), it requests instances for the waiting jobs' nodes not
//   covered by idle or provisioning instances, up to the pool's maximum.
// Placement: queue order on the lowest free on-prem nodes until a job does not fit (fifo); from
// that job on, within `queue_depth` positions, whole-node jobs go in queue order onto idle cloud
// instances until one does not fit them (it waits for the instances requested for it). Jobs on
// part of a node, and jobs bigger than the pool, never burst (they skip the cloud pass). A job
// placed in the cloud pays its dataset's WAN transfer before it starts (the cluster's transfer
// settings). The seed's example: a 90% threshold; `sustain` keeps a passing peak from renting.
// Cost per call: fifo's O(jobs started) plus O(min(queue_depth, waiting)) for the cloud pass and
// the demand count (both stop at the pool's size), O(1) for occupancy: no scan of the nodes.

#include <algorithm>
#include <optional>

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

class CloudBurstScheduler : public Scheduler {
 public:
  explicit CloudBurstScheduler(const sim::Params& p)
      : threshold_(p.number("threshold")), sustain_(p.duration("sustain")),
        depth_(static_cast<std::size_t>(p.integer("queue_depth"))) {}

  bool uses_cloud_pool() const override { return true; }

  std::vector<Placement> schedule(const ClusterView& view) override {
    std::vector<Placement> out;
    FreeCapacity free(view);
    const std::size_t head = place_queue_prefix(view, free, out);
    const auto idle = view.cloud_idle_nodes();
    std::size_t next_idle = 0;
    const auto waiting = view.waiting();
    for (std::size_t i = head; i < waiting.size() && i - head < depth_ && next_idle < idle.size(); ++i) {
      const WaitingJob& job = waiting[i];
      if (!burstable(view, job)) continue;
      if (static_cast<std::size_t>(job.nodes) > idle.size() - next_idle) break;
      Placement p{i, {idle.begin() + static_cast<std::ptrdiff_t>(next_idle),
                      idle.begin() + static_cast<std::ptrdiff_t>(next_idle) + job.nodes}};
      next_idle += static_cast<std::size_t>(job.nodes);
      out.push_back(std::move(p));
    }
    return out;
  }

  CloudRequest cloud_request(const ClusterView& view) override {
    // Waiting work the pool could take, in instances, counted only as far as the pool reaches.
    const int max = view.cloud_max_instances();
    int demand = 0;
    const auto waiting = view.waiting();
    for (std::size_t i = 0; i < waiting.size() && i < depth_ && demand < max; ++i) {
      if (burstable(view, waiting[i])) demand += waiting[i].nodes;
    }
    const int in_service = view.in_service_gpus();
    const double occupancy =
        in_service > 0 ? static_cast<double>(in_service - view.free_gpus()) / static_cast<double>(in_service) : 1.0;
    if (demand == 0 || occupancy < threshold_) {
      above_since_.reset();
      return {};
    }
    if (!above_since_) above_since_ = view.now();
    if (view.now() - *above_since_ < sustain_) return {0, *above_since_ + sustain_};
    const int supply = static_cast<int>(view.cloud_idle_nodes().size()) + view.cloud_provisioning();
    const int room = max - view.cloud_provisioning() - view.cloud_provisioned();
    return {std::clamp(std::min(demand, max) - supply, 0, room)};
  }

 private:
  static bool burstable(const ClusterView& view, const WaitingJob& job) {
    return job.gpus_per_node == view.gpus_per_node() && job.nodes <= view.cloud_max_instances();
  }

  double threshold_;
  sim::Time sustain_;
  std::size_t depth_;
  std::optional<sim::Time> above_since_;  // the burst condition has held since then
};

}  // namespace

void register_cloud_burst_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"cloud_burst",
                "fifo on-prem; when on-prem occupancy stays at or above `threshold` for `sustain` with jobs waiting, "
                "rents instances of the cluster's cloud pool (/cluster/cloud_pool) for them",
                {{"threshold", "", "0.9", "0 < x <= 1",
                  "on-prem occupancy (busy / in-service GPUs) at or above which waiting work may burst (the seed's "
                  "90%)"},
                 {"sustain", "duration", "\"10 min\"", "x >= 0",
                  "how long the occupancy must stay at or above the threshold, with jobs waiting, before instances "
                  "are requested (assumption: longer than a passing peak, shorter than a typical wait)"},
                 {"queue_depth", "integer", "100", "x >= 1",
                  "queue positions examined per decision for cloud placement and for the instances to request"}},
                [](const sim::Params& p) { return std::make_unique<CloudBurstScheduler>(p); }});
}

}  // namespace dcsim::models::policy
