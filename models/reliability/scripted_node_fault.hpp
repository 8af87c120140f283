#pragma once
// One scripted node fault: the node goes down, comes back up, its jobs crash, or one of its GPUs
// corrupts its jobs silently at `at` (scripted_node_faults.hpp acts on them).

#include "sim/time.hpp"

namespace dcsim::models::reliability {

struct ScriptedNodeFault {
  enum class Kind { kDown, kUp, kJobCrash, kSilentCorruption };
  sim::Time at;
  Kind kind = Kind::kDown;
  int node = 0;
  sim::Time quarantine;  // kSilentCorruption: how long the node is out once the corruption is caught
};

}  // namespace dcsim::models::reliability
