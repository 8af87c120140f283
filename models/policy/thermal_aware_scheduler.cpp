// "thermal_aware": queue order like fifo, but nodes are chosen where the heat can go: first
// racks whose power headroom (rated rack power minus present draw) takes the node's full-load
// increment, then the coolest GPUs (hottest die per node, which carries its zone's coolant
// temperature), then lowest id. Keeps a weak cooling zone or a nearly full rack from being the
// first choice, so fewer GPUs reach their throttle point. Without a facility model (no
// temperatures, unlimited racks) it places like fifo. Jobs smaller than a node: best-fit GPUs.
// Cost per call: O(free nodes log free nodes) per job started.

#include <algorithm>
#include <cmath>

#include "models/policy/free_capacity.hpp"
#include "models/policy/schedulers.hpp"

namespace dcsim::models::policy {

namespace {

class ThermalAwareScheduler : public Scheduler {
 public:
  explicit ThermalAwareScheduler(double margin_c) : margin_c_(margin_c) {}

  std::vector<Placement> schedule(const ClusterView& view) override {
    return place_in_arrival_order(view, [this](const ClusterView& v, FreeCapacity& free, const WaitingJob& job) {
      return place(v, free, job);
    });
  }

 private:
  std::optional<std::vector<int>> place(const ClusterView& view, FreeCapacity& free, const WaitingJob& job) const {
    // A job with NVLink blocks takes whole blocks from one domain each (free_capacity.hpp): the
    // rack is the NVLink domain there, so the coolest nodes cannot be picked one by one.
    if (job.gpus_per_node < view.gpus_per_node() || job.nvlink_block_nodes > 1) return free.take_default(job);
    if (job.nodes > free.whole_free_nodes()) return std::nullopt;
    struct Candidate {
      bool rack_has_room;
      double temperature_bin;  // temperatures within margin_c count as equal: ids break the tie
      int node;
    };
    std::vector<Candidate> candidates;
    for (int n : free.whole_free_list()) {
      const NodeState& s = view.node(n);
      const double c = view.gpu_temperature_c(n);
      const double t = std::isnan(c) ? 0.0 : c;
      candidates.push_back({view.rack_power_headroom_w(s.rack) >= view.node_load_power_w(),
                            std::floor(t / margin_c_), n});
    }
    const auto k = static_cast<std::ptrdiff_t>(job.nodes);
    std::partial_sort(candidates.begin(), candidates.begin() + k, candidates.end(), [](const Candidate& a, const Candidate& b) {
      if (a.rack_has_room != b.rack_has_room) return a.rack_has_room;
      if (a.temperature_bin != b.temperature_bin) return a.temperature_bin < b.temperature_bin;
      return a.node < b.node;
    });
    std::vector<int> chosen;
    for (std::ptrdiff_t i = 0; i < k; ++i) chosen.push_back(candidates[static_cast<std::size_t>(i)].node);
    std::sort(chosen.begin(), chosen.end());
    if (!free.take(job, chosen)) return std::nullopt;
    return chosen;
  }

  double margin_c_;
};

}  // namespace

void register_thermal_aware_scheduler(sim::Registry<SchedulerFactory>& registry) {
  registry.add({"thermal_aware",
                "queue order; nodes in racks with power headroom first, then the coolest GPUs",
                {{"temperature_resolution", "temperature", "\"2 C\"", "x > 0",
                  "GPU temperatures closer than this count as equal (sensor noise; avoids chasing 0.1 K)"}},
                [](const sim::Params& p) {
                  return std::make_unique<ThermalAwareScheduler>(p.number("temperature_resolution"));
                }});
}

}  // namespace dcsim::models::policy
