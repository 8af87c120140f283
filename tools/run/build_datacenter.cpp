#include "tools/run/build_datacenter.hpp"

#include <string>

#include "sim/discard_trace_sink.hpp"
#include "sim/error.hpp"
#include "tools/scenario/cluster_spec.hpp"
#include "tools/scenario/economics_spec.hpp"
#include "tools/scenario/fabric_mapping.hpp"
#include "tools/scenario/facility_mapping.hpp"
#include "tools/scenario/faults_spec.hpp"
#include "tools/scenario/inference_spec.hpp"
#include "tools/scenario/nvmeof_spec.hpp"
#include "tools/scenario/reliability_spec.hpp"
#include "tools/scenario/storage_spec.hpp"
#include "tools/scenario/uplink_spec.hpp"

namespace dcsim::tools::run {

namespace dc = models::datacenter;

namespace {

models::network::FabricRunConfig network_config(const scenario::FabricScenario& network) {
  models::network::FabricRunConfig config;
  config.topology = network.topology;
  config.topology_config = network.topology_config;
  config.options = network.options;
  config.flow_table = network.flow_table;
  return config;
}

}  // namespace

dc::DatacenterConfig datacenter_config(const scenario::Scenario& scenario) {
  dc::DatacenterConfig config;
  config.seed = scenario.seed;
  config.duration = scenario.duration;
  if (scenario.has_cluster) config.cluster = scenario.cluster;
  if (config.cluster && scenario.fabric && scenario.fabric->training_sampled) {
    config.cluster->training_sample_every = scenario.fabric->training_sample_every;
  }
  if (scenario.fabric) {
    models::network::FabricRunConfig fabric = network_config(*scenario.fabric);
    fabric.faults = scenario.fabric->faults;
    if (scenario.traffic) fabric.flows = scenario.traffic->records;
    config.fabric = std::move(fabric);
  }
  if (scenario.frontend) {
    config.frontend = network_config(*scenario.frontend);
    config.frontend->name = "frontend";
  }
  config.facility = scenario.facility;
  config.reliability = scenario.reliability;
  config.node_faults = scenario.node_faults;
  config.uplink = scenario.uplink;
  config.economics = scenario.economics;
  config.inference = scenario.inference;
  config.storage = scenario.storage;
  config.nvmeof = scenario.nvmeof;
  return config;
}

namespace {

// The pointer of the key bound to `field` of section `part`, for the sections declared as
// bindings (tools/scenario/binding.hpp).
std::optional<std::string> bound_pointer(const std::string& part, const std::string& field,
                                         const models::ModelRegistries& registries, const nlohmann::json& resolved) {
  if (part == "storage") return scenario::storage_bindings().pointer_of(field, "/storage");
  if (part == "nvmeof") return scenario::nvmeof_bindings().pointer_of(field, "/nvmeof", &resolved);
  if (part == "inference") return scenario::inference_bindings(registries).pointer_of(field, "/inference");
  if (part == "uplink") return scenario::uplink_bindings().pointer_of(field, "/uplink");
  if (part == "reliability") return scenario::reliability_bindings().pointer_of(field, "/reliability");
  if (part == "economics") return scenario::economics_bindings(registries).pointer_of(field, "/economics", &resolved);
  return std::nullopt;
}

sim::InputError scenario_error(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                               const dc::DatacenterConfigError& e) {
  const std::string& part = e.part();
  if (part == "fabric" && scenario.fabric && !e.field().empty()) {
    return sim::InputError(scenario::fabric_error(*scenario.fabric, registries, scenario.source, e));
  }
  if (part == "frontend" && scenario.frontend && !e.field().empty()) {
    return sim::InputError(scenario::fabric_error(*scenario.frontend, registries, scenario.source, e));
  }
  if (part == "facility" && !e.field().empty()) {
    return scenario::facility_error(scenario.source, scenario.resolved, registries, e);
  }
  if (!e.field().empty()) {
    std::optional<std::string> pointer;
    if (scenario.resolved.contains(part))
      pointer = bound_pointer(part, e.field(), registries, scenario.resolved.at(part));
    // What a part holds of another section: its share of /faults, its training jobs' keys.
    if (part == "cluster") pointer = scenario::cluster_pointer(e.field(), registries, scenario.resolved);
    if (!pointer && part == "storage" && scenario.resolved.contains("faults")) {
      pointer = scenario::part_fault_pointer(e.field(), scenario.resolved.at("faults"), scenario::FaultTarget::kStore);
    }
    if (!pointer && e.field().starts_with("training[")) {
      pointer = scenario::cluster_pointer(e.field(), registries, scenario.resolved);
    }
    if (pointer) return scenario::config_error_at(scenario.source, *pointer, e, &scenario.resolved);
  }
  // A field no key feeds (the model's own derived value): the section's pointer, the field in
  // words.
  const std::string section = "/" + part;
  return sim::InputError(scenario.source + ":" + section + ": " + (e.field().empty() ? "" : e.field() + ": ") +
                         e.detail());
}

}  // namespace

std::unique_ptr<dc::Datacenter> build_datacenter(const scenario::Scenario& scenario,
                                                 const models::ModelRegistries& registries, sim::Simulator& simulator,
                                                 sim::TraceSink& sink) {
  try {
    return std::make_unique<dc::Datacenter>(datacenter_config(scenario), registries, simulator, sink);
  } catch (const dc::DatacenterConfigError& e) {
    throw scenario_error(scenario, registries, e);
  }
}

void check_models_build(const scenario::Scenario& scenario, const models::ModelRegistries& registries) {
  sim::Simulator simulator;
  sim::DiscardTraceSink sink;
  auto datacenter = build_datacenter(scenario, registries, simulator, sink);
  datacenter->start();
}

}  // namespace dcsim::tools::run
