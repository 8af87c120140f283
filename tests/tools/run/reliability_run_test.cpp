// A run with /reliability lists every random fault in events/faults, counts them in the summary,
// and the faults act: jobs are interrupted with their cause in events/job_states.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tools/run/run_scenario.hpp"

using dcsim::tools::run::simulate;
using dcsim::tools::scenario::load_scenario_file;

namespace {

std::int64_t count(const dcsim::sim::MemoryTraceSink& sink, const std::string& path) {
  return std::get<std::int64_t>(sink.summary(path).value);
}

}  // namespace

TEST_CASE("a run with random faults lists and counts them, and they interrupt jobs with their cause", "[run][reliability]") {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const std::string quickstart = std::string(DCSIM_SOURCE_DIR) + "/scenarios/quickstart.json";
  // The Llama 3 rates x 10,000 on quickstart's 8 nodes for a day: a few hundred faults.
  const auto scenario = load_scenario_file(
      quickstart, {"duration=2 d", "reliability.faults=llama3_405b", "reliability.scale=10000"}, {}, registries);
  dcsim::sim::MemoryTraceSink sink;
  simulate(scenario, registries, sink);

  const auto& table = sink.table("faults");
  const auto total = count(sink, "reliability/faults_total");
  CHECK(total > 50);
  CHECK(static_cast<std::int64_t>(table.rows.size()) == total);
  std::int64_t by_class = 0;
  for (const auto& c : scenario.reliability->classes) by_class += count(sink, "reliability/faults/" + c.name);
  CHECK(by_class == total);
  // Rows: time within the run, a component path, and its node within the cluster (or -1).
  std::map<std::string, int> columns;
  for (std::size_t i = 0; i < table.columns.size(); ++i) columns[table.columns[i].name] = static_cast<int>(i);
  for (const auto& row : table.rows) {
    const double t = std::get<double>(row[columns.at("time_s")]);
    CHECK(t >= 0);
    CHECK(t < 2 * 86400.0);
    const auto node = std::get<std::int64_t>(row[columns.at("node")]);
    CHECK(node >= -1);
    CHECK(node < 8);
    const auto& path = std::get<std::string>(row[columns.at("component")]);
    CHECK((path.rfind("node/", 0) == 0 || path.rfind("fabric/link/", 0) == 0));
  }
  // The cluster reacts: node, GPU and NIC faults take nodes down, crashes and cable faults
  // interrupt jobs. Every interruption is a transition with its cause in events/job_states, no
  // more interruptions than faults, and every job is accounted for (completed or not).
  const auto interruptions = count(sink, "reliability/interruptions_total");
  CHECK(interruptions > 0);
  CHECK(interruptions <= total);
  std::int64_t interrupted_rows = 0;
  for (const auto& row : sink.table("job_states").rows) {
    if (std::get<std::string>(row[3]) == "interrupted") {
      ++interrupted_rows;
      CHECK(!std::get<std::string>(row[4]).empty());
    }
  }
  CHECK(interrupted_rows == interruptions);
  CHECK(count(sink, "workload/jobs_completed") + count(sink, "workload/jobs_unfinished") == 42);
}

TEST_CASE("random faults during flow-mode training interrupt the jobs and the run completes", "[run][reliability]") {
  // Flow mode: every step's flows are on the fabric when a node goes down. The interrupted run's
  // step drains, its end is ignored, and the job's next run starts after the relaunch.
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const std::string file = std::string(DCSIM_SOURCE_DIR) + "/scenarios/two-jobs-shared-fabric.json";
  const auto scenario = load_scenario_file(file,
                                           {"duration=60 s", "reliability.faults=llama3_405b",
                                            "reliability.scale=2000000", "policies.failover_params.relaunch_overhead=1 s"},
                                           {}, registries);
  dcsim::sim::MemoryTraceSink sink;
  simulate(scenario, registries, sink);
  CHECK(count(sink, "reliability/interruptions_total") > 0);
  bool interrupted = false;
  for (const auto& row : sink.table("job_states").rows) {
    interrupted = interrupted || std::get<std::string>(row[3]) == "interrupted";
  }
  CHECK(interrupted);
}

TEST_CASE("an elastic job in flow mode re-forms on other nodes and fewer replicas, its step graph rebuilt",
          "[run][reliability]") {
  // The same faults as above under elastic: the first two node faults are replaced by idle nodes
  // (elastic_reform), the third leaves no idle node and the job goes on with 2 of its 3 columns
  // (elastic_shrink); each new run builds the step graph of its replicas on its nodes.
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const std::string file = std::string(DCSIM_SOURCE_DIR) + "/scenarios/two-jobs-shared-fabric.json";
  const auto scenario = load_scenario_file(file,
                                           {"duration=60 s", "reliability.faults=llama3_405b",
                                            "reliability.scale=2000000", "policies.failover=elastic",
                                            "policies.failover_params.relaunch_overhead=1 s"},
                                           {}, registries);
  dcsim::sim::MemoryTraceSink sink;
  simulate(scenario, registries, sink);
  CHECK(count(sink, "reliability/elastic_reforms") > 0);
  CHECK(count(sink, "reliability/elastic_shrinks") > 0);
  std::vector<std::string> causes;
  for (const auto& row : sink.table("job_states").rows) causes.push_back(std::get<std::string>(row[4]));
  CHECK(std::find(causes.begin(), causes.end(), "elastic_shrink") != causes.end());
}

TEST_CASE("a random cooling-zone fault stops the zone's heat removal until its repair", "[run][reliability]") {
  // d2c-rdhx-50kw holds its GPUs near 70 C. A zone fault every 2 h on average, 20 min each:
  // while one lasts neither the CDU nor the air path removes heat, so the dies climb past the
  // slowdown point (89 C) and GPUs throttle; without the class nothing throttles.
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const std::string file = std::string(DCSIM_SOURCE_DIR) + "/scenarios/d2c-rdhx-50kw.json";
  const auto run = [&](const std::vector<std::string>& overrides) {
    const auto scenario = load_scenario_file(file, overrides, {}, registries);
    auto sink = std::make_unique<dcsim::sim::MemoryTraceSink>();
    simulate(scenario, registries, *sink);
    return sink;
  };
  const auto calm = run({"duration=6 h"});
  const auto faulty = run({"duration=6 h", R"(reliability.classes=[{"name": "cdu", "component": "zone", "mtbf": "2 h",
      "repair": {"kind": "fixed", "value": "20 min"}, "effect": "zone_cooling_loss"}])"});
  REQUIRE(count(*faulty, "reliability/faults_total") > 0);
  const auto value = [](const dcsim::sim::MemoryTraceSink& s, const std::string& path) {
    return std::get<double>(s.summary(path).value);
  };
  CHECK(value(*calm, "thermal/throttled_gpu_s") == 0.0);
  CHECK(value(*faulty, "thermal/throttled_gpu_s") > 0.0);
  CHECK(value(*faulty, "thermal/max_gpu_c") > 89.0);
  std::int64_t begins = 0;
  for (const auto& row : faulty->table("facility").rows) {
    if (std::get<std::string>(row[1]) == "zone_cooling_loss" &&
        std::get<std::string>(row[7]).rfind("random fault begins", 0) == 0) {
      ++begins;
    }
  }
  CHECK(begins == count(*faulty, "reliability/faults_total"));
}

TEST_CASE("NIC faults interrupt jobs on rail-optimised nodes and not on bonded ones until every NIC is down",
          "[run][reliability]") {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const std::string quickstart = std::string(DCSIM_SOURCE_DIR) + "/scenarios/quickstart.json";
  // One NIC class failing each of the 8 x 8 NICs every 2 days for 1 h: about 64 faults in 2 days.
  const std::string nic_class = R"(reliability.classes=[{"name": "nic", "component": "nic", "mtbf": "2 d",
      "repair": {"kind": "fixed", "value": "1 h"}, "effect": "nic_down"}])";
  const auto run = [&](std::vector<std::string> overrides) {
    overrides.insert(overrides.begin(), {"duration=2 d", nic_class});
    const auto scenario = load_scenario_file(quickstart, overrides, {}, registries);
    auto sink = std::make_unique<dcsim::sim::MemoryTraceSink>();
    simulate(scenario, registries, *sink);
    return sink;
  };
  const auto rails = run({});
  const auto bonded = run({"reliability.nic_bonding=true"});
  const auto single = run({"reliability.nic_bonding=true", "cluster.node.compute_nics=1"});
  REQUIRE(count(*rails, "reliability/faults_total") > 20);
  // The same faults (same seed, same inventory): every one on a busy node interrupts its job...
  CHECK(count(*bonded, "reliability/faults_total") == count(*rails, "reliability/faults_total"));
  CHECK(count(*rails, "reliability/interruptions_total") > 0);
  // ... while a bond of 8 loses all 8 NICs only if 8 one-hour repairs overlap: never here.
  CHECK(count(*bonded, "reliability/interruptions_total") == 0);
  // A bond of one NIC is no bond: each of its faults takes the node down.
  CHECK(count(*single, "reliability/interruptions_total") > 0);
}
