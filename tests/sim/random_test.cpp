// Random streams: golden values (any change in the numbers is caught), determinism per
// (seed, path, purpose), independence of paths, and the moments of each distribution.
//
// Moment checks use N = 1e6 draws and a 5-sigma band around the exact value, where sigma is
// the standard error of the estimator at that N (given per check). A correct generator fails a
// 5-sigma check with probability ~6e-7, and the streams are fixed, so a failure means the
// numbers changed, not bad luck.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/error.hpp"
#include "sim/random.hpp"

namespace {

using dcsim::sim::RandomStream;
using dcsim::sim::stream_seed;

constexpr int kDraws = 1'000'000;
constexpr double kSigmas = 5.0;

struct Moments {
  double mean = 0.0;
  double variance = 0.0;
};

template <class Draw>
Moments moments(Draw draw) {
  // Two-pass over stored draws: exact enough at 1e6 samples.
  std::vector<double> xs(kDraws);
  for (double& x : xs) x = draw();
  double sum = 0.0;
  for (double x : xs) sum += x;
  const double mean = sum / kDraws;
  double ss = 0.0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  return {mean, ss / (kDraws - 1)};
}

// Standard error of a sample mean / variance from the distribution's variance and 4th central
// moment: se(mean) = sqrt(var / N), se(var) = sqrt((mu4 - var^2) / N).
double se_mean(double variance) { return std::sqrt(variance / kDraws); }
double se_variance(double variance, double mu4) {
  return std::sqrt((mu4 - variance * variance) / kDraws);
}

}  // namespace

TEST_CASE("golden values: xoshiro256** seeded by SplitMix64", "[sim][random]") {
  // Computed by an independent Python transcription of the reference algorithms
  // (Blackman & Vigna's xoshiro256** and splitmix64, FNV-1a for paths).
  RandomStream zero(0);
  CHECK(zero.next_u64() == 0x99ec5f36cb75f2b4ULL);
  CHECK(zero.next_u64() == 0xbf6e1f784956452aULL);
  CHECK(zero.next_u64() == 0x1a5f849d4933e6e0ULL);
  CHECK(zero.next_u64() == 0x6aa594f1262d2d2cULL);
  RandomStream answer(42);
  CHECK(answer.next_u64() == 0x15780b2e0c2ec716ULL);
  CHECK(answer.next_u64() == 0x6104d9866d113a7eULL);
  CHECK(answer.next_u64() == 0xae17533239e499a1ULL);
  CHECK(stream_seed(42, "cluster/node3", "failures") == 0xddfc44d12ee2ae4eULL);
  RandomStream node(42, "cluster/node3", "failures");
  CHECK(node.next_u64() == 0x5c9a9506916a7a39ULL);
  CHECK(node.next_u64() == 0xf6ae3f343bde47a5ULL);
  CHECK(node.next_u64() == 0xc459b46552ee8665ULL);
  RandomStream seven(7);
  CHECK(seven.uniform01() == 0.7005764821796896);  // top 53 bits of the first draw, exact
}

TEST_CASE("same (seed, path, purpose) gives the same stream", "[sim][random]") {
  RandomStream a(99, "fabric/link12", "ecmp");
  RandomStream b(99, "fabric/link12", "ecmp");
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(a.next_u64() == b.next_u64());
  }
  // Including the derived draws, whose internal state (the spare normal) must follow too.
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(a.normal(0.0, 1.0) == b.normal(0.0, 1.0));
    REQUIRE(a.exponential(2.0) == b.exponential(2.0));
  }
}

TEST_CASE("different seeds, paths or purposes give different streams", "[sim][random]") {
  auto first = [](RandomStream s) { return s.next_u64(); };
  const std::uint64_t base = first(RandomStream(1, "jobs/3", "arrivals"));
  CHECK(first(RandomStream(2, "jobs/3", "arrivals")) != base);
  CHECK(first(RandomStream(1, "jobs/4", "arrivals")) != base);
  CHECK(first(RandomStream(1, "jobs/3", "sizes")) != base);
  // The separator keeps the split between path and purpose significant.
  CHECK(stream_seed(1, "ab", "c") != stream_seed(1, "a", "bc"));
  CHECK(stream_seed(1, "a", "") != stream_seed(1, "", "a"));
  // Streams of neighbouring paths are uncorrelated: agreement on the top bit of 1e5 draws
  // is 50% +- 5 * 0.16%.
  RandomStream x(5, "node/1"), y(5, "node/2");
  int agree = 0;
  constexpr int kPairs = 100'000;
  for (int i = 0; i < kPairs; ++i) agree += ((x.next_u64() ^ y.next_u64()) >> 63) == 0 ? 1 : 0;
  CHECK(std::abs(agree / double(kPairs) - 0.5) < kSigmas * std::sqrt(0.25 / kPairs));
}

TEST_CASE("uniform01 lies in the half-open unit interval with mean 1/2 and variance 1/12",
          "[sim][random]") {
  RandomStream rng(11, "tests/random", "uniform01");
  bool in_range = true;
  const Moments m = moments([&] {
    const double u = rng.uniform01();
    in_range = in_range && u >= 0.0 && u < 1.0;
    return u;
  });
  CHECK(in_range);
  // Uniform(0,1): var 1/12, mu4 1/80.
  CHECK(m.mean == Approx(0.5).margin(kSigmas * se_mean(1.0 / 12)));
  CHECK(m.variance == Approx(1.0 / 12).margin(kSigmas * se_variance(1.0 / 12, 1.0 / 80)));
}

TEST_CASE("uniform(low, high) and uniform_int", "[sim][random]") {
  RandomStream rng(12, "tests/random", "uniform");
  const Moments m = moments([&] { return rng.uniform(-3.0, 5.0); });
  const double var = 64.0 / 12;  // (b - a)^2 / 12
  CHECK(m.mean == Approx(1.0).margin(kSigmas * se_mean(var)));
  CHECK(m.variance == Approx(var).margin(kSigmas * se_variance(var, 4096.0 / 80)));

  // uniform_int(6): each face has probability 1/6; count se = sqrt(N p (1-p)).
  std::vector<int> counts(6, 0);
  for (int i = 0; i < kDraws; ++i) ++counts[rng.uniform_int(6)];
  const double p = 1.0 / 6;
  for (int c : counts) {
    CHECK(c == Approx(kDraws * p).margin(kSigmas * std::sqrt(kDraws * p * (1 - p))));
  }
  CHECK(rng.uniform_int(1) == 0);
  CHECK_THROWS_AS(rng.uniform_int(0), dcsim::sim::InternalError);
}

TEST_CASE("exponential(mean): mean m, variance m^2", "[sim][random]") {
  RandomStream rng(13, "tests/random", "exponential");
  const double mean = 2.5;
  bool positive = true;
  const Moments m = moments([&] {
    const double x = rng.exponential(mean);
    positive = positive && x >= 0.0 && std::isfinite(x);
    return x;
  });
  CHECK(positive);
  const double var = mean * mean;
  CHECK(m.mean == Approx(mean).margin(kSigmas * se_mean(var)));
  // Exponential: mu4 = 9 m^4.
  CHECK(m.variance == Approx(var).margin(kSigmas * se_variance(var, 9 * var * var)));
}

TEST_CASE("normal(mu, sigma): mean mu, variance sigma^2", "[sim][random]") {
  RandomStream rng(14, "tests/random", "normal");
  const double mu = -1.0;
  const double sigma = 3.0;
  const Moments m = moments([&] { return rng.normal(mu, sigma); });
  const double var = sigma * sigma;
  CHECK(m.mean == Approx(mu).margin(kSigmas * se_mean(var)));
  // Normal: mu4 = 3 sigma^4.
  CHECK(m.variance == Approx(var).margin(kSigmas * se_variance(var, 3 * var * var)));
}

TEST_CASE("lognormal(mu, sigma): log is normal(mu, sigma)", "[sim][random]") {
  RandomStream rng(15, "tests/random", "lognormal");
  const double mu = 0.5;
  const double sigma = 0.75;
  // The log's moments are the normal's and have tight standard errors; the raw mean
  // exp(mu + sigma^2/2) has a heavy tail, so it gets the exact lognormal variance.
  std::vector<double> xs(kDraws);
  for (double& x : xs) x = rng.lognormal(mu, sigma);
  double sum_log = 0.0;
  double sum = 0.0;
  for (double x : xs) {
    sum_log += std::log(x);
    sum += x;
  }
  const double var = sigma * sigma;
  CHECK(sum_log / kDraws == Approx(mu).margin(kSigmas * se_mean(var)));
  const double mean = std::exp(mu + var / 2);
  const double raw_var = (std::exp(var) - 1) * std::exp(2 * mu + var);
  CHECK(sum / kDraws == Approx(mean).margin(kSigmas * se_mean(raw_var)));
}

TEST_CASE("weibull(shape, scale): mean and tail", "[sim][random]") {
  RandomStream rng(16, "tests/random", "weibull");
  const double shape = 1.7;
  const double scale = 4.0;
  std::vector<double> xs(kDraws);
  for (double& x : xs) x = rng.weibull(shape, scale);
  double sum = 0.0;
  int above_scale = 0;
  for (double x : xs) {
    sum += x;
    above_scale += x > scale ? 1 : 0;
  }
  // Mean scale * G(1 + 1/k), variance scale^2 (G(1 + 2/k) - G(1 + 1/k)^2).
  const double g1 = std::tgamma(1 + 1 / shape);
  const double var = scale * scale * (std::tgamma(1 + 2 / shape) - g1 * g1);
  CHECK(sum / kDraws == Approx(scale * g1).margin(kSigmas * se_mean(var)));
  // P(X > scale) = exp(-1) for every shape; a proportion's se is sqrt(p (1 - p) / N).
  const double p = std::exp(-1.0);
  CHECK(above_scale / double(kDraws) ==
        Approx(p).margin(kSigmas * std::sqrt(p * (1 - p) / kDraws)));
}
