#pragma once
// The built-in collective algorithms, as the step model's tests hand them to it.
#include "models/collective/collective_algorithm.hpp"

namespace dcsim::models::workload::test {

inline collective::CollectiveRegistry collective_registry() {
  collective::CollectiveRegistry r{"collective algorithm"};
  collective::register_collective_algorithms(r);
  return r;
}

}  // namespace dcsim::models::workload::test
