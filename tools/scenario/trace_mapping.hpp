#pragma once
// /workload/traces: job traces replayed as jobs (docs/scenarios.md, "Job traces"). Each entry names a file
// and its format (job_trace_import.hpp reads it); the jobs, named TRACE-<id>, go to
// ClusterConfig::trace_jobs, summarised by statistics with no headline row. Every imported job is
// checked here against the cluster (nodes, GPUs per node) and against every other job name, with
// file:line messages, so the cluster model never sees a job it cannot place.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// What a trace gave, for `dcsim validate` and the run's headline.
struct TraceReport {
  std::string name;     // /workload/traces/*/name
  std::string file;     // the file read (relative paths resolved beside the scenario)
  std::string summary;  // JobTrace::describe(): jobs, rows, skipped rows by reason, beyond limit
};

// Whether `job` is a name generator `generator` of `count` jobs gives: NAME-0 .. NAME-(count-1).
bool generated_name(const std::string& job, const std::string& generator, std::int64_t count);

// Checks across keys, before any file is read: trace names unique and unlike generator names
// (their jobs share the NAME-<id> pattern); processors_per_node only for swf; gpu_utilization not
// for alibaba_openb (its gpu_milli column gives each pod's).
void check_trace_cross_field(const nlohmann::json& resolved, ErrorList& errors);

// Resolved /workload/traces -> cluster.trace_jobs (the cluster's nodes and node already mapped).
// `source` is the scenario file: relative trace paths are taken from its folder. InputError
// "<file>:<line>: ..." for a bad row, a job larger than the cluster or a job name already taken.
void map_job_traces(const nlohmann::json& resolved, const std::string& source,
                    models::cluster::ClusterConfig& cluster, std::vector<TraceReport>& reports);

}  // namespace dcsim::tools::scenario
