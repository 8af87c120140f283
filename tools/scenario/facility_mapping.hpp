#pragma once
// Resolved `facility` section -> models::facility::FacilityConfig (Scenario::facility). Reads the
// outdoor CSV (errors name file and line) and checks what needs the node model (a rack limit
// below one node's idle power). Throws sim::InputError located at the JSON pointer.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/facility/facility_config.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tools/scenario/fabric_config.hpp"

namespace dcsim::tools::scenario {

// node: the cluster's resolved NodeSpec (preset plus /cluster/node overrides); the facility's
// bottom-up node power takes from it what it describes: GPU count, GPU idle and full-load power,
// CPU sockets and NIC count (compute + storage, one optic each). The parts the NodeSpec does not
// describe (per-socket CPU power, DRAM, PCIe and NVLink switches, NVMe, fans, PSUs) keep the
// NodePowerConfig defaults. Null (no cluster): the defaults throughout.
// faults: the scenario's resolved /faults; its plant-kind entries become the facility's faults
// (facility_error locates "faults[0].zone" at /faults/3/zone).
// Each key reaches its FacilityConfig member through facility_bindings(); what remains here is
// what no single key says (node power, the outdoor CSV, switch power, plant faults).
models::facility::FacilityConfig map_facility_section(const nlohmann::json& facility, const std::string& source,
                                                      const models::ModelRegistries& registries,
                                                      const models::hardware::NodeSpec* node = nullptr,
                                                      const nlohmann::json& faults = nlohmann::json::array());

// The thermal thresholds /facility/throttle leaves out, from the node's GPU (the H100 SXM's,
// FacilityConfig's defaults, without a cluster), written into the resolved section so that it
// states the thresholds that run.
void fill_throttle_from_gpu(nlohmann::json& throttle, const models::hardware::GpuSpec* gpu);

// The facility's NodePowerConfig for a NodeSpec (what map_facility_section applies).
void apply_node_spec(models::power::NodePowerConfig& config, const models::hardware::NodeSpec& node);

// With a fabric or front-end section: the network switch power from their topologies (every
// switch, its cabled ports at their speeds, both networks) replaces /facility/network's count,
// which must then be 0.
void count_fabric_switches(models::facility::FacilityConfig& facility, const std::optional<FabricScenario>& fabric,
                           const std::optional<FabricScenario>& frontend, const models::ModelRegistries& registries,
                           const std::string& source);

// A facility model ConfigError about a config field ("zones[1].racks[0]", "rack_limit_w") as an
// InputError at the JSON pointer of the key that feeds it ("/facility/zones/1/racks/0",
// "/facility/rack_limit"), with its value from `resolved` (the whole resolved scenario); a field
// no key feeds: /facility with the field named.
sim::InputError facility_error(const std::string& source, const nlohmann::json& resolved,
                               const models::ModelRegistries& registries, const sim::ConfigError& error);

// Temperatures (C), one number per line; '#' comments and an optional header line are skipped.
std::vector<double> read_temperature_csv(const std::string& path, const std::string& display,
                                         const std::string& named_at = "");

}  // namespace dcsim::tools::scenario
