#pragma once
// Resolved `economics` section -> models::economics::EconomicsConfig (Scenario::economics): price
// presets built by their registries' factories with the *_params overrides, units converted
// (USD/J -> USD/kWh, W -> kW), defaults that depend on the cluster filled in (node price preset,
// committed GPUs). What the assembly knows (node count, fabric BOM, cooling gear) is left to the
// economics subsystem. Throws sim::InputErrors, each "<source>:<JSON pointer>: <problem>".

#include <nlohmann/json.hpp>

#include "models/economics/economics_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/field_origins.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// `scenario` has its cluster mapped and its `given` document set. Where each ledger field came
// from goes to `origins` ("depreciation.years" <- /economics/depreciation/years), for the
// economics subsystem's own checks.
models::economics::EconomicsConfig map_economics_section(const nlohmann::json& resolved, const Scenario& scenario,
                                                         const models::ModelRegistries& registries,
                                                         FieldOrigins& origins);

}  // namespace dcsim::tools::scenario
