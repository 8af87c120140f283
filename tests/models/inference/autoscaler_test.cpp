// The HPA's replica arithmetic on hand-made fleet samples (Kubernetes' replica calculator).
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "models/inference/autoscaler.hpp"

namespace {

using dcsim::models::inference::Autoscaler;
using dcsim::models::inference::FleetSample;

// hpa on the batch metric, target 0.8, tolerance 0.1, no stabilisation windows (so each answer
// is the raw recommendation); a scale-down policy of `down_percent` per `down_period_s`
// (Kubernetes' default, 100% per 15 s, limits nothing).
std::unique_ptr<Autoscaler> batch_hpa(double down_percent = 100.0, double down_period_s = 15.0) {
  dcsim::models::inference::AutoscalerRegistry registry("autoscaler");
  dcsim::models::inference::register_autoscalers(registry);
  const auto& entry = registry.get("hpa");
  auto params = dcsim::sim::Params::defaults(entry.params);
  params.set_text("metric", "batch");
  params.set_number("scale_down_stabilization", 0.0);
  params.set_number("scale_down_percent", down_percent);
  params.set_number("scale_down_period", down_period_s);
  return entry.factory(params);
}

FleetSample sample(int replicas, int ready, double batch) {
  FleetSample s;
  s.now = dcsim::sim::Time::from_s(60);
  s.replicas = replicas;
  s.ready = ready;
  s.batch_fraction = batch;
  return s;
}

}  // namespace

TEST_CASE("hpa grows a fully ready fleet to ceil(ready x metric / target)", "[inference][autoscaler]") {
  // 32 ready at 0.9 against 0.8: ratio 1.125 > 1.1, so ceil(32 x 1.125) = 36.
  CHECK(batch_hpa()->desired(sample(32, 32, 0.9)) == 36);
  // Within the tolerance (0.85 / 0.8 = 1.0625): unchanged.
  CHECK(batch_hpa()->desired(sample(32, 32, 0.85)) == 32);
}

TEST_CASE("hpa counts replicas still starting at zero before growing again", "[inference][autoscaler]") {
  // 32 ready at 0.9 and 4 starting (asked a period ago): the mean with the 4 at 0 is
  // 0.9 x 32 / 36 = 0.8, ratio 1.0: no second scale-up for the load the 4 will take.
  CHECK(batch_hpa()->desired(sample(36, 32, 0.9)) == 36);
  // A load that outgrows even the starting ones: 32 at 1.0 with 4 starting gives
  // 1.0 x 32 / 36 / 0.8 = 1.111 > 1.1, so ceil(36 x 1.111) = 40.
  CHECK(batch_hpa()->desired(sample(36, 32, 1.0)) == 40);
}

TEST_CASE("hpa shrinks on the ready replicas' mean and holds with none ready", "[inference][autoscaler]") {
  // 40 ready at 0.5: ceil(40 x 0.625) = 25.
  CHECK(batch_hpa()->desired(sample(40, 40, 0.5)) == 25);
  // Shrinking with replicas starting: Kubernetes sizes on the ready ones, ceil(30 x 0.625) = 19.
  CHECK(batch_hpa()->desired(sample(40, 30, 0.5)) == 19);
  // Nothing ready yet measures nothing: no change.
  CHECK(batch_hpa()->desired(sample(8, 0, 0.0)) == 8);
}

TEST_CASE("hpa's scale-down percent policy limits a period's shrink", "[inference][autoscaler]") {
  auto hpa = batch_hpa(10.0, 60.0);
  // 40 ready at 0.5 would go to 25; 10% of the 40 present a minute ago may go: ceil(40 x 0.9) = 36.
  FleetSample s = sample(40, 40, 0.5);
  CHECK(hpa->desired(s) == 36);
  // 15 s later at 36, still within the minute that began at 40: no lower than 36.
  s = sample(36, 36, 0.5);
  s.now = dcsim::sim::Time::from_s(75);
  CHECK(hpa->desired(s) == 36);
  // Past the minute (the 40 has left it), 10% of 36 may go: ceil(36 x 0.9) = 33.
  s.now = dcsim::sim::Time::from_s(121);
  CHECK(hpa->desired(s) == 33);
}
