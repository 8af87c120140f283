// The plot downsampler: points kept as they are while they fit, a min/max envelope per bucket
// beyond, never more than the budget.

#include "tools/report/downsample.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "tools/report/chart_axis.hpp"

using dcsim::tools::report::Downsampler;
using dcsim::tools::report::nice_ticks;
using dcsim::tools::report::PlotPoint;

TEST_CASE("a series that fits the budget is plotted point for point",
          "[tools][report][downsample]") {
  Downsampler d(0, 10, 2000);
  for (int i = 0; i < 10; ++i) d.add(i, i * i);
  const auto p = d.points();
  REQUIRE(p.size() == 10);
  CHECK(p[3].x == 3);
  CHECK(p[3].y == 9);
}

TEST_CASE("a sawtooth keeps each bucket's first, highest and last point",
          "[tools][report][downsample]") {
  // 10,000 points y = i mod 100 over x in [0, 10000), 50 points allowed: 50 / 5 = 10 buckets of
  // 1,000 points. In bucket b the first point (x = 1000b, y = 0) is also the lowest, the highest
  // is the first 99 (x = 1000b + 99) and the last is x = 1000b + 999 (y = 99): 3 points a bucket.
  Downsampler d(0, 10000, 50);
  for (int i = 0; i < 10000; ++i) d.add(i, i % 100);
  const auto p = d.points();
  REQUIRE(p.size() == 30);
  for (int b = 0; b < 10; ++b) {
    CHECK(p[3 * b].x == 1000 * b);
    CHECK(p[3 * b].y == 0);
    CHECK(p[3 * b + 1].x == 1000 * b + 99);
    CHECK(p[3 * b + 1].y == 99);
    CHECK(p[3 * b + 2].x == 1000 * b + 999);
    CHECK(p[3 * b + 2].y == 99);
  }
}

TEST_CASE("a long series never exceeds the budget and keeps its extremes and gaps",
          "[tools][report][downsample]") {
  // 1,000,000 points with one spike, one dip and a NaN gap: 2000 allowed = 400 buckets x 5.
  Downsampler d(0, 1e6, 2000);
  for (int i = 0; i < 1'000'000; ++i) {
    double y = std::sin(i * 0.001);
    if (i == 123'457) y = 50;
    if (i == 765'433) y = -50;
    if (i >= 500'000 && i < 500'010) y = std::nan("");
    d.add(i, y);
  }
  const auto p = d.points();
  CHECK(p.size() <= 2000);
  CHECK(d.points_seen() == 1'000'000);
  bool spike = false;
  bool dip = false;
  bool gap = false;
  for (const auto& q : p) {
    spike = spike || (q.x == 123'457 && q.y == 50);
    dip = dip || (q.x == 765'433 && q.y == -50);
    gap = gap || (q.x == 500'000 && std::isnan(q.y));
  }
  CHECK(spike);
  CHECK(dip);
  CHECK(gap);
  // In x order.
  for (std::size_t i = 1; i < p.size(); ++i) CHECK(p[i - 1].x <= p[i].x);
}

TEST_CASE("axis ticks fall on 1, 2, 2.5 or 5 times a power of ten", "[tools][report][axis]") {
  // (0, 87) in about 5 ticks: a raw step of 17.4 rounds up to 20, the range to 0..100.
  const auto t = nice_ticks(0, 87, 5);
  CHECK(t.step == 20);
  CHECK(t.ticks == std::vector<double>{0, 20, 40, 60, 80, 100});
  // (1.1, 1.3): raw step 0.04 -> 0.05; 1.1 and 1.3 are whole steps.
  const auto u = nice_ticks(1.1, 1.3, 5);
  CHECK(u.step == Approx(0.05));
  CHECK(u.lo == Approx(1.1));
  CHECK(u.hi == Approx(1.3));
  // A flat line at 40 gets a range around it, not an empty one.
  const auto f = nice_ticks(40, 40, 5);
  CHECK(f.lo < 40);
  CHECK(f.hi > 40);
}
