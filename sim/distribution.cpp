#include "sim/distribution.hpp"

#include <cmath>

namespace dcsim::sim {

double Distribution::sample(RandomStream& rng) const {
  switch (kind) {
    case Kind::kFixed: return a;
    case Kind::kUniform: return rng.uniform(a, b);
    case Kind::kExponential: return rng.exponential(a);
    case Kind::kLognormal: return rng.lognormal(std::log(a), b);
    case Kind::kWeibull: return rng.weibull(b, a);
  }
  return a;
}

double Distribution::mean() const {
  switch (kind) {
    case Kind::kFixed: return a;
    case Kind::kUniform: return 0.5 * (a + b);
    case Kind::kExponential: return a;
    case Kind::kLognormal: return a * std::exp(0.5 * b * b);
    case Kind::kWeibull: return a * std::tgamma(1.0 + 1.0 / b);
  }
  return a;
}

}  // namespace dcsim::sim
