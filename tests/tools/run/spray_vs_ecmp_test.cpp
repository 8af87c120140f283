// Spraying (fabric.routing.mode spray) is documented as ideal packet spraying, an upper bound:
// on every shipped scenario with a fabric it must never be slower than ECMP on the same
// traffic. Training jobs run 3 steps (the property is per step; 3 keep the whole check to a
// few seconds); the traffic scenarios run as shipped.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"

namespace fs = std::filesystem;
using dcsim::sim::MemoryTraceSink;

namespace {

// Rates are exact up to the solver's rounding; a nanosecond of rounding per subflow is allowed.
bool no_slower(double sprayed, double hashed) { return sprayed <= hashed * (1 + 1e-9) + 1e-9; }

const fs::path kSource = DCSIM_SOURCE_DIR;

struct Outcome {
  double makespan_s = 0, fct_p99_s = 0, fct_max_s = 0, flows_failed = 0;
  std::vector<std::pair<std::string, double>> step_time_s;  // per training job
};

double number(const MemoryTraceSink& sink, const std::string& path) {
  const auto& v = sink.summary(path).value;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

Outcome run(const nlohmann::json& doc, const std::string& name, const std::string& mode,
            std::vector<std::string> sets = {}) {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  sets.push_back("fabric.routing.mode=" + mode);
  if (doc.contains("workload") && doc["workload"].contains("training")) {
    for (std::size_t i = 0; i < doc["workload"]["training"].size(); ++i)
      sets.push_back("workload.training." + std::to_string(i) + ".steps=3");
  }
  const auto scenario = dcsim::tools::scenario::load_scenario_json(doc, name, sets, {}, registries);
  MemoryTraceSink sink;
  dcsim::tools::run::simulate(scenario, registries, sink);
  Outcome o;
  o.makespan_s = number(sink, "network/makespan_s");
  o.fct_p99_s = number(sink, "network/fct_p99_s");
  o.fct_max_s = number(sink, "network/fct_max_s");
  o.flows_failed = number(sink, "network/flows_failed");
  for (const auto& t : sink.tables()) {
    if (t.path != "jobs") continue;
    std::size_t name_col = 0, step_col = 0;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      if (t.columns[c].name == "name") name_col = c;
      if (t.columns[c].name == "step_time_s") step_col = c;
    }
    for (const auto& row : t.rows) {
      const auto* step = std::get_if<double>(&row[step_col]);
      if (step != nullptr && *step > 0) o.step_time_s.emplace_back(std::get<std::string>(row[name_col]), *step);
    }
  }
  return o;
}

}  // namespace

TEST_CASE("spraying is never slower than ECMP on any shipped fabric scenario", "[network][spray]") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kSource / "scenarios")) {
    if (e.path().extension() == ".json" && e.path().filename() != "schema.json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  int checked = 0;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (!doc.contains("fabric")) continue;
    const std::string name = file.filename().string();
    INFO(name);
    const Outcome ecmp = run(doc, name, "ecmp");
    const Outcome spray = run(doc, name, "spray");
    CHECK(no_slower(spray.makespan_s, ecmp.makespan_s));
    CHECK(no_slower(spray.fct_p99_s, ecmp.fct_p99_s));
    CHECK(no_slower(spray.fct_max_s, ecmp.fct_max_s));
    CHECK(spray.flows_failed <= ecmp.flows_failed);
    REQUIRE(spray.step_time_s.size() == ecmp.step_time_s.size());
    for (std::size_t j = 0; j < spray.step_time_s.size(); ++j) {
      INFO("training job " << spray.step_time_s[j].first);
      CHECK(no_slower(spray.step_time_s[j].second, ecmp.step_time_s[j].second));
    }
    ++checked;
  }
  CHECK(checked >= 8);  // the shipped fabric scenarios, at the time of writing 8
}

TEST_CASE("spraying 16 8-NIC nodes on a non-blocking leaf-spine is not slower than ECMP", "[network][spray]") {
  // Issue 36's case: 64 subflows that left on all 8 NICs but ended on 2 of the destination's
  // made a llama3-8b step 4.16 s against 3.54 s with ECMP (channels pinned to NICs).
  std::ifstream in(kSource / "scenarios/hgx-h100-16-nodes.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  const std::vector<std::string> leaf_spine = {"fabric.topology=leaf_spine", "fabric.leaves=4",
                                               "fabric.hosts_per_leaf=4"};
  const Outcome ecmp = run(doc, "hgx-h100-16-nodes.json", "ecmp", leaf_spine);
  const Outcome spray = run(doc, "hgx-h100-16-nodes.json", "spray", leaf_spine);
  REQUIRE(spray.step_time_s.size() == 1);
  CHECK(no_slower(spray.step_time_s[0].second, ecmp.step_time_s[0].second));
}
