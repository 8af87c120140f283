// How a fluid fleet's admission wait builds and drains (queue_buildup.hpp), and which load's
// latencies a wait picks (ServingCurve::latency_utilization): cases solved by hand.
#include <catch2/catch.hpp>

#include "models/inference/queue_buildup.hpp"
#include "models/inference/serving_curve.hpp"

namespace mi = dcsim::models::inference;

namespace {

// A build-up that rises linearly from 0 to 1 s of wait over 100 s: arrivals every 0.25 s whose
// wait is age / 100, up to a window that ends at 100 s with a level of 1 s.
mi::QueueBuildup linear_buildup() {
  std::vector<std::pair<double, double>> arrivals;
  for (double age = 0.0; age <= 100.0; age += 0.25) arrivals.emplace_back(age, age / 100.0);
  return mi::QueueBuildup(arrivals, 100.0, 1.0);
}

}  // namespace

TEST_CASE("a point's build-up: bins of doubling age, non-decreasing, ending at its level",
          "[models][inference][fluid]") {
  const mi::QueueBuildup b = linear_buildup();
  // Each bin's knot is its mean age and mean wait, both on the line, so the line is exact at the
  // knots and between them (linear interpolation of a line).
  CHECK(b.level_s() == 1.0);
  CHECK(b.wait_at(0.0) == 0.0);
  CHECK(b.wait_at(50.0) == Approx(0.5).epsilon(1e-9));
  CHECK(b.wait_at(1e6) == 1.0);  // held at the level past the window
  CHECK(b.age_of(0.25) == Approx(25.0).epsilon(1e-9));
  CHECK(b.age_of(2.0) == 100.0);  // never reached: the last age

  // Noise that takes a bin back does not take the wait back; a bin above the level is capped.
  const mi::QueueBuildup noisy({{0.2, 0.3}, {0.7, 0.1}, {1.5, 0.9}, {3.0, 5.0}}, 4.0, 0.8);
  CHECK(noisy.wait_at(0.7) == Approx(0.3));
  CHECK(noisy.wait_at(1.5) == Approx(0.8));
  CHECK(noisy.wait_at(4.0) == Approx(0.8));
}

TEST_CASE("a fleet's wait: built by equivalent age, drained at 1 - u of the server's time",
          "[models][inference][fluid]") {
  const mi::QueueBuildup b = linear_buildup();
  // From empty for 50 s: the line from 0 to 0.5, mean 0.25.
  auto s = mi::FluidQueue::advance(0.0, 0.95, b, b, 0.0, 50.0);
  CHECK(s.end_wait_s == Approx(0.5).epsilon(1e-6));
  CHECK(s.mean_wait_s == Approx(0.25).epsilon(1e-6));
  // From 0.5 (equivalent age 50 s) for 100 s: 50 s up the line (mean 0.75), then 50 s at the level.
  s = mi::FluidQueue::advance(0.5, 0.95, b, b, 0.0, 100.0);
  CHECK(s.end_wait_s == Approx(1.0).epsilon(1e-6));
  CHECK(s.mean_wait_s == Approx((0.75 * 50 + 1.0 * 50) / 100).epsilon(1e-3));  // trapezoids across the knee
  // A wait of 2 s at u = 0.5 with a level of 1 s drains at 0.5 s per s: gone in 2 s. Over 10 s
  // the mean is (2 s at a mean of 1.5 + 8 s at 1) / 10 = 1.1; over 1 s it is 1.75, ending at 1.5.
  s = mi::FluidQueue::advance(2.0, 0.5, b, b, 0.0, 10.0);
  CHECK(s.end_wait_s == 1.0);
  CHECK(s.mean_wait_s == Approx(1.1));
  s = mi::FluidQueue::advance(2.0, 0.5, b, b, 0.0, 1.0);
  CHECK(s.end_wait_s == Approx(1.5));
  CHECK(s.mean_wait_s == Approx(1.75));
  // A saturated server (u = 1) clears nothing.
  CHECK(mi::FluidQueue::advance(2.0, 1.0, b, b, 0.0, 10.0).end_wait_s == 2.0);
  // Between two points the build-up is their mixture: half of the line and half of nothing.
  const mi::QueueBuildup none({{1.0, 0.0}}, 100.0, 0.0);
  s = mi::FluidQueue::advance(0.0, 0.9, none, b, 0.5, 50.0);
  CHECK(s.end_wait_s == Approx(0.25).epsilon(1e-6));
}

TEST_CASE("a wait picks the load whose measured wait it is", "[models][inference][fluid]") {
  mi::ServingCurve c;
  for (const auto& [u, q] : {std::pair{0.5, 0.01}, {0.9, 0.1}, {0.98, 1.0}}) {
    mi::CurvePoint p;
    p.utilization = u;
    p.queue_mean_s = q;
    c.points.push_back(p);
  }
  // At its own level a load is itself.
  CHECK(c.latency_utilization(0.9, 0.1) == 0.9);
  CHECK(c.latency_utilization(0.7, 0.055) == Approx(0.7));  // halfway: 0.01 + 0.5 x 0.09
  // Building at u = 0.98 with a wait of 0.55 s: halfway from 0.1 to 1.0, so halfway to 0.98 from 0.9.
  CHECK(c.latency_utilization(0.98, 0.55) == Approx(0.94));
  // Still draining at u = 0.5 with 0.1 s of wait: the load that waits 0.1 s.
  CHECK(c.latency_utilization(0.5, 0.1) == Approx(0.9));
  // Held at the ends.
  CHECK(c.latency_utilization(0.9, 5.0) == 0.98);
  CHECK(c.latency_utilization(0.9, 0.0) == 0.5);
  // Below the lightest point its latencies are the lightest point's; a wait above them still
  // picks the load that waits that long.
  CHECK(c.latency_utilization(0.3, 0.0) == 0.3);
  CHECK(c.latency_utilization(0.3, 1.0) == Approx(0.98));
}
