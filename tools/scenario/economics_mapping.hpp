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

// `scenario` has its cluster mapped and its `given` document set.
models::economics::EconomicsConfig map_economics_section(const nlohmann::json& resolved, const Scenario& scenario,
                                                         const models::ModelRegistries& registries);

// The JSON pointer of a field the economics subsystem names in a ConfigError ("depreciation.years"
// -> "/economics/depreciation/years"); "/economics" when it has no finer place.
std::string economics_field_pointer(const std::string& field);

}  // namespace dcsim::tools::scenario
