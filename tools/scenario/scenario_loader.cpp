#include "tools/scenario/scenario_loader.hpp"

#include "tools/scenario/software_spec.hpp"

#include "models/hardware/nvlink_domain.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/cloud_pool_spec.hpp"
#include "tools/scenario/cluster_spec.hpp"
#include "tools/scenario/faults_spec.hpp"

#include "tools/scenario/fabric_mapping.hpp"
#include "tools/scenario/facility_mapping.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/economics_mapping.hpp"
#include "tools/scenario/inference_mapping.hpp"
#include "tools/scenario/nvmeof_spec.hpp"
#include "tools/scenario/storage_spec.hpp"
#include "tools/scenario/uplink_mapping.hpp"
#include "tools/scenario/uplink_spec.hpp"
#include "tools/scenario/reliability_mapping.hpp"
#include "tools/scenario/run_resources.hpp"
#include "tools/scenario/spec_path.hpp"
#include "tools/scenario/trace_mapping.hpp"
#include "tools/scenario/training_spec.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace dcsim::tools::scenario {

using nlohmann::json;

namespace {

double si(const json& v) { return v.get<double>(); }
sim::Time duration_of(const json& v) { return sim::Time::from_seconds(v.get<double>()); }

std::string format_power(double w) {
  std::ostringstream out;
  out.precision(15);
  out << w << " W";
  return out.str();
}

// The node's figures not given in the scenario come from its preset, so that the resolved
// document states the full node that runs.
void fill_node_from_preset(json& node, const models::ModelRegistries& registries) {
  if (!node.contains("preset")) return;
  const auto* entry = registries.node_presets.find(node["preset"].get<std::string>());
  if (entry == nullptr) return;
  node_bindings(registries).fill_from(entry->factory(), node);
}

// The GPU of /cluster/node's preset; null without a cluster or with an unknown preset (reported
// elsewhere).
std::optional<models::hardware::GpuSpec> preset_gpu(const json& resolved, const models::ModelRegistries& registries) {
  const json* preset = find_at(resolved, "/cluster/node/preset");
  if (preset == nullptr || !preset->is_string()) return std::nullopt;
  const auto* entry = registries.node_presets.find(preset->get<std::string>());
  if (entry == nullptr) return std::nullopt;
  return entry->factory().gpu;
}

// Checks that relate several keys, which the per-field walk cannot see. Runs on the resolved
// document; parts that failed validation are absent or null there and are skipped.
void check_cross_field(const json& given, const json& resolved, ErrorList& errors) {
  // 100 years: a datacenter's life is 10 to 30 (the engine's clock would go on to 292). "9e18 ns"
  // (285 years) on a scenario with a 15 min facility tick ran for minutes to simulate nothing.
  if (const json* duration = find_at(resolved, "/duration"); duration != nullptr && duration->is_number()) {
    constexpr double kMaxDurationS = 100 * 365.25 * 86400;
    if (duration->get<double>() > kMaxDurationS) {
      const json* g = find_at(given, "/duration");
      errors.add("/duration", "expected at most 100 years (a site's life is 10 to 30), got " +
                                  (g != nullptr ? render_value(*g) : render_value(*duration)) + " (" +
                                  format_number(std::round(duration->get<double>() / (365.25 * 86400))) + " years)");
    }
  }

  if (const json* interval = find_at(resolved, "/outputs/telemetry_interval")) {
    const double s = interval->get<double>();
    if (s > 0 && s < 1e-6) {
      const json* g = find_at(given, "/outputs/telemetry_interval");
      errors.add("/outputs/telemetry_interval",
                 "expected 0 s (record changes only) or a duration of at least 1 us, got " +
                     (g != nullptr ? g->dump() : std::to_string(s) + " s"));
    }
  }

  // A profile replaces gpu_utilization: both given would leave one silently ignored.
  if (const json* jobs = find_at(given, "/workload/jobs"); jobs != nullptr && jobs->is_array()) {
    for (std::size_t i = 0; i < jobs->size(); ++i) {
      const json& j = (*jobs)[i];
      if (!j.is_object() || !j.contains("gpu_utilization") || !j.contains("utilization_profile")) continue;
      if (j["utilization_profile"].is_array() && !j["utilization_profile"].empty()) {
        errors.add("/workload/jobs/" + std::to_string(i) + "/gpu_utilization",
                   "expected either gpu_utilization or a utilization_profile, not both, got " +
                       render_value(j["gpu_utilization"]));
      }
    }
  }

  if (const json* node = find_at(resolved, "/cluster/node")) {
    for (const auto& [idle, max] : {std::pair{"gpu_idle_power", "gpu_max_power"},
                                    std::pair{"other_idle_power", "other_max_power"}}) {
      if (!node->contains(idle) || !node->contains(max)) continue;
      if (si(node->at(idle)) > si(node->at(max))) {
        const std::string ptr = std::string("/cluster/node/") + idle;
        const json* g = find_at(given, ptr);
        errors.add(ptr, std::string("expected at most ") + max + " (" +
                            format_power(si(node->at(max))) + "), got " +
                            render_value(g ? *g : node->at(idle)));
      }
    }
    // A nameplate below what the node draws at full load cannot be (a preset's rating with more
    // or hungrier GPUs than the preset's).
    if (node->contains("rated_power") && node->contains("gpus") && node->contains("gpu_max_power") &&
        node->contains("other_max_power") && node->at("gpus").is_number()) {
      const double rated_w = si(node->at("rated_power"));
      const double draw_w =
          node->at("gpus").get<double>() * si(node->at("gpu_max_power")) + si(node->at("other_max_power"));
      if (rated_w > 0.0 && rated_w < draw_w - 0.5) {
        const json* g = find_at(given, "/cluster/node/rated_power");
        errors.add("/cluster/node/rated_power",
                   "expected at least the node's full-load draw, gpus x gpu_max_power + other_max_power (" +
                       format_power(draw_w) + "), or 0 W for that draw, got " +
                       (g ? render_value(*g) : format_power(rated_w) + " (from the preset)"));
      }
    }
  }

  if (!given.contains("cluster")) {
    if (!given.contains("fabric")) {
      errors.add("/cluster", "missing required key; a scenario needs /cluster (compute nodes) or /fabric "
                             "(a network), got neither");
    }
    for (const char* list : {"/workload/jobs", "/workload/generators", "/workload/training", "/workload/traces"}) {
      const json* l = find_at(resolved, list);
      if (l && l->is_array() && !l->empty()) {
        errors.add(list, "expected no jobs without a /cluster to run them, got " + std::to_string(l->size()));
      }
    }
  }

  const json* nodes = find_at(resolved, "/cluster/nodes");
  const std::int64_t cluster_nodes = nodes ? nodes->get<std::int64_t>() : -1;
  const auto check_fits = [&](const json& n, const std::string& ptr) {
    if (cluster_nodes < 0 || n.is_null()) return;
    if (n.get<std::int64_t>() > cluster_nodes) {
      errors.add(ptr, "expected at most " + std::to_string(cluster_nodes) +
                          " nodes (the cluster's size, /cluster/nodes), got " + n.dump());
    }
  };

  // Job names: explicit ones, and the NAME-i names that generators give their jobs.
  std::map<std::string, std::string> job_names;  // name -> pointer of its first use
  std::map<std::string, std::string> generator_names;
  const json* jobs = find_at(resolved, "/workload/jobs");
  const json* gens = find_at(resolved, "/workload/generators");
  if (jobs && jobs->is_array()) {
    for (std::size_t i = 0; i < jobs->size(); ++i) {
      const json& job = (*jobs)[i];
      if (!job.is_object()) continue;
      const std::string base = "/workload/jobs/" + std::to_string(i);
      if (job.contains("nodes")) check_fits(job["nodes"], base + "/nodes");
      if (!job.contains("name")) continue;
      const auto name = job["name"].get<std::string>();
      const auto [it, fresh] = job_names.emplace(name, base + "/name");
      if (!fresh) {
        errors.add(base + "/name", "expected a unique job name, got " + job["name"].dump() +
                                       " (also at " + it->second + ")");
      }
    }
  }
  if (gens && gens->is_array()) {
    for (std::size_t i = 0; i < gens->size(); ++i) {
      const json& gen = (*gens)[i];
      if (!gen.is_object()) continue;
      const std::string base = "/workload/generators/" + std::to_string(i);
      if (gen.contains("nodes") && gen["nodes"].is_array()) {
        for (std::size_t k = 0; k < gen["nodes"].size(); ++k) {
          check_fits(gen["nodes"][k], base + "/nodes/" + std::to_string(k));
        }
      }
      if (!gen.contains("name")) continue;
      const auto name = gen["name"].get<std::string>();
      const auto [it, fresh] = generator_names.emplace(name, base + "/name");
      if (!fresh) {
        errors.add(base + "/name", "expected a unique generator name, got " +
                                       gen["name"].dump() + " (also at " + it->second + ")");
        continue;
      }
      if (!gen.contains("count")) continue;
      // A job named like a generated one ("burst-3") would make two jobs share a name.
      const auto count = gen["count"].get<std::int64_t>();
      for (const auto& [job_name, job_ptr] : job_names) {
        if (!generated_name(job_name, name, count)) continue;
        errors.add(job_ptr, "expected a job name unlike those generated by " + base +
                                " (" + name + "-0 .. " + name + "-" +
                                std::to_string(count - 1) + "), got \"" + job_name + "\"");
      }
    }
  }
}

// Resolved (and valid) document -> model configs. Anything missing here was validated away, so
// a json exception from this function is a bug in the spec, not bad input.
void map_to_config(const json& r, const models::ModelRegistries& registries, Scenario& out) {
  out.name = r.at("name").get<std::string>();
  out.description = r.value("description", std::string());
  out.seed = r.at("seed").get<std::uint64_t>();

  auto& c = out.cluster;
  out.duration = r.contains("duration") ? duration_of(r.at("duration")) : sim::Time::max();
  out.has_cluster = r.contains("cluster");
  out.software = map_software_section(out.given, r, out.source, registries);
  if (!out.has_cluster) return;  // fabric-only: check_cross_field made sure there are no jobs
  // A training job's own `software` replaces /software for it.
  std::vector<models::workload::SoftwareStack> job_software;
  std::vector<std::string> messages;
  if (const json* training = find_at(r, "/workload/training"); training != nullptr && training->is_array()) {
    for (std::size_t i = 0; i < training->size(); ++i) {
      const std::string at = "/workload/training/" + std::to_string(i) + "/software";
      job_software.push_back(out.software);
      if (!(*training)[i].contains("software")) continue;
      try {
        job_software.back() =
            map_software_object(find_at(out.given, at), (*training)[i].at("software"), at, out.source, registries);
      } catch (const sim::InputErrors& e) {
        messages.insert(messages.end(), e.messages().begin(), e.messages().end());
      }
    }
  }
  if (!messages.empty()) throw sim::InputErrors(std::move(messages));
  out.plan_searches = map_cluster_sections(r, out.given, registries, job_software, c);
  c.seed = out.seed;
  c.duration = out.duration;
  // Last: trace jobs are checked against every name above.
  map_job_traces(r, out.source, c, out.traces);
}

}  // namespace

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides,
                            std::optional<std::uint64_t> seed_override,
                            const models::ModelRegistries& registries, const ResourceLimits& limits) {
  return load_scenario_json(parse_json_text(read_json_file_text(path, "scenario file"), path), path, set_overrides,
                            seed_override, registries, limits);
}

Scenario load_scenario_json(nlohmann::json doc, const std::string& source,
                            const std::vector<std::string>& set_overrides,
                            std::optional<std::uint64_t> seed_override,
                            const models::ModelRegistries& registries, const ResourceLimits& limits) {
  return load_scenario_json(std::move(doc), source, set_overrides, seed_override, registries, limits,
                            scenario_spec(registries));
}

namespace {

// With a /fabric, training jobs run in flow mode (models/datacenter): every transfer between nodes
// is a flow on the fabric, and the NVLink between the trays of a multi-node NVLink domain (GB200
// NVL72) is not a fabric element, so the step graph refuses such a job when it starts. Say so
// here, at the job's pointer, so that `validate` passes only what `run` starts.
void refuse_flow_mode_across_nvlink_domain(const Scenario& out) {
  if (!out.fabric || !out.has_cluster || models::hardware::nodes_per_nvlink_domain(out.cluster.node) <= 1) return;
  const json* training = find_at(out.resolved, "/workload/training");
  if (training == nullptr || !training->is_array()) return;
  std::vector<std::string> messages;
  for (std::size_t i = 0; i < training->size(); ++i) {
    const json& job = (*training)[i];
    const int nodes = job.contains("nodes") && job["nodes"].is_number_integer() ? job["nodes"].get<int>() : 1;
    if (nodes <= 1) continue;
    messages.push_back(located(out.source, "/workload/training/" + std::to_string(i) + "/nodes",
                               "a training job of " + std::to_string(nodes) +
                                   " nodes on a fabric runs in flow mode, which does not model an "
                                   "NVLink domain of " +
                                   std::to_string(models::hardware::nodes_per_nvlink_domain(out.cluster.node)) +
                                   " nodes (" + std::to_string(models::hardware::nvlink_domain(out.cluster.node)) +
                                   " GPUs): run it in the closed form (no /fabric section) or on one node"));
  }
  if (!messages.empty()) throw sim::InputErrors(std::move(messages));
}

// Flow mode lays an expert-parallel group that leaves the node on whole nodes whose GPUs share
// one NVLink domain (the step graph's hierarchical all-to-all, step_graph.hpp); a node of several
// smaller domains would need PCIe or the NICs between them, which the step graph does not model.
void refuse_flow_mode_ep_on_partial_nodes(const Scenario& out) {
  const auto& node = out.cluster.node;
  if (!out.fabric || !out.has_cluster || models::hardware::nvlink_domain(node) == node.gpus) return;
  // The mapped jobs, the first in /workload/training's order (trace jobs follow): an automatic
  // plan's ep is checked too.
  const json* training = find_at(out.resolved, "/workload/training");
  if (training == nullptr || !training->is_array()) return;
  const auto& jobs = out.cluster.training_jobs;
  std::vector<std::string> messages;
  for (std::size_t i = 0; i < std::min(jobs.size(), training->size()); ++i) {
    const int ep = jobs[i].job.parallelism.ep;
    if (ep <= node.gpus) continue;
    messages.push_back(
        located(out.source, "/workload/training/" + std::to_string(i) + "/parallelism/ep",
                "expert parallelism " + std::to_string(ep) + " spans nodes whose " + std::to_string(node.gpus) +
                    " GPUs form NVLink domains of " + std::to_string(models::hardware::nvlink_domain(node)) +
                    ": flow mode lays EP groups on nodes of one domain; use ep <= " + std::to_string(node.gpus) +
                    " or the closed form (no /fabric section)"));
  }
  if (!messages.empty()) throw sim::InputErrors(std::move(messages));
}

// On a fabric of P planes every NIC has a port on each (network/planes.hpp) and a flow's channel
// picks its host port (network/routing.hpp): training jobs in flow mode run NICs x P channels per
// node pair, so that every plane carries their flows, as NCCL's channels use both ports of an
// HPN NIC (with one channel per NIC they would all leave on plane 0 at half the NICs' rate).
void spread_training_flows_over_planes(Scenario& out) {
  if (!out.fabric || !out.has_cluster || out.fabric->topology_config.planes <= 1) return;
  const int ports = out.fabric->topology_config.nics_per_node * out.fabric->topology_config.planes;
  for (auto& job : out.cluster.training_jobs) {
    if (job.graph.flows_per_node_pair == 0) job.graph.flows_per_node_pair = ports;
  }
}

}  // namespace

Scenario load_scenario_json(nlohmann::json doc, const std::string& source,
                            const std::vector<std::string>& set_overrides,
                            std::optional<std::uint64_t> seed_override,
                            const models::ModelRegistries& registries, const ResourceLimits& limits,
                            const FieldSpec& spec) {
  for (const auto& s : set_overrides) {
    // A removal that finds nothing leaves the default in place: fine for a key of the format, a
    // typo otherwise.
    if (apply_override(doc, s)) continue;
    const std::string why = path_problem(spec, s.substr(0, s.find('=')));
    if (!why.empty()) throw sim::InputError("--set " + s + ": nothing to remove: " + why);
  }
  if (seed_override && doc.is_object()) doc["seed"] = *seed_override;

  Scenario out;
  out.source = source;
  out.overrides = set_overrides;
  if (seed_override) out.overrides.push_back("seed=" + std::to_string(*seed_override));
  // Before anything reads the document, so pointers and `given` use today's format.
  for (const auto& notice : migrate_legacy_faults(doc)) out.notices.push_back(source + ": " + notice);
  for (const auto& notice : migrate_legacy_ports(doc)) out.notices.push_back(source + ": " + notice);
  out.given = doc;

  ErrorList errors;
  if (!doc.is_object()) {
    errors.add("", "expected a scenario object {\"name\": ..., \"cluster\": ...}, got " +
                       render_value(doc));
  } else {
    out.resolved = resolve_value(spec, doc, "", errors);
    if (out.resolved.contains(json::json_pointer("/cluster/node"))) {
      fill_node_from_preset(out.resolved["cluster"]["node"], registries);
    }
    if (out.resolved.contains(json::json_pointer("/facility/throttle"))) {
      const auto gpu = preset_gpu(out.resolved, registries);
      fill_throttle_from_gpu(out.resolved["facility"]["throttle"], gpu ? &*gpu : nullptr);
    }
    check_cross_field(doc, out.resolved, errors);
    if (const json* scheduler = find_at(out.resolved, "/policies/scheduler"); scheduler && scheduler->is_string()) {
      check_params_of_entry(find_at(doc, "/policies/scheduler_params"), "/policies/scheduler_params", "scheduler",
                            scheduler->get<std::string>(), entry_params(registries.schedulers), errors);
    }
    if (const json* failover = find_at(out.resolved, "/policies/failover"); failover && failover->is_string()) {
      check_params_of_entry(find_at(doc, "/policies/failover_params"), "/policies/failover_params",
                            "failover policy", failover->get<std::string>(), entry_params(registries.failover_policies),
                            errors);
    }
    if (const json* control = find_at(out.resolved, "/facility/cooling/control"); control && control->is_string()) {
      check_params_of_entry(find_at(doc, "/facility/cooling/control_params"), "/facility/cooling/control_params",
                            "cooling control", control->get<std::string>(), entry_params(registries.cooling_controls),
                            errors);
    }
    if (const json* capping = find_at(out.resolved, "/facility/power_capping"); capping && capping->is_string()) {
      check_params_of_entry(find_at(doc, "/facility/power_capping_params"), "/facility/power_capping_params",
                            "power capping", capping->get<std::string>(), entry_params(registries.power_capping),
                            errors);
    }
    check_cloud_pool_cross_field(doc, out.resolved, registries, errors);
    check_training_cross_field(out.resolved, errors);
    check_trace_cross_field(out.resolved, errors);
    check_faults_cross_field(doc, out.resolved, errors);
  }
  if (!errors.empty()) {
    std::vector<std::string> messages;
    for (const auto& e : errors.errors()) messages.push_back(located(source, e.pointer, e.message));
    throw sim::InputErrors(std::move(messages));
  }

  try {
    map_to_config(out.resolved, registries, out);
    record_searched_plans(out.cluster, out.plan_searches, out.resolved);
  } catch (const sim::ConfigError& e) {
    throw cluster_config_error(out, e, registries);
  }
  map_fabric_sections(out.resolved, registries, limits, out);
  refuse_flow_mode_across_nvlink_domain(out);
  refuse_flow_mode_ep_on_partial_nodes(out);
  spread_training_flows_over_planes(out);
  map_frontend_section(out.resolved, registries, limits, out);
  if (out.resolved.contains("facility")) {
    out.facility = map_facility_section(out.resolved["facility"], source, registries,
                                        out.has_cluster ? &out.cluster.node : nullptr, out.resolved["faults"]);
  }
  out.node_faults = map_node_faults(out.resolved["faults"], out.has_cluster ? out.cluster.nodes : 0, source);
  if (out.facility && (out.fabric || out.frontend)) {
    count_fabric_switches(*out.facility, out.fabric, out.frontend, registries, source);
  }
  if (out.resolved.contains("reliability")) {
    out.reliability = map_reliability_section(out.resolved["reliability"], out, registries);
  }
  if (out.resolved.contains("uplink")) {
    out.uplink = map_uplink_section(out.resolved["uplink"], out);
  }
  out.storage = map_storage_section(out.resolved.contains("storage") ? &out.resolved["storage"] : nullptr, out, limits);
  out.nvmeof = map_nvmeof_section(out.resolved.contains("nvmeof") ? &out.resolved["nvmeof"] : nullptr, out);
  map_sdc_detection(out);
  if (out.resolved.contains("economics")) {
    out.economics = map_economics_section(out.resolved["economics"], out, registries);
  }
  if (out.resolved.contains("inference")) {
    out.inference = map_inference_section(out.resolved["inference"], out.given, out, registries);
  }
  check_run_resources(out, registries, limits);
  return out;
}

nlohmann::json scenario_schema(const models::ModelRegistries& registries) {
  json schema = field_schema(scenario_spec(registries));
  json out = {
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"$id", "https://dcsim.dev/schemas/scenario.json"},
      {"title", "dcsim scenario"},
  };
  out.update(schema);
  out["description"] =
      "A dcsim scenario file. Generated from the scenario spec (tools/scenario/scenario_spec.cpp) "
      "by `dcsim schema`; do not edit. Ranges on quantities (strings with units) and checks "
      "across keys are enforced by `dcsim validate`, not by this schema.";
  return out;
}

std::string scenario_reference_markdown(const models::ModelRegistries& registries) {
  return reference_table_markdown(scenario_spec(registries));
}

sim::InputError cluster_config_error(const Scenario& s, const sim::ConfigError& error,
                                     const models::ModelRegistries& registries) {
  const auto at = cluster_pointer(error.field(), registries, s.resolved);
  if (!at) return sim::InputError(s.source + ": " + error.field() + ": " + error.detail());
  return config_error_at(s.source, *at, error, &s.resolved);
}

}  // namespace dcsim::tools::scenario
