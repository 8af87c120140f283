// sim::LogHistogram: buckets growing by a factor g read at their geometric middle, so a quantile
// is within a factor sqrt(g) of the exact order statistic.

#include <catch2/catch.hpp>

#include <cmath>

#include "sim/log_histogram.hpp"

using dcsim::sim::LogHistogram;

TEST_CASE("log histogram: quantiles within sqrt(growth), count mean and max exact", "[sim][log_histogram]") {
  LogHistogram h(1.0, 1e6, 1.01);
  // ceil(ln 1e6 / ln 1.01) = 1389 log buckets, the one below 1 and the one above 1e6: 1391.
  CHECK(h.bytes() == 1391 * 8);
  for (int v = 1; v <= 1000; ++v) h.add(static_cast<double>(v));
  h.add(0.5, 10);  // below min: the first bucket, read as 0
  CHECK(h.count() == 1010);
  CHECK(h.mean() == Approx((500.5 * 1000 + 5.0) / 1010).epsilon(1e-12));
  CHECK(h.max() == 1000.0);
  CHECK(h.quantile(0.005) == 0.0);  // rank 6: one of the ten below min
  // Rank ceil(0.5 x 1010) = 505: the 495th of 1..1000, read within a factor sqrt(1.01).
  CHECK(std::abs(std::log(h.quantile(0.5) / 495.0)) <= std::log(std::sqrt(1.01)));
  CHECK(h.quantile(1.0) <= 1000.0);  // clamped to the exact maximum
  const auto buckets = h.buckets();
  CHECK(buckets.front().lower == 0.0);
  CHECK(buckets.front().upper == 1.0);
  CHECK(buckets.front().count == 10);
  CHECK(buckets[1].upper / buckets[1].lower == Approx(1.01).epsilon(1e-12));  // [1, 1.01): 1 alone
  CHECK(buckets[1].count == 1);
}
