#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/error.hpp"
#include "tools/run/run_scenario.hpp"

namespace fs = std::filesystem;
using dcsim::tools::run::run_to_directory;
using dcsim::tools::run::simulate;
using dcsim::tools::scenario::load_scenario_file;

namespace {

const std::string kQuickstart = std::string(DCSIM_SOURCE_DIR) + "/scenarios/quickstart.json";

dcsim::models::ModelRegistries builtin() {
  dcsim::models::ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("dcsim-test-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

double scalar(const dcsim::sim::MemoryTraceSink& sink, const std::string& path) {
  const auto& v = sink.summary(path).value;
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  return std::get<double>(v);
}

}  // namespace

TEST_CASE("quickstart conserves energy: IT energy = job energy + idle-node energy",
          "[golden][run]") {
  const auto registries = builtin();
  const auto scenario = load_scenario_file(kQuickstart, {}, {}, registries);
  dcsim::sim::MemoryTraceSink sink;
  const auto stats = simulate(scenario, registries, sink);

  CHECK(scalar(sink, "workload/jobs_unfinished") == 0);
  CHECK(scalar(sink, "workload/jobs_completed") == 42);
  const auto& jobs = sink.table("jobs");
  std::size_t energy_col = 0;
  while (jobs.columns[energy_col].name != "energy_kwh") ++energy_col;
  double job_energy_kwh = 0;
  for (const auto& row : jobs.rows) job_energy_kwh += std::get<double>(row[energy_col]);

  // Idle nodes draw the preset's idle power: 8 x 84 W + 1 kW = 1.672 kW per hgx-h100 node.
  const double idle_node_w = scenario.cluster.node.idle_power_w();
  const double nodes = scenario.cluster.nodes;
  const double busy_node_s = scalar(sink, "utilization/node_busy_fraction") * nodes * stats.simulated_s;
  const double idle_kwh = idle_node_w * (nodes * stats.simulated_s - busy_node_s) / 3.6e6;
  CHECK(scalar(sink, "energy/it_kwh") == Approx(job_energy_kwh + idle_kwh).epsilon(1e-9));
  // Physical bounds: between all-idle and all-at-max for the whole run.
  const double hours = stats.simulated_s / 3600;
  CHECK(scalar(sink, "energy/it_kwh") > nodes * idle_node_w / 1e3 * hours);
  // Golden: the quickstart's event sequence. If a change alters it on purpose, update these two
  // values and say why in the commit; if not, the change has a side effect to find.
  CHECK(std::get<std::int64_t>(sink.summary("engine/events").value) == 168);
  // The timing fingerprint (time and priority of every event): the full fingerprint, which also
  // hashes the scheduling code's names, is in tests/data/golden/fingerprints.json.
  CHECK(std::get<std::string>(sink.summary("engine/timing_fingerprint").value) == "67b03705abe6ebd5");
  CHECK(scalar(sink, "energy/it_kwh") < nodes * scenario.cluster.node.max_power_w() / 1e3 * hours);
  CHECK(scalar(sink, "power/peak_rack_w") <= 4 * scenario.cluster.node.max_power_w());
  // The headline table lists the scenario's named jobs only; the events table every job.
  CHECK(sink.table("summary/jobs").rows.size() == 2);
  CHECK(jobs.rows.size() == 42);
}

TEST_CASE("same scenario and seed give byte-identical summary.json; another seed differs",
          "[golden][run][determinism]") {
  const auto registries = builtin();
  TempDir a("det-a"), b("det-b"), c("det-c");
  run_to_directory(load_scenario_file(kQuickstart, {}, {}, registries), registries, a.path);
  run_to_directory(load_scenario_file(kQuickstart, {}, {}, registries), registries, b.path);
  run_to_directory(load_scenario_file(kQuickstart, {}, std::uint64_t{43}, registries), registries, c.path);
  const auto summary_a = read_file(a.path / "summary.json");
  CHECK(!summary_a.empty());
  CHECK(summary_a == read_file(b.path / "summary.json"));
  CHECK(summary_a != read_file(c.path / "summary.json"));
  CHECK(fs::exists(a.path / "trace.h5"));
}

TEST_CASE("a model's objection to a scenario names the JSON pointer", "[run]") {
  const auto registries = builtin();
  // Job 0 asks for more nodes than the cluster has once the cluster shrinks to 2.
  auto scenario = load_scenario_file(kQuickstart, {"cluster.nodes=4", "workload.generators.0.nodes=[1]"}, {}, registries);
  scenario.cluster.jobs[0].nodes = 5;
  dcsim::sim::MemoryTraceSink sink;
  CHECK_THROWS_WITH(simulate(scenario, registries, sink), Catch::Contains(":/workload/jobs/0/nodes:"));
}

TEST_CASE("an undersized cooling plant stops the run at /facility/on_shortfall when the scenario asks", "[run]") {
  // 0.004 kg/s of facility water per rack (the old fixed 10 kg/s shared by 2,500 racks): the
  // dies pass 87 C; with on_shortfall "error" the run ends there, located at the key.
  const auto registries = builtin();
  const std::string d2c = std::string(DCSIM_SOURCE_DIR) + "/scenarios/d2c-rdhx-50kw.json";
  auto scenario = load_scenario_file(d2c, {"facility.plant.water_flow_kg_per_s_per_rack=0.004", "duration=1 h",
                                           "facility.on_shortfall=error"}, {}, registries);
  dcsim::sim::MemoryTraceSink sink;
  CHECK_THROWS_WITH(simulate(scenario, registries, sink),
                    Catch::Contains(":/facility/on_shortfall: the cooling cannot remove the heat") &&
                        Catch::Contains("GPU dies above their max operating 87 C"));
  dcsim::sim::MemoryTraceSink again;
  CHECK_THROWS_AS(simulate(scenario, registries, again), dcsim::sim::InputError);  // exit 2
}

TEST_CASE("a failed run leaves no output that looks complete", "[run]") {
  const auto registries = builtin();
  TempDir dir("failed");
  auto scenario = load_scenario_file(kQuickstart, {}, {}, registries);
  scenario.cluster.jobs[0].nodes = 99;  // rejected by the model after the outputs are staged
  CHECK_THROWS_AS(run_to_directory(scenario, registries, dir.path), dcsim::sim::InputError);
  CHECK(!fs::exists(dir.path / "trace.h5"));
  CHECK(!fs::exists(dir.path / "summary.json"));
  if (fs::exists(dir.path)) CHECK(fs::is_empty(dir.path));
}
