#include "models/facility/power_capping.hpp"

#include <algorithm>

namespace dcsim::models::facility {

namespace {

class LogOnly final : public PowerCappingPolicy {
 public:
  double gpu_power_limit_w(const RackPowerInput& in) override { return in.max_gpu_limit_w; }
};

class RackGpuCap final : public PowerCappingPolicy {
 public:
  explicit RackGpuCap(const sim::Params& p) : headroom_(p.number("headroom")), tolerance_w_(p.number("tolerance")) {}
  double gpu_power_limit_w(const RackPowerInput& in) override {
    const double target_w = (1.0 - headroom_) * in.rack_limit_w;
    double lo = std::min(in.min_gpu_limit_w, in.max_gpu_limit_w);
    double hi = in.max_gpu_limit_w;
    if (in.rack_power_w(hi) <= target_w) return hi;
    if (in.rack_power_w(lo) > target_w) return lo;  // the most the limits can do
    // Invariant: the rack fits at lo, not at hi. Keep the side that fits.
    while (hi - lo > tolerance_w_) {
      const double mid = 0.5 * (lo + hi);
      if (in.rack_power_w(mid) <= target_w) lo = mid; else hi = mid;
    }
    return lo;
  }

 private:
  double headroom_;
  double tolerance_w_;
};

}  // namespace

void register_power_capping(sim::Registry<PowerCappingFactory>& registry) {
  registry.add({"log_only", "GPU power limits stay as configured; rack limit crossings are only logged (events/facility)",
                {},
                [](const sim::Params&) { return std::make_unique<LogOnly>(); }});
  registry.add(
      {"rack_gpu_cap",
       "lowers the power limit of every GPU in a rack that would cross its limit to the highest common limit that "
       "keeps it under (the clock falls with the limit: DVFS), and raises it again as the load allows",
       {
           // Operators keep a margin below the breaker rating (assumption: none by default).
           {"headroom", "", "0", "0 <= x < 1", "share of the rack limit kept free: the cap holds (1 - headroom) x limit"},
           // nvidia-smi sets power limits in whole watts.
           {"tolerance", "power", "\"1 W\"", "x > 0", "precision of the limit found (bisection)"},
       },
       [](const sim::Params& p) { return std::make_unique<RackGpuCap>(p); }});
}

}  // namespace dcsim::models::facility
