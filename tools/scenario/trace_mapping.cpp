#include "tools/scenario/trace_mapping.hpp"

#include <map>
#include <unordered_map>

#include "sim/error.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/job_trace_import.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

namespace {

const json* list_at(const json& doc, const char* pointer) {
  const json::json_pointer p(pointer);
  return doc.contains(p) && doc.at(p).is_array() ? &doc.at(p) : nullptr;
}

// How each format names the row's fields that the cluster checks, for messages.
struct FieldNames {
  const char* nodes;
  const char* gpus;
};
FieldNames field_names(JobTraceFormat format) {
  switch (format) {
    case JobTraceFormat::kSwf: return {"nodes (processors / processors_per_node)", "GPUs per node"};
    case JobTraceFormat::kAlibabaOpenb: return {"nodes", "column num_gpu"};
    case JobTraceFormat::kCsv: return {"column nodes", "column gpus_per_node"};
  }
  return {"nodes", "GPUs per node"};
}

}  // namespace

bool generated_name(const std::string& job, const std::string& generator, std::int64_t count) {
  if (job.size() <= generator.size() + 1 || job.compare(0, generator.size(), generator) != 0 ||
      job[generator.size()] != '-') {
    return false;
  }
  const std::string index = job.substr(generator.size() + 1);
  if (index.find_first_not_of("0123456789") != std::string::npos || (index.size() > 1 && index[0] == '0') ||
      index.size() > 18) {
    return false;
  }
  return std::stoll(index) < count;
}

void check_trace_cross_field(const json& resolved, ErrorList& errors) {
  const json* traces = list_at(resolved, "/workload/traces");
  if (traces == nullptr) return;
  std::map<std::string, std::string> generators;  // name -> pointer
  if (const json* gens = list_at(resolved, "/workload/generators")) {
    for (std::size_t i = 0; i < gens->size(); ++i) {
      const json& g = (*gens)[i];
      if (g.is_object() && g.contains("name") && g["name"].is_string()) {
        generators.emplace(g["name"].get<std::string>(), "/workload/generators/" + std::to_string(i) + "/name");
      }
    }
  }
  std::map<std::string, std::string> names;
  for (std::size_t i = 0; i < traces->size(); ++i) {
    const json& t = (*traces)[i];
    if (!t.is_object()) continue;
    const std::string base = "/workload/traces/" + std::to_string(i);
    if (t.contains("name") && t["name"].is_string()) {
      const auto name = t["name"].get<std::string>();
      const auto [it, fresh] = names.emplace(name, base + "/name");
      if (!fresh) {
        errors.add(base + "/name", "expected a unique trace name, got " + t["name"].dump() + " (also at " +
                                       it->second + ")");
      } else if (const auto g = generators.find(name); g != generators.end()) {
        errors.add(base + "/name", "expected a trace name unlike the generators' (both name their jobs NAME-<id>), "
                                   "got " + t["name"].dump() + " (also at " + g->second + ")");
      }
    }
    if (!t.contains("format") || !t["format"].is_string()) continue;
    const auto format = t["format"].get<std::string>();
    if (format != "swf" && t.contains("processors_per_node")) {
      errors.add(base + "/processors_per_node", "expected no processors_per_node for format \"" + format +
                                                    "\" (it applies to swf only), got " +
                                                    t["processors_per_node"].dump());
    }
    if (format == "alibaba_openb" && t.contains("gpu_utilization")) {
      errors.add(base + "/gpu_utilization",
                 "expected no gpu_utilization for format \"alibaba_openb\" (each pod's gpu_milli gives it), got " +
                     t["gpu_utilization"].dump());
    }
  }
}

void map_job_traces(const json& r, const std::string& source, models::cluster::ClusterConfig& cluster,
                    std::vector<TraceReport>& reports) {
  const json* traces = list_at(r, "/workload/traces");
  if (traces == nullptr || traces->empty()) return;

  // Every job name taken so far -> where: places[i] and, for trace jobs, the line (0 for a
  // pointer). Strings are built only for a message: a trace can hold millions of jobs.
  std::vector<std::string> places;
  std::unordered_map<std::string, std::pair<std::size_t, std::size_t>> taken;
  for (const char* list : {"/workload/jobs", "/workload/training"}) {
    if (const json* jobs = list_at(r, list)) {
      for (std::size_t i = 0; i < jobs->size(); ++i) {
        places.push_back(std::string(list) + "/" + std::to_string(i) + "/name");
        taken.emplace((*jobs)[i].at("name").get<std::string>(), std::pair{places.size() - 1, std::size_t{0}});
      }
    }
  }
  const auto place = [&places](std::pair<std::size_t, std::size_t> where) {
    return where.second == 0 ? places[where.first] : places[where.first] + ":" + std::to_string(where.second);
  };
  const json* gens = list_at(r, "/workload/generators");

  for (std::size_t t = 0; t < traces->size(); ++t) {
    const json& tr = (*traces)[t];
    JobTraceOptions options;
    options.format = job_trace_format(tr.at("format").get<std::string>());
    options.name = tr.at("name").get<std::string>();
    if (tr.contains("limit")) options.limit = tr.at("limit").get<std::size_t>();
    options.start = sim::Time::from_seconds(tr.at("start").get<double>());
    options.time_scale = tr.at("time_scale").get<double>();
    if (tr.contains("processors_per_node")) options.processors_per_node = tr.at("processors_per_node").get<int>();
    if (tr.contains("gpu_utilization")) options.gpu_utilization = tr.at("gpu_utilization").get<double>();
    const std::string file = beside(source, tr.at("path").get<std::string>());
    JobTrace trace = import_job_trace(file, file, options, source + ":/workload/traces/" + std::to_string(t) + "/path");

    const FieldNames fields = field_names(options.format);
    places.push_back(file);
    taken.reserve(taken.size() + trace.jobs.size());
    // Generator names and counts, read once rather than per job.
    std::vector<std::pair<std::string, std::int64_t>> generators;
    if (gens != nullptr) {
      for (const json& g : *gens) generators.emplace_back(g.at("name").get<std::string>(), g.at("count").get<std::int64_t>());
    }
    for (std::size_t k = 0; k < trace.jobs.size(); ++k) {
      const auto& job = trace.jobs[k];
      const auto at = [&] { return file + ":" + std::to_string(trace.lines[k]) + ": "; };
      if (job.nodes > cluster.nodes) {
        throw sim::InputError(at() + fields.nodes + " " + std::to_string(job.nodes) + ": expected at most " +
                              std::to_string(cluster.nodes) + " (the cluster's size, /cluster/nodes)");
      }
      if (job.gpus_per_node > cluster.node.gpus) {
        throw sim::InputError(at() + fields.gpus + " " + std::to_string(job.gpus_per_node) + ": expected at most " +
                              std::to_string(cluster.node.gpus) + " (the GPUs of one node, /cluster/node/gpus)");
      }
      for (std::size_t g = 0; g < generators.size(); ++g) {
        if (generated_name(job.name, generators[g].first, generators[g].second)) {
          throw sim::InputError(at() + "job name \"" + job.name + "\": expected a name unique in the scenario, got "
                                "one that /workload/generators/" + std::to_string(g) + " also gives a job");
        }
      }
      const auto [it, fresh] = taken.emplace(job.name, std::pair{places.size() - 1, trace.lines[k]});
      if (!fresh) {
        throw sim::InputError(at() + "job name \"" + job.name + "\": expected a name unique in the scenario, got one "
                              "also at " + place(it->second));
      }
    }
    reports.push_back({options.name, file, trace.describe()});
    cluster.trace_jobs.insert(cluster.trace_jobs.end(), std::make_move_iterator(trace.jobs.begin()),
                              std::make_move_iterator(trace.jobs.end()));
  }
}

}  // namespace dcsim::tools::scenario
