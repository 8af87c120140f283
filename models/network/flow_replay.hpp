#pragma once
// Replays flow records on a Fabric without the event engine (a plain loop over the fabric's
// next_event_time / advance seam): the fastest driver, used by the benchmark and by tests.
// Inside a full simulation, FabricSimulation plays the same role with one engine event.
// Every finished flow goes through the report; returns its summary.

#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/fabric_report.hpp"
#include "models/network/traffic.hpp"

namespace dcsim::models::network {

// records need not be sorted; they are validated against the fabric's hosts (ConfigError).
FabricSummary replay_flows(Fabric& fabric, std::vector<FlowRecord> records, FabricReport& report);

}  // namespace dcsim::models::network
