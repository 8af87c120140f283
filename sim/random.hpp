#pragma once
// Random streams. Every component draws from its own stream, seeded by hashing (scenario seed,
// component path, purpose), so adding a component or changing draw order elsewhere never shifts
// another component's numbers, and results do not depend on construction order or thread count.
//
// The generator is xoshiro256** (Blackman & Vigna), seeded through SplitMix64. Distributions are
// our own (inverse transform, Marsaglia's polar method) on top of IEEE double arithmetic and
// std::log/sqrt/pow, so the same seed gives the same numbers with any standard library
// (std::*_distribution are implementation-defined and are never used).

#include <array>
#include <cstdint>
#include <string_view>

namespace dcsim::sim {

// 64-bit FNV-1a of the text, finished with a SplitMix64 mix of the seed: the stream's key.
std::uint64_t stream_seed(std::uint64_t scenario_seed, std::string_view component_path,
                          std::string_view purpose = {});

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed);
  RandomStream(std::uint64_t scenario_seed, std::string_view component_path,
               std::string_view purpose = {})
      : RandomStream(stream_seed(scenario_seed, component_path, purpose)) {}

  std::uint64_t next_u64();
  // Uniform on [0, 1) with 53 random bits.
  double uniform01();
  double uniform(double low, double high);
  // Uniform integer in [0, n), unbiased (Lemire's method); n > 0.
  std::uint64_t uniform_int(std::uint64_t n);
  // Mean `mean` > 0.
  double exponential(double mean);
  double normal(double mean, double stddev);
  // exp(N(mu, sigma)): mu and sigma are the parameters of the underlying normal.
  double lognormal(double mu, double sigma);
  // Shape k > 0, scale lambda > 0: P(X > x) = exp(-(x/lambda)^k).
  double weibull(double shape, double scale);

 private:
  std::array<std::uint64_t, 4> s_{};
  double spare_normal_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace dcsim::sim
