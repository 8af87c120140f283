#include <catch2/catch.hpp>

#include <cmath>

#include "tools/report/step_mean.hpp"

using dcsim::tools::report::StepMeanSampler;

TEST_CASE("a step-held series becomes its time-weighted mean per bucket", "[tools][report]") {
  // [0, 10) in two buckets of 5. Held values: 10 on [0,2), 0 on [2,3), 10 on [3,8), a gap on
  // [8,9), 4 on [9,10) (the last value holds to the end).
  StepMeanSampler m(0.0, 10.0, 2);
  m.add(0, 10);
  m.add(2, 0);
  m.add(3, 10);
  m.add(8, std::nan(""));
  m.add(9, 4);
  const auto p = m.points();
  REQUIRE(p.size() == 2);
  // Bucket 0: (10 x 2 + 0 x 1 + 10 x 2) / 5 = 8.
  CHECK(p[0].x == 0.0);
  CHECK(p[0].y == Approx(8.0));
  // Bucket 1: (10 x 3 + 4 x 1) / 4 = 8.5; the gap is not a zero.
  CHECK(p[1].x == 5.0);
  CHECK(p[1].y == Approx(8.5));
  // Asking again gives the same answer (the tail is held on a copy).
  CHECK(m.points()[1].y == Approx(8.5));
}

TEST_CASE("buckets the series never reached are left out, gaps stay gaps", "[tools][report]") {
  StepMeanSampler late(0.0, 10.0, 2);
  late.add(6, 2);  // starts in the second bucket
  const auto p = late.points();
  REQUIRE(p.size() == 1);
  CHECK(p[0].x == 5.0);
  CHECK(p[0].y == Approx(2.0));

  StepMeanSampler gap(0.0, 10.0, 1);
  gap.add(0, std::nan(""));
  REQUIRE(gap.points().size() == 1);
  CHECK(std::isnan(gap.points()[0].y));

  // A rate that is on 90% of each step and off 10% (a checkpoint), over many steps: the mean is
  // 90% of the peak in every bucket, where an envelope would span 0..peak.
  StepMeanSampler steps(0.0, 1000.0, 10);
  for (int i = 0; i < 1000; ++i) {
    steps.add(i, 100.0);
    steps.add(i + 0.9, 0.0);
  }
  for (const auto& q : steps.points()) CHECK(q.y == Approx(90.0));
}
