#pragma once
// A scalar probability distribution drawn from a RandomStream, as scenario files describe them
// (job work, interarrival times, flow sizes). Values are in the caller's unit (seconds, bytes).

#include <string>

#include "sim/random.hpp"

namespace dcsim::sim {

struct Distribution {
  enum class Kind { kFixed, kUniform, kExponential, kLognormal, kWeibull };
  Kind kind = Kind::kFixed;
  // kFixed: a = value. kUniform: [a, b). kExponential: a = mean. kLognormal: a = median,
  // b = sigma of the underlying normal. kWeibull: a = scale, b = shape.
  double a = 0.0;
  double b = 0.0;

  double sample(RandomStream& rng) const;
  double mean() const;
};

}  // namespace dcsim::sim
