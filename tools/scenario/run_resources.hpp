#pragma once
// The whole run of a mapped scenario against the resource limits (resource_guard.hpp), once every
// section is mapped: memory (cluster, networks, traffic, output series, inference requests, the
// store's placement groups) and wall time (telemetry and facility ticks, series and points
// written, random faults, inference requests, the store's placements), each part with the JSON
// pointer of the key that makes it large. Sections checked alone before they are built (each
// network, its traffic, the store's hosts) were checked there too.

#include "models/model_registries.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

// Throws sim::InputError (resource_guard.hpp's check_memory / check_time / check_periodic_steps)
// at the pointer of the largest part when the run is estimated above `limits`.
void check_run_resources(const Scenario& s, const models::ModelRegistries& registries, const ResourceLimits& limits);

// When the run ends at the latest: /duration, or for plain jobs alone their latest possible end;
// Time::max() when open-ended (generators, training, services run until their work is done).
sim::Time run_horizon(const Scenario& s);

}  // namespace dcsim::tools::scenario
