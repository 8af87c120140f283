// /workload/traces in scenarios: the keys reach the importer, paths resolve beside the scenario,
// jobs land in ClusterConfig::trace_jobs, and everything the loader checks (cluster fit, names,
// keys that do not apply to a format) fails with file:line or the JSON pointer.

#include <filesystem>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/resource_guard.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace fs = std::filesystem;
using namespace dcsim::tools::scenario;
using namespace dcsim::tools::scenario::testing;
using dcsim::sim::Time;
using nlohmann::json;

namespace {

// A folder of its own per test process, holding the scenario's data files.
fs::path folder() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("dcsim-traces-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// Loads `workload` on 8 nodes of 8 GPUs, as if from folder()/s.json.
Scenario load(const json& workload) {
  const json doc = {{"name", "t"},
                    {"cluster", {{"node", {{"preset", "hgx-h100"}, {"gpus", 8}}}, {"nodes", 8}}},
                    {"workload", workload}};
  return load_scenario_json(doc, (folder() / "s.json").string(), {}, std::nullopt, make_registries());
}

std::string src() { return (folder() / "s.json").string(); }

std::string messages(const json& workload) {
  try {
    load(workload);
  } catch (const dcsim::sim::InputErrors& e) {
    std::string out;
    for (const auto& m : e.messages()) out += m + "\n";
    return out;
  } catch (const dcsim::sim::InputError& e) {
    return std::string(e.what()) + "\n";
  }
  return "(loaded)\n";
}

json trace(const std::string& name, const std::string& format, const std::string& path) {
  return {{"name", name}, {"format", format}, {"path", path}};
}

}  // namespace

TEST_CASE("traces load into trace_jobs with their keys applied; relative paths beside the scenario",
          "[tools][scenario][traces]") {
  write_text(folder() / "jobs.csv", "name,arrival_s,work_s,nodes\na,100,60,2\nb,0,30,1\nc,50,10,8\n");
  json t = trace("mine", "csv", "jobs.csv");
  t["limit"] = 2;
  t["start"] = "1 h";
  t["time_scale"] = 0.1;
  t["gpu_utilization"] = 0.25;
  const Scenario s = load({{"traces", {t}}});
  // The two earliest rows are b (0 s) and c (50 s): arrivals 3600 + 0.1 x 0 and 3600 + 0.1 x 50 s.
  REQUIRE(s.cluster.trace_jobs.size() == 2);
  CHECK(s.cluster.jobs.empty());
  CHECK(s.cluster.trace_jobs[0].name == "mine-b");
  CHECK(s.cluster.trace_jobs[0].arrival == Time::from_seconds(3600));
  CHECK(s.cluster.trace_jobs[0].work == Time::from_seconds(3));
  CHECK(s.cluster.trace_jobs[0].gpu_utilization == 0.25);
  CHECK(s.cluster.trace_jobs[1].name == "mine-c");
  CHECK(s.cluster.trace_jobs[1].arrival == Time::from_seconds(3605));
  CHECK(s.cluster.trace_jobs[1].nodes == 8);
  REQUIRE(s.traces.size() == 1);
  CHECK(s.traces[0].name == "mine");
  CHECK(s.traces[0].file == (folder() / "jobs.csv").string());
  CHECK(s.traces[0].summary == "2 jobs of 3 rows; 0 skipped; 1 beyond the limit");
  // Defaults in the resolved document: start 0 s, time_scale 1; limit absent means every job.
  const Scenario d = load({{"traces", {trace("mine", "csv", "jobs.csv")}}});
  CHECK(d.resolved["workload"]["traces"][0]["start"] == 0.0);
  CHECK(d.resolved["workload"]["traces"][0]["time_scale"] == 1);
  CHECK(d.cluster.trace_jobs.size() == 3);
}

TEST_CASE("the shipped excerpt and SWF file load through a scenario", "[tools][scenario][traces]") {
  json swf = trace("hpc", "swf", (source_dir() / "tests/data/traces/synthetic.swf").string());
  swf["processors_per_node"] = 32;  // 128 processors -> 4 nodes, within the 8
  const json ali = trace("ali", "alibaba_openb", (source_dir() / "scenarios/data/alibaba-openb-excerpt.csv").string());
  const Scenario s = load({{"traces", {swf, ali}}});
  CHECK(s.cluster.trace_jobs.size() == 4 + 279);
  REQUIRE(s.traces.size() == 2);
  CHECK(s.traces[1].summary == "279 jobs of 300 rows; 21 skipped (21 never scheduled (pod_phase Pending or no "
                               "scheduled_time))");
}

TEST_CASE("a trace job larger than the cluster is refused at its file:line", "[tools][scenario][traces]") {
  write_text(folder() / "big.csv", "arrival_s,work_s,nodes,gpus_per_node\n0,1,8,8\n0,1,9,0\n");
  CHECK(messages({{"traces", {trace("big", "csv", "big.csv")}}}) ==
        (folder() / "big.csv").string() + ":3: column nodes 9: expected at most 8 (the cluster's size, /cluster/nodes)\n");
  write_text(folder() / "wide.csv", "arrival_s,work_s,gpus_per_node\n0,1,9\n");
  CHECK(messages({{"traces", {trace("wide", "csv", "wide.csv")}}}) ==
        (folder() / "wide.csv").string() +
            ":2: column gpus_per_node 9: expected at most 8 (the GPUs of one node, /cluster/node/gpus)\n");
  // SWF at one processor per node: job 1's 65 processors are 65 nodes.
  CHECK(messages({{"traces", {trace("hpc", "swf", (source_dir() / "tests/data/traces/synthetic.swf").string())}}}) ==
        (source_dir() / "tests/data/traces/synthetic.swf").string() +
            ":7: nodes (processors / processors_per_node) 65: expected at most 8 (the cluster's size, /cluster/nodes)\n");
}

TEST_CASE("trace names: unique, unlike generators, and their jobs unlike every other job", "[tools][scenario][traces]") {
  write_text(folder() / "two.csv", "name,arrival_s,work_s\n1,0,1\nx,0,1\n");
  const json gen = {{"name", "batch"},
                    {"count", 3},
                    {"interarrival", {{"kind", "fixed"}, {"value", "1 s"}}},
                    {"work", {{"kind", "fixed"}, {"value", "1 s"}}}};
  CHECK(messages({{"traces", {trace("a", "csv", "two.csv"), trace("a", "csv", "two.csv")}}}) ==
        src() + ":/workload/traces/1/name: expected a unique trace name, got \"a\" (also at /workload/traces/0/name)\n");
  CHECK(messages({{"generators", {gen}}, {"traces", {trace("batch", "csv", "two.csv")}}}) ==
        src() + ":/workload/traces/0/name: expected a trace name unlike the generators' (both name their jobs "
        "NAME-<id>), got \"batch\" (also at /workload/generators/0/name)\n");
  const std::string file = (folder() / "two.csv").string();
  // An explicit job named like a trace job.
  CHECK(messages({{"jobs", {{{"name", "a-x"}, {"work", "1 s"}}}}, {"traces", {trace("a", "csv", "two.csv")}}}) ==
        file + ":3: job name \"a-x\": expected a name unique in the scenario, got one also at /workload/jobs/0/name\n");
  // Traces "q" and "q-x" on the same rows: q-1, q-x, q-x-1, q-x-x are distinct.
  CHECK(messages({{"traces", {trace("q", "csv", "two.csv"), trace("q-x", "csv", "two.csv")}}}) == "(loaded)\n");
  // Generator "u-v" (count 3) names u-v-0 .. u-v-2: trace "u" with a row "v-2" meets it, "v-3" not.
  json gen_u = gen;
  gen_u["name"] = "u-v";
  write_text(folder() / "gen.csv", "name,arrival_s,work_s\nv-3,0,1\nv-2,0,1\n");
  CHECK(messages({{"generators", {gen_u}}, {"traces", {trace("u", "csv", "gen.csv")}}}) ==
        (folder() / "gen.csv").string() +
            ":3: job name \"u-v-2\": expected a name unique in the scenario, got one that /workload/generators/0 "
            "also gives a job\n");
  // Two traces whose jobs meet: "q" row "x-1" is q-x-1, as is "q-x" row 1.
  write_text(folder() / "meet.csv", "name,arrival_s,work_s\nx-1,0,1\n");
  CHECK(messages({{"traces", {trace("q", "csv", "meet.csv"), trace("q-x", "csv", "two.csv")}}}) ==
        file + ":2: job name \"q-x-1\": expected a name unique in the scenario, got one also at " +
            (folder() / "meet.csv").string() + ":2\n");
}

TEST_CASE("keys that do not apply to a trace's format are refused, not ignored", "[tools][scenario][traces]") {
  json csv = trace("a", "csv", "jobs.csv");
  csv["processors_per_node"] = 4;
  json ali = trace("b", "alibaba_openb", "pods.csv");
  ali["gpu_utilization"] = 0.5;
  CHECK(messages({{"traces", {csv, ali}}}) ==
        src() + ":/workload/traces/0/processors_per_node: expected no processors_per_node for format \"csv\" (it "
        "applies to swf only), got 4\n" +
        src() + ":/workload/traces/1/gpu_utilization: expected no gpu_utilization for format \"alibaba_openb\" (each "
        "pod's gpu_milli gives it), got 0.5\n");
  json bad = trace("c", "gwf", "x");
  bad["time_scale"] = 0;
  const std::string m = messages({{"traces", {bad}}});
  CHECK_THAT(m, Catch::Contains("s.json:/workload/traces/0/format: unknown job trace format"));
  CHECK_THAT(m, Catch::Contains("s.json:/workload/traces/0/time_scale: expected"));
}

TEST_CASE("a scenario naming a missing trace file or a directory is refused naming the key and the resolved path",
          "[tools][scenario][traces]") {
  // The key that named the file came first only since issue 36 (a device or a directory was
  // refused without it).
  const std::string key = (folder() / "s.json").string() + ":/workload/traces/0/path: ";
  CHECK(messages({{"traces", {trace("a", "csv", "no-such.csv")}}}) ==
        key + (folder() / "no-such.csv").string() + ": cannot open file\n");
  CHECK(messages({{"traces", {trace("a", "csv", folder().string())}}}) ==
        key + folder().string() + ": expected a regular file, got a directory\n");
  CHECK(messages({{"traces", {trace("a", "csv", "/dev/zero")}}}) ==
        key + "/dev/zero: expected a regular file, got a device, pipe or socket\n");
}

TEST_CASE("trace jobs count in the memory estimate, at 600 bytes each", "[tools][scenario][traces]") {
  dcsim::models::cluster::ClusterConfig c;
  c.nodes = 4;
  c.nodes_per_rack = 4;
  const double without = cluster_memory(c).total_bytes();
  c.trace_jobs.resize(1000);
  // 478 B measured per trace job (docs/resource-guards.md), rounded up: 1,000 jobs are 600 kB.
  CHECK(cluster_memory(c).total_bytes() - without == Approx(600e3));
  CHECK_THAT(cluster_memory(c).parts.back().first, Catch::Equals("1000 trace jobs"));
}
