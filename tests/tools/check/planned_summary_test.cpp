// Before a run, `dcsim check` knows which values its summary will hold: a mistyped path is refused
// with a guess, and a path the run does report is never refused. The second is checked here by
// running scenarios and comparing what they reported with what was known before.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "sim/trace_sink.hpp"
#include "tools/check/expectations.hpp"
#include "tools/check/planned_summary.hpp"
#include "tools/check/summary_path.hpp"
#include "tools/output/summary.hpp"
#include "tools/run/run_scenario.hpp"

namespace fs = std::filesystem;
using dcsim::tools::check::PlannedSummary;
using nlohmann::json;

namespace {

const fs::path kSource = DCSIM_SOURCE_DIR;

dcsim::models::ModelRegistries builtin() {
  dcsim::models::ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

// summary.json of a run of `scenario`, as run_to_directory makes it, without files.
json run_summary(const dcsim::tools::scenario::Scenario& scenario, const dcsim::models::ModelRegistries& registries) {
  dcsim::sim::MemoryTraceSink sink;
  dcsim::tools::run::simulate(scenario, registries, sink);
  dcsim::tools::output::RunMeta meta;
  meta.scenario_name = scenario.name;
  return dcsim::tools::output::summary_json(dcsim::tools::output::SummaryRecorder::from(sink), meta);
}

// The paths the run reported that were not known before it (none, or the check refuses a value
// the run reports).
std::vector<std::string> unforeseen(const dcsim::tools::scenario::Scenario& scenario,
                                    const dcsim::models::ModelRegistries& registries) {
  const PlannedSummary planned(scenario, registries);
  std::vector<std::string> out;
  for (const auto& path : dcsim::tools::check::leaf_paths(run_summary(scenario, registries))) {
    if (!planned.may_report(path)) out.push_back(path);
  }
  return out;
}

std::vector<fs::path> expectations_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kSource / "scenarios/ci")) {
    const auto name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.find("schema") != std::string::npos) continue;
    if (name.find("baseline") != std::string::npos) continue;  // a baseline summary, not expectations
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every value the shipped CI gates' runs report is known before they run", "[tools][check]") {
  const auto registries = builtin();
  const auto files = expectations_files();
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    const auto e = dcsim::tools::check::load_expectations(file.string());
    for (const auto& run : e.runs) {
      INFO(file.filename().string() << ": " << run.name);
      const auto scenario =
          dcsim::tools::scenario::load_scenario_file(run.scenario, run.sets, std::nullopt, registries);
      CHECK(unforeseen(scenario, registries).empty());
      const PlannedSummary planned(scenario, registries);
      for (const auto& c : run.checks) {
        if (!c.path.empty()) CHECK(planned.may_report(c.path));
      }
    }
  }
}

TEST_CASE("a path the run will not report is refused with the nearest one", "[tools][check]") {
  const PlannedSummary planned(json::parse(R"({ "scenario": "s", "seed": 1,
      "network": { "fct_p99_s": 0.02, "fct_p50_s": 0.01, "switches": 20 },
      "jobs": [ { "name": "llama", "step_time_s": 3.5 } ], "engine": { "events": 0 } })"));
  CHECK(planned.may_report("network/fct_p99_s"));
  CHECK(planned.may_report("jobs/llama/step_time_s"));
  CHECK(planned.may_report("jobs/0/step_time_s"));
  CHECK_FALSE(planned.may_report("jobs/1/step_time_s"));
  CHECK(planned.why_not("network/fct_p99") ==
        "'network/fct_p99' is not a value this run reports; did you mean 'network/fct_p99_s'? under network/: "
        "fct_p50_s, fct_p99_s, switches");
  CHECK(planned.why_not("jobs/lama/step_time_s") ==
        "'jobs/lama/step_time_s' is not a value this run reports; did you mean 'jobs/llama/step_time_s'? under jobs/: "
        "0, llama");
  CHECK(planned.why_not("netwrk/switches") ==
        "'netwrk/switches' is not a value this run reports; did you mean 'network/switches'? its sections: engine, "
        "jobs, network, scenario, seed");
  CHECK(planned.why_not("facility/pue_mean") ==
        "'facility/pue_mean' is not a value this run reports; its sections: engine, jobs, network, scenario, seed");
}

TEST_CASE("every value a shipped scenario's run reports is known before it runs", "[tools][check][slow]") {
  const auto registries = builtin();
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kSource / "scenarios")) {
    if (e.path().extension() == ".json" && e.path().filename() != "schema.json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    INFO(f.filename().string());
    const auto scenario = dcsim::tools::scenario::load_scenario_file(f.string(), {}, std::nullopt, registries);
    const auto missed = unforeseen(scenario, registries);
    for (const auto& m : missed) UNSCOPED_INFO(m);
    CHECK(missed.empty());
  }
}
