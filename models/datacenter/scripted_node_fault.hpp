#pragma once
// One scripted node fault: the node goes down, comes back up, or its jobs crash at `at`
// (scripted_node_faults.hpp acts on them).

#include "sim/time.hpp"

namespace dcsim::models::datacenter {

struct ScriptedNodeFault {
  enum class Kind { kDown, kUp, kJobCrash };
  sim::Time at;
  Kind kind = Kind::kDown;
  int node = 0;
};

}  // namespace dcsim::models::datacenter
