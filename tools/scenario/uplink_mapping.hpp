#pragma once
// Resolved `uplink` section -> models::network::UplinkConfig (Scenario::uplink), with the checks
// the spec alone cannot make: a stream gives size or rate (not both, not neither), repeats only
// within a /duration, has a unique name; port speeds appear once; something that crosses needs a
// port; checkpoint copies need a training job that checkpoints. Throws sim::InputErrors, each
// "<source>:<JSON pointer>: <problem>".

#include <string>

#include <nlohmann/json.hpp>

#include "models/network/uplink_config.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// `scenario` has its cluster and duration mapped. The model's errors about a field are located by
// uplink_bindings() (uplink_spec.hpp).
models::network::UplinkConfig map_uplink_section(const nlohmann::json& resolved, const Scenario& scenario);

}  // namespace dcsim::tools::scenario
