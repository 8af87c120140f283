#pragma once
// Resolved `economics` section -> models::economics::EconomicsConfig (Scenario::economics): price
// presets built by their registries' factories with the *_params overrides, units converted
// (USD/J -> USD/kWh, W -> kW), defaults that depend on the cluster filled in (node price preset,
// committed GPUs). What the assembly knows (node count, fabric BOM, cooling gear) is left to the
// economics subsystem. Throws sim::InputErrors, each "<source>:<JSON pointer>: <problem>".

#include <nlohmann/json.hpp>

#include "models/economics/economics_config.hpp"
#include "models/model_registries.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// `scenario` has its cluster mapped and its `given` document set. The keys reach their members
// through economics_bindings() (economics_spec.hpp), which also locates the economics
// subsystem's errors about them; what remains here is what no single key says.
models::economics::EconomicsConfig map_economics_section(const nlohmann::json& resolved, const Scenario& scenario,
                                                         const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
