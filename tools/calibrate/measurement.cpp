#include "tools/calibrate/measurement.hpp"

#include <fstream>
#include <memory>
#include <optional>
#include <set>

#include "models/collective/collective_estimator.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"
#include "sim/units.hpp"
#include "tools/calibrate/nccl_tests_reader.hpp"
#include "tools/calibrate/training_log_reader.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/training_spec.hpp"

namespace dcsim::tools::calibrate {

using nlohmann::json;
namespace mc = models::collective;
namespace mw = models::workload;

namespace {

std::string gpus_on_nodes(int gpus, int nodes) {
  return std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") + " on " + std::to_string(nodes) + " node" +
         (nodes == 1 ? "" : "s");
}

Measurement nccl_tests_measurement(const std::string& text, const std::string& path, const std::string& node_preset,
                                   const models::ModelRegistries& registries) {
  const NcclTestsRun run = read_nccl_tests(text, path);
  if (!registries.node_presets.contains(node_preset)) {
    throw sim::InputError("--node: unknown node preset '" + node_preset +
                          "'; valid: " + registries.node_presets.names_joined());
  }
  const auto node = std::make_shared<models::hardware::NodeSpec>(registries.node_presets.get(node_preset).factory());
  const int per_host = run.ranks / run.hosts;
  if (run.hosts > 1 && per_host != node.get()->gpus) {
    throw sim::InputError(path + ": " + std::to_string(run.ranks) + " ranks on " + std::to_string(run.hosts) +
                          " hosts, " + std::to_string(per_host) + " per host; the node preset '" + node_preset +
                          "' has " + std::to_string(node->gpus) +
                          " GPUs (dcsim's collective model runs multi-node communicators on whole nodes; "
                          "choose the preset with --node)");
  }
  if (run.hosts == 1 && run.ranks > node->gpus) {
    throw sim::InputError(path + ": " + std::to_string(run.ranks) + " ranks on one host; the node preset '" +
                          node_preset + "' has " + std::to_string(node->gpus) + " GPUs (choose it with --node)");
  }
  auto system = std::make_shared<mc::CollectiveSystem>(
      mc::make_collective_system(*node, run.hosts, scenario::collective_fabric_params(*node), run.ranks));
  Measurement m;
  m.file = path;
  m.what = std::string(mc::op_name(run.op)) + ", " + gpus_on_nodes(run.ranks, run.hosts) + ", " +
           std::to_string(run.rows.size()) + " sizes (nccl-tests)";
  const mc::CollectiveOp op = run.op;
  const mc::CollectiveRegistry* collectives = &registries.collective_algorithms;
  for (const auto& row : run.rows) {
    const double bytes = row.bytes;
    m.points.push_back(
        {row.time_s, [system, op, bytes, collectives](const mw::SoftwareStack& stack) {
           return mc::estimate_collective(*collectives, op, bytes, *system, stack.collective_tuning()).time_s;
         }});
  }
  return m;
}

// Rewrites "<path>:/workload/training/0..." (the scenario the job was checked in) to where the
// user wrote it, "<path>:/training_run/job...".
std::string relocated(std::string message, const std::string& path) {
  const std::string from = path + ":/workload/training/0";
  if (message.rfind(from, 0) == 0) return path + ":/training_run/job" + message.substr(from.size());
  return message;
}

Measurement training_measurement(const json& doc, const std::string& path, const models::ModelRegistries& registries) {
  const json* run = doc.is_object() && doc.contains("training_run") ? &doc["training_run"] : nullptr;
  if (run == nullptr || !run->is_object()) {
    throw sim::InputError(path + ": expected {\"training_run\": {\"node\", \"job\", \"log\" or \"step_time\"}}");
  }
  const std::set<std::string> known{"node", "job", "log", "skip_iterations", "step_time", "source"};
  for (const auto& [key, value] : run->items()) {
    if (known.count(key) == 0) {
      throw sim::InputError(path + ":/training_run/" + key +
                            ": unknown key; valid: job, log, node, skip_iterations, source, step_time");
    }
  }
  if (!run->contains("job") || !(*run)["job"].is_object()) {
    throw sim::InputError(path + ":/training_run/job: expected the training job as a scenario writes it (an object)");
  }
  if (run->contains("node") && !(*run)["node"].is_string()) {
    throw sim::InputError(path + ":/training_run/node: expected a node preset name, got " + (*run)["node"].dump());
  }
  const std::string node_preset = run->value("node", std::string("hgx-h100"));
  if (run->contains("log") == run->contains("step_time")) {
    throw sim::InputError(path +
                          ":/training_run: expected exactly one of \"log\" (a training log) and \"step_time\" "
                          "(a published step, \"12.27 s\")");
  }
  // The job is checked as a scenario's /workload/training entry would be, on enough nodes.
  const json& job = (*run)["job"];
  const int nodes = job.contains("nodes") && job["nodes"].is_number_integer() ? job["nodes"].get<int>() : 1;
  json scenario_doc = {{"name", "calibrate"},
                       {"cluster", {{"nodes", std::max(1, nodes)}, {"node", {{"preset", node_preset}}}}},
                       {"workload", {{"training", json::array({job})}}}};
  scenario::Scenario s;
  try {
    s = scenario::load_scenario_json(scenario_doc, path, {}, std::nullopt, registries,
                                     scenario::ResourceLimits::for_this_machine());
  } catch (const sim::InputErrors& e) {
    std::vector<std::string> messages;
    for (const auto& message : e.messages()) messages.push_back(relocated(message, path));
    throw sim::InputErrors(std::move(messages));
  } catch (const sim::InputError& e) {
    throw sim::InputError(relocated(e.what(), path));
  }
  const auto spec = std::make_shared<mw::TrainingJobSpec>(s.cluster.training_jobs.at(0));
  const auto node = std::make_shared<models::hardware::NodeSpec>(s.cluster.node);

  Measurement m;
  m.file = path;
  double measured_s = 0.0;
  if (run->contains("step_time")) {
    const json& v = (*run)["step_time"];
    try {
      if (!v.is_string()) throw sim::InputError("not a string");
      measured_s = sim::parse_quantity(sim::QuantityKind::kDuration, v.get<std::string>());
    } catch (const sim::InputError&) {
      throw sim::InputError(path + ":/training_run/step_time: expected a duration (\"12.27 s\"), got " + v.dump());
    }
    if (!(measured_s > 0.0)) throw sim::InputError(path + ":/training_run/step_time: expected a positive duration");
    m.what = spec->job.name + " step, published";
  } else {
    const json& log = (*run)["log"];
    if (!log.is_string()) throw sim::InputError(path + ":/training_run/log: expected a file path");
    int skip = 1;
    if (run->contains("skip_iterations")) {
      const json& k = (*run)["skip_iterations"];
      if (!k.is_number_integer() || k.get<long long>() < 0 || k.get<long long>() > 1000000) {
        throw sim::InputError(path + ":/training_run/skip_iterations: expected an integer from 0 to 1000000, got " +
                              k.dump());
      }
      skip = k.get<int>();
    }
    const std::string log_path = scenario::beside(path, log.get<std::string>());
    std::ifstream in = scenario::open_data_file(log_path, log.get<std::string>(), path + ":/training_run/log");
    const StepTimes times = read_step_times(in, log_path);
    std::vector<double> seconds = times.seconds;
    if (times.format == "mlperf") {
      const double samples = spec->job.global_batch_sequences;
      if (!(samples > 0)) {
        throw sim::InputError(path +
                              ":/training_run/job/global_batch: an MLPerf log gives samples per "
                              "second; the job needs its global batch to turn them into steps");
      }
      for (const double t : times.samples_per_s) seconds.push_back(samples / t);
    }
    measured_s = steady_step_s(seconds, skip, log_path);
    m.what = spec->job.name + " step, " + times.format + " log, " + std::to_string(seconds.size()) + " iterations";
  }
  const mc::CollectiveRegistry* collectives = &registries.collective_algorithms;
  m.points.push_back({measured_s, [spec, node, collectives](const mw::SoftwareStack& stack) {
                        return mw::estimate_training_step(spec->job, *node, spec->fabric, *collectives, stack.kernels,
                                                          stack.collective_tuning())
                            .step_time_s;
                      }});
  return m;
}

}  // namespace

Measurement read_measurement(const std::string& path, const std::string& node_preset,
                             const models::ModelRegistries& registries) {
  const std::string text = scenario::read_json_file_text(path, "measurement file");
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    return training_measurement(scenario::parse_json_text(text, path), path, registries);
  }
  if (looks_like_nccl_tests(text)) return nccl_tests_measurement(text, path, node_preset, registries);
  throw sim::InputError(path +
                        ": not a measurement dcsim reads: expected nccl-tests output (its '# nThread' header and "
                        "rank lines) or a training run ({\"training_run\": {...}}, JSON)");
}

}  // namespace dcsim::tools::calibrate
