#include "tools/scenario/reliability_mapping.hpp"

#include <cmath>
#include <map>
#include <vector>

#include "models/reliability/llama3_faults.hpp"
#include "sim/error.hpp"
#include "tools/scenario/reliability_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace rel = models::reliability;

namespace {

// What the scenario has of each component; /reliability/links and switches replace the counts.
rel::Inventory inventory_of(const Scenario& s, const models::ModelRegistries& registries) {
  rel::Inventory inv;
  if (s.has_cluster) {
    inv.nodes = s.cluster.nodes;
    inv.gpus_per_node = s.cluster.node.gpus;
    inv.nics_per_node = s.cluster.node.compute_nics;
  } else {
    inv.nodes = 0;
  }
  if (s.fabric) {
    const auto size = registries.topologies.get(s.fabric->topology).factory.size(s.fabric->topology_config);
    inv.links = static_cast<std::int64_t>(size.cables);
    inv.switches = static_cast<std::int64_t>(size.switches);
  } else {
    inv.links = static_cast<std::int64_t>(std::floor(static_cast<double>(inv.nodes * inv.nics_per_node) *
                                                     rel::kLlama3CablesPerGpu));
    inv.switches = 0;
  }
  inv.zones = s.facility && !s.facility->zones.empty() ? static_cast<std::int64_t>(s.facility->zones.size()) : 1;
  // /storage is mapped after /reliability: its host count from the resolved document.
  if (s.resolved.contains("storage") && s.resolved["storage"].contains("hosts")) {
    inv.osd_hosts = s.resolved["storage"]["hosts"].get<std::int64_t>();
    if (s.resolved["storage"].contains("drives_per_host")) {
      inv.osds_per_host = s.resolved["storage"]["drives_per_host"].get<int>();
    }
  }
  return inv;
}

}  // namespace

rel::FaultModelConfig map_reliability_section(const json& r, const Scenario& scenario,
                                              const models::ModelRegistries& registries) {
  rel::FaultModelConfig out;
  out.inventory = inventory_of(scenario, registries);
  reliability_bindings().apply(r, out);
  if (out.preset == "llama3_405b") out.classes = rel::llama3_fault_classes(std::max(1, out.inventory.gpus_per_node));

  std::vector<std::string> errors;
  const auto error = [&](const std::string& pointer, const std::string& message) {
    errors.push_back(scenario.source + ":" + pointer + ": " + message);
  };
  std::map<std::string, std::string> seen;  // class name -> pointer of its first use
  const json& classes = r.at("classes");
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const json& c = classes[i];
    const std::string base = "/reliability/classes/" + std::to_string(i);
    const auto name = c.at("name").get<std::string>();
    // The name becomes a summary path (reliability/faults/NAME): no '/' or spaces.
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
        std::string::npos) {
      error(base + "/name", "expected a class name of letters, digits, '_', '-' and '.', got \"" + name + "\"");
      continue;
    }
    if (const auto [it, fresh] = seen.emplace(name, base + "/name"); !fresh) {
      error(base + "/name", "expected a unique class name, got \"" + name + "\" (also at " + it->second + ")");
      continue;
    }
    if (c.contains("rate_per_hour") && c.contains("mtbf")) {
      error(base + "/mtbf", "expected rate_per_hour or mtbf, not both (mtbf is 1 / rate_per_hour)");
      continue;
    }
    rel::FaultClass* target = nullptr;
    for (auto& existing : out.classes) {
      if (existing.name == name) target = &existing;
    }
    if (target == nullptr) {
      std::vector<std::string> missing;
      for (const char* key : {"component", "effect", "repair"}) {
        if (!c.contains(key)) missing.emplace_back(key);
      }
      if (!c.contains("rate_per_hour") && !c.contains("mtbf")) missing.emplace_back("rate_per_hour (or mtbf)");
      if (!missing.empty()) {
        std::string list;
        for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
        error(base, "class \"" + name + "\" is not in the preset \"" + out.preset + "\", so it needs " + list);
        continue;
      }
      out.classes.push_back({name, rel::ComponentKind::kGpu, 0.0, 1.0, {}, rel::FaultEffect::kNodeDown});
      target = &out.classes.back();
    }
    if (c.contains("component")) target->component = *rel::parse_component(c.at("component").get<std::string>());
    if (c.contains("effect")) target->effect = *rel::parse_effect(c.at("effect").get<std::string>());
    if (c.contains("rate_per_hour")) target->rate_per_hour = c.at("rate_per_hour").get<double>();
    if (c.contains("mtbf")) target->rate_per_hour = 3600.0 / c.at("mtbf").get<double>();
    if (c.contains("weibull_shape")) target->weibull_shape = c.at("weibull_shape").get<double>();
    if (c.contains("repair")) target->repair_s = distribution_from_resolved(c.at("repair"));
    if (c.contains("detection") || c.contains("diagnosis")) {
      // Effect first (above): the stage not given keeps the operations preset's for it.
      rel::RecoveryStages stages = target->recovery.value_or(rel::operations_stages(out.operations, target->effect));
      if (c.contains("detection")) stages.detection_s = distribution_from_resolved(c.at("detection"));
      if (c.contains("diagnosis")) stages.diagnosis_s = distribution_from_resolved(c.at("diagnosis"));
      target->recovery = stages;
    }
    if ((target->component == rel::ComponentKind::kOsdHost || target->component == rel::ComponentKind::kOsd) &&
        out.inventory.osd_hosts == 0) {
      error(base + "/component", std::string(rel::component_name(target->component)) +
                                     " classes fail parts of the shared store, and the scenario has no /storage");
      continue;
    }
    if (!rel::effect_applies_to(target->effect, target->component)) {
      error(base + (c.contains("effect") ? "/effect" : "/component"),
            "effect " + std::string(rel::effect_name(target->effect)) + " does not apply to component " +
                std::string(rel::component_name(target->component)) +
                " (node_down, job_crash and silent_data_corruption: gpu, node or nic; osd_host_down: osd_host; "
                "osd_down: osd; "
                "nic_down: nic; link_down: link; switch_down: switch; "
                "zone_cooling_loss: zone)");
    }
  }
  bool any_fault = false;
  for (const auto& c : out.classes) any_fault = any_fault || (c.rate_per_hour > 0 && out.scale > 0);
  if (any_fault && scenario.duration.is_max()) {
    error("/duration", "missing; a scenario with random faults (/reliability) needs a duration: faults never end on "
                       "their own, so the run would not either");
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  try {
    rel::validate(out);
  } catch (const sim::ConfigError& e) {
    throw sim::InternalError(scenario.source + ":/reliability: " + e.field() + ": " + e.detail() +
                             " after the section passed validation (this is a bug)");
  }
  return out;
}

void map_sdc_detection(Scenario& scenario) {
  const json& resolved = scenario.resolved;
  const json* section = resolved.contains("reliability") && resolved["reliability"].contains("sdc_detection")
                            ? &resolved["reliability"]["sdc_detection"]
                            : nullptr;
  std::string source_of_corruption;
  if (scenario.reliability) {
    for (const auto& c : scenario.reliability->classes) {
      if (c.effect == rel::FaultEffect::kSilentCorruption && c.rate_per_hour > 0 && scenario.reliability->scale > 0) {
        source_of_corruption = "fault class \"" + c.name + "\" (effect silent_data_corruption)";
        break;
      }
    }
  }
  for (const auto& f : scenario.node_faults) {
    if (source_of_corruption.empty() && f.kind == models::reliability::ScriptedNodeFault::Kind::kSilentCorruption) {
      source_of_corruption = "a scripted silent_data_corruption fault (/faults)";
    }
  }
  if (source_of_corruption.empty() && scenario.storage && scenario.storage->integrity.corruptions_per_pb > 0 &&
      !scenario.storage->integrity.verify) {
    source_of_corruption = "/storage/integrity (corruptions_per_pb without verify: jobs load corrupted checkpoints)";
  }
  if (section == nullptr) {
    if (!source_of_corruption.empty()) {
      throw sim::InputErrors({scenario.source + ":/reliability/sdc_detection: missing; " + source_of_corruption +
                              " corrupts jobs silently, and how their loss checks catch it decides what follows: "
                              "give {\"probability\": 0..1, \"latency_steps\": N}"});
    }
    return;
  }
  if (!scenario.has_cluster) {
    throw sim::InputErrors({scenario.source + ":/reliability/sdc_detection: given, but the scenario has no "
                                              "/cluster whose jobs it checks"});
  }
  models::cluster::SdcDetection d;
  d.probability = section->at("probability").get<double>();
  d.latency_steps = section->at("latency_steps").get<int>();
  scenario.cluster.sdc_detection = d;
}

}  // namespace dcsim::tools::scenario
