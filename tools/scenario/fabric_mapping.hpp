#pragma once
// Resolved `fabric` / `traffic` sections -> network model configs (FabricScenario,
// TrafficScenario), and the network model's ConfigErrors ->
// messages at the scenario key that fed the field.
//
// The topology is built once while loading, so what only the builder can judge (an odd k, NICs
// an edge switch cannot wire, a fault on a link that does not exist, a trace naming a host the
// fabric lacks) is reported by `dcsim validate`, before a run writes anything.

#include <string>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "models/network/topology.hpp"
#include "sim/error.hpp"
#include "tools/scenario/resource_guard.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

// Fills out.fabric and out.traffic from the resolved document when it has those sections.
// Throws sim::InputError / InputErrors located at the JSON pointer (or CSV file and line), also
// when the fabric or its traffic would not fit in `limits` (checked before either is built).
void map_fabric_sections(const nlohmann::json& resolved, const models::ModelRegistries& registries,
                         const ResourceLimits& limits, Scenario& out);

// Fills out.frontend from the resolved document's /frontend (the nodes' front-end network: the
// same keys as /fabric; NIC count and rate default to the node's storage NICs and may not exceed
// them). Needs the cluster mapped first.
void map_frontend_section(const nlohmann::json& resolved, const models::ModelRegistries& registries,
                          const ResourceLimits& limits, Scenario& out);

// "<source>:<pointer>: <detail>" for a ConfigError the network model raised about `fabric` (or
// the front-end), at the key that fed its field (FabricScenario::derived, else the bindings);
// "<source>:<section>: <field>: ..." when the field is the model's own.
std::string fabric_error(const FabricScenario& fabric, const models::ModelRegistries& registries,
                         const std::string& source, const sim::ConfigError& error);

// Builds the fabric's topology with the registered builder; a ConfigError becomes an InputError
// "<source>:/fabric/<key>: <detail>" (fabric_error).
models::network::Topology build_topology(const FabricScenario& fabric, const models::ModelRegistries& registries,
                                         const std::string& source);

}  // namespace dcsim::tools::scenario
