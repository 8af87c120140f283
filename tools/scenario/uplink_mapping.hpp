#pragma once
// Resolved `uplink` section -> models::datacenter::UplinkConfig (Scenario::uplink), with the checks
// the spec alone cannot make: a stream gives size or rate (not both, not neither), repeats only
// within a /duration, has a unique name; port speeds appear once; something that crosses needs a
// port; checkpoint copies need a training job that checkpoints. Throws sim::InputErrors, each
// "<source>:<JSON pointer>: <problem>".

#include <string>

#include <nlohmann/json.hpp>

#include "models/datacenter/uplink_config.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// `scenario` has its cluster and duration mapped.
models::datacenter::UplinkConfig map_uplink_section(const nlohmann::json& resolved, const Scenario& scenario);

// The JSON pointer of a field the uplink subsystem names in a ConfigError ("streams[2].every" ->
// "/uplink/streams/2/every"); "/uplink" when it has no finer place.
std::string uplink_field_pointer(const std::string& field);

}  // namespace dcsim::tools::scenario
