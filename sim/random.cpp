#include "sim/random.hpp"

#include <cmath>

#include "sim/error.hpp"

namespace dcsim::sim {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  x += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// GCC/Clang extension; -Wpedantic would flag the plain spelling.
__extension__ using Uint128 = unsigned __int128;

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t fnv1a(std::uint64_t h, std::string_view text) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001B3ULL;
  }
  return h;
}

}  // namespace

std::uint64_t stream_seed(std::uint64_t scenario_seed, std::string_view component_path,
                          std::string_view purpose) {
  std::uint64_t h = fnv1a(0xCBF29CE484222325ULL, component_path);
  h = fnv1a(h ^ 0x1F, purpose);  // separator keeps ("ab","c") apart from ("a","bc")
  std::uint64_t x = scenario_seed ^ h;
  splitmix64(x);
  return splitmix64(x);
}

RandomStream::RandomStream(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& word : s_) word = splitmix64(x);
}

std::uint64_t RandomStream::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double RandomStream::uniform01() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double RandomStream::uniform(double low, double high) { return low + (high - low) * uniform01(); }

std::uint64_t RandomStream::uniform_int(std::uint64_t n) {
  if (n == 0) throw InternalError("uniform_int(0) (this is a bug)");
  // Lemire: multiply-shift with rejection of the biased low region.
  Uint128 m = static_cast<Uint128>(next_u64()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<Uint128>(next_u64()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

double RandomStream::exponential(double mean) {
  // 1 - U lies in (0, 1], so the log is finite.
  return -mean * std::log(1.0 - uniform01());
}

double RandomStream::normal(double mean, double stddev) {
  if (has_spare_) {
    has_spare_ = false;
    return mean + stddev * spare_normal_;
  }
  double u = 0.0;
  double v = 0.0;
  double s = 0.0;
  do {  // Marsaglia's polar method: no trigonometry, exact rejection test.
    u = 2.0 * uniform01() - 1.0;
    v = 2.0 * uniform01() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * std::log(s) / s);
  spare_normal_ = v * factor;
  has_spare_ = true;
  return mean + stddev * u * factor;
}

double RandomStream::lognormal(double mu, double sigma) { return std::exp(normal(mu, sigma)); }

double RandomStream::weibull(double shape, double scale) {
  return scale * std::pow(-std::log(1.0 - uniform01()), 1.0 / shape);
}

}  // namespace dcsim::sim
