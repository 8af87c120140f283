#include "tools/scenario/facility_mapping.hpp"

#include "tools/scenario/facility_spec.hpp"
#include "tools/scenario/faults_spec.hpp"

#include <cmath>
#include <fstream>
#include <optional>
#include <string>

#include "models/power/switch_power.hpp"
#include "sim/error.hpp"
#include "tools/scenario/fabric_mapping.hpp"
#include "tools/scenario/flow_csv.hpp"
#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

namespace {

sim::Time seconds(const nlohmann::json& v) { return sim::Time::from_seconds(v.get<double>()); }

}  // namespace

std::vector<double> read_temperature_csv(const std::string& path, const std::string& display,
                                         const std::string& named_at) {
  std::ifstream in = open_data_file(path, display, named_at);
  std::vector<double> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty() && line[0] == '#') continue;
    if (line.empty()) {
      throw sim::InputError(display + ":" + std::to_string(number) + ": empty line (a gap in the series)");
    }
    std::size_t used = 0;
    double v = 0.0;
    try {
      v = std::stod(line, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != line.size() || !std::isfinite(v)) {
      if (number == 1 && out.empty()) continue;  // a header
      throw sim::InputError(display + ":" + std::to_string(number) + ": expected a temperature in C, got \"" + line +
                            "\"");
    }
    // The extremes of air temperature ever recorded: -89.2 C (Vostok, 1983), 56.7 C (Death
    // Valley, 1913). Beyond them the file is in the wrong unit or corrupt.
    if (v < -90.0 || v > 60.0) {
      throw sim::InputError(
          display + ":" + std::to_string(number) +
          ": expected an outdoor temperature from -90 to 60 C (beyond the extremes ever recorded), got " + line);
    }
    out.push_back(v);
  }
  if (out.empty()) throw sim::InputError(display + ": no temperatures");
  return out;
}

void fill_throttle_from_gpu(nlohmann::json& throttle, const models::hardware::GpuSpec* gpu) {
  const models::facility::FacilityConfig defaults;
  const auto fill = [&throttle](const char* key, double preset_c, double default_c) {
    if (!throttle.contains(key)) throttle[key] = preset_c > 0.0 ? preset_c : default_c;
  };
  fill("max_operating", gpu ? gpu->max_operating_c : 0.0, defaults.max_operating_c);
  fill("slowdown", gpu ? gpu->slowdown_c : 0.0, defaults.slowdown_c);
  fill("shutdown", gpu ? gpu->shutdown_c : 0.0, defaults.shutdown_c);
}

void apply_node_spec(models::power::NodePowerConfig& config, const models::hardware::NodeSpec& node) {
  config.gpus = node.gpus;
  config.gpu.idle_power_w = node.gpu.idle_power_w;
  config.gpu.max_power_w = node.gpu.max_power_w;
  config.cpu_sockets = node.cpu_sockets;
  config.nics = node.compute_nics + node.storage_nics;
}

models::facility::FacilityConfig map_facility_section(const nlohmann::json& f, const std::string& source,
                                                      const models::ModelRegistries& registries,
                                                      const models::hardware::NodeSpec* node,
                                                      const nlohmann::json& faults) {
  using models::facility::FacilityConfig;
  using models::facility::PlantFault;
  FacilityConfig c;
  if (node) {
    apply_node_spec(c.node, *node);
    // Unset, the cap is the part's own limit (700 W H100, 400 W A100): nvidia-smi's default.
    c.node.gpu.power_limit_w = node->gpu.max_power_w;
    c.min_gpu_power_limit_w = node->gpu.min_power_limit_w;
  }
  facility_bindings(registries).apply(f, c);
  // What the bindings cannot say: a CSV series read from a file, and switch ports and power
  // derived from three keys.
  const auto& out = f["outdoor"];
  if (c.outdoor.kind == models::thermal::OutdoorProfile::Kind::kSeries) {
    if (!out.contains("file")) {
      throw sim::InputError(source + ":/facility/outdoor/file: missing required key for kind \"csv\"");
    }
    const std::string file = out["file"];
    c.outdoor.series_c = read_temperature_csv(beside(source, file), file, source + ":/facility/outdoor/file");
  }
  const auto& net = f["network"];
  c.network_active_ports = c.network_switches * net["active_ports"].get<int>();
  c.network_power_w = c.network_switches * models::power::switch_power_w(c.switch_power, net["active_ports"].get<int>(),
                                                                         net["port_speed"].get<double>());
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const auto& j = faults[i];
    if (fault_target(j["kind"].get<std::string>()) != FaultTarget::kPlant) continue;
    PlantFault fault;
    const std::string k = j["kind"];
    fault.kind = k == "cdu_pump_failure"     ? PlantFault::Kind::kCduPumpFailure
                 : k == "rdhx_fan_failure"   ? PlantFault::Kind::kRdhxFanFailure
                 : k == "chilled_water_rise" ? PlantFault::Kind::kChilledWaterRise
                 : k == "cdu_failure"        ? PlantFault::Kind::kCduFailure
                                             : PlantFault::Kind::kZoneCoolingLoss;
    fault.at = seconds(j["at"]);
    if (j.contains("duration")) fault.duration = seconds(j["duration"]);
    fault.zone = j["zone"].get<int>();
    fault.flow_fraction = j["flow_fraction"].get<double>();
    fault.delta_c = j["delta"].get<double>();
    fault.count = j["count"].get<int>();
    c.faults.push_back(fault);
  }
  // A rack must at least hold one idle node.
  std::vector<double> idle(static_cast<std::size_t>(c.node.gpus), c.node.gpu.idle_power_w);
  const double idle_w = models::power::node_power(c.node, idle.data(), 0.0, c.node_fan_min_speed).ac_w;
  if (c.rack_limit_w < idle_w) {
    throw sim::InputError(source + ":/facility/rack_limit: must be at least one node's idle power (" +
                          std::to_string(static_cast<int>(idle_w)) + " W), got " +
                          std::to_string(static_cast<int>(c.rack_limit_w)) + " W");
  }
  return c;
}

}  // namespace dcsim::tools::scenario

namespace dcsim::tools::scenario {

void count_fabric_switches(models::facility::FacilityConfig& facility, const std::optional<FabricScenario>& fabric,
                           const std::optional<FabricScenario>& frontend, const models::ModelRegistries& registries,
                           const std::string& source) {
  if (facility.network_switches > 0) {
    throw sim::InputError(
        source + ":/facility/network/switches: the scenario has a " + (fabric ? "fabric" : "frontend") +
        " section; its switches and cabled ports are counted from the topology (leave switches at 0)");
  }
  facility.network_switches = 0;
  facility.network_active_ports = 0;
  facility.network_power_w = 0.0;
  for (const auto* network : {&fabric, &frontend}) {
    if (!*network) continue;
    const auto topology = build_topology(**network, registries, source);
    const auto net = models::power::fabric_switch_power(facility.switch_power, topology);
    facility.network_switches += net.switches;
    facility.network_active_ports += net.active_ports;
    facility.network_power_w += net.power_w;
  }
}

sim::InputError facility_error(const std::string& source, const nlohmann::json& resolved,
                               const models::ModelRegistries& registries, const sim::ConfigError& error) {
  auto pointer = facility_bindings(registries).pointer_of(error.field(), "/facility");
  // The model names a plant fault by its place among the plant faults; the scenario by its /faults entry.
  if (!pointer && resolved.contains("faults")) {
    pointer = part_fault_pointer(error.field(), resolved.at("faults"), FaultTarget::kPlant);
  }
  if (pointer) return config_error_at(source, *pointer, error, &resolved);
  // A field no key feeds (a derived value): the section, the field in words.
  return sim::InputError(source + ":/facility: " + error.field() + ": " + error.detail());
}

}  // namespace dcsim::tools::scenario
