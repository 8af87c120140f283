#pragma once
// Resolved `facility` section -> models::facility::FacilityConfig (Scenario::facility). Reads the
// outdoor CSV (errors name file and line) and checks what needs the node model (a rack limit
// below one node's idle power). Throws sim::InputError located at the JSON pointer.

#include <string>

#include <nlohmann/json.hpp>

#include "models/facility/facility_config.hpp"
#include "models/model_registries.hpp"
#include "tools/scenario/fabric_config.hpp"

namespace dcsim::tools::scenario {

models::facility::FacilityConfig map_facility_section(const nlohmann::json& facility, const std::string& source);

// With a fabric section: the network switch power from its topology (every switch, its cabled
// ports at their speeds) replaces /facility/network's count, which must then be 0.
void count_fabric_switches(models::facility::FacilityConfig& facility, const FabricScenario& fabric,
                           const models::ModelRegistries& registries, const std::string& source);

// Temperatures (C), one number per line; '#' comments and an optional header line are skipped.
std::vector<double> read_temperature_csv(const std::string& path, const std::string& display);

}  // namespace dcsim::tools::scenario
