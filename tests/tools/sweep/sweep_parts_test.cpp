// The parts of a sweep that are not the CLI: which --set paths the scenario format has, the
// progress line's text, and the results.csv cells.
#include <catch2/catch.hpp>

#include "models/model_registries.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/spec_path.hpp"
#include "tools/sweep/sweep_progress.hpp"
#include "tools/sweep/sweep_results.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace sw = dcsim::tools::sweep;
using nlohmann::json;

TEST_CASE("sweep: a swept path must be a key of the scenario format", "[sweep]") {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const auto spec = dcsim::tools::scenario::scenario_spec(registries);
  CHECK(dcsim::tools::scenario::path_problem(spec, "cluster.nodes").empty());
  CHECK(dcsim::tools::scenario::path_problem(spec, "fabric.oversubscription").empty());
  CHECK(dcsim::tools::scenario::path_problem(spec, "workload.generators.0.gpu_utilization").empty());  // through an array element
  CHECK(dcsim::tools::scenario::path_problem(spec, "workload.generators.0.interarrival.mean").empty());  // inside a distribution
  CHECK_THAT(dcsim::tools::scenario::path_problem(spec, "cluster.nodez"), Catch::StartsWith("no key 'nodez' at /cluster; did you mean 'nodes'? keys there: "));
  CHECK_THAT(dcsim::tools::scenario::path_problem(spec, "clusterr"), Catch::StartsWith("no key 'clusterr' at the scenario's top level"));
  CHECK(dcsim::tools::scenario::path_problem(spec, "workload.generators.x.count") ==
        "/workload/generators is an array: expected an index, got 'x'");
  CHECK(dcsim::tools::scenario::path_problem(spec, "cluster.nodes.x") == "/cluster/nodes is a single value, it has no key 'x'");
  CHECK(dcsim::tools::scenario::path_problem(spec, "cluster..nodes") == "empty key in path 'cluster..nodes'");
}

TEST_CASE("sweep: the progress line counts done and failed variants and gives the ETA", "[sweep]") {
  CHECK(sw::SweepProgress::format_line("tco", 37, 100, 1, 80.0) == "sweep tco: 37/100 done, 1 failed, ETA 1 min 20 s");
  CHECK(sw::SweepProgress::format_line("tco", 0, 100, 0, -1.0) == "sweep tco: 0/100 done, 0 failed, ETA --");
  CHECK(sw::SweepProgress::format_duration(45.4) == "45 s");
  CHECK(sw::SweepProgress::format_duration(7500) == "2 h 05 min");
  // Off a terminal, a line per interval and always the last one; ETA from the variants run so far.
  std::ostringstream out;
  sw::SweepProgress p(out, "t", 2, true, false, std::chrono::hours(1));
  p.variant_done(false, false);
  p.variant_done(true, false);
  CHECK(out.str() == "sweep t: 2/2 done, 1 failed, ETA 0 s\n");
  std::ostringstream quiet;
  sw::SweepProgress q(quiet, "t", 1, false, false);
  q.variant_done(false, false);
  q.finish();
  CHECK(quiet.str().empty());
}

TEST_CASE("sweep: results.csv takes summary scalars and named headline rows, not the run metadata", "[sweep]") {
  const json summary = json::parse(R"({
    "scenario": "s", "seed": 3, "overrides": ["a=1"], "dcsim_version": "0.1.0", "units": {"energy/it_kwh": "kWh"},
    "energy": {"it_kwh": 1.5}, "engine": {"fingerprint": "ab", "events": 7},
    "jobs": [{"name": "a", "step_time_s": 0.5, "nodes": 3}, {"name": "b", "step_time_s": 0.75, "nodes": 3}],
    "hours": [{"hour": 0, "kwh": 1.0}] })");
  const auto scalars = sw::summary_scalars(summary);
  std::vector<std::string> paths;
  for (const auto& [path, value] : scalars) paths.push_back(path);
  // Sorted as summary.json is; "hours" has unnamed rows and stays out.
  CHECK(paths == std::vector<std::string>{"energy/it_kwh", "engine/events", "engine/fingerprint", "jobs/a/nodes",
                                          "jobs/a/step_time_s", "jobs/b/nodes", "jobs/b/step_time_s"});
  CHECK(sw::csv_text(json(0.1)) == "0.1");
  CHECK(sw::csv_text(json(3600.0)) == "3600.0");
  CHECK(sw::csv_text(json("400 Gbps")) == "400 Gbps");
  CHECK(sw::csv_text(json("a, \"b\"")) == "\"a, \"\"b\"\"\"");
  CHECK(sw::csv_text(json(nullptr)).empty());
}
