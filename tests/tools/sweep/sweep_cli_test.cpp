// `dcsim sweep` as a user meets it: one folder and one results.csv row per variant, the same bytes
// however often and on however many threads it runs, resume without rerunning, a failed variant
// that does not stop the others (exit 4), and bad sweep files that exit 2 with the sweep file's
// JSON pointer and write nothing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../cli/cli_test_support.hpp"

namespace fs = std::filesystem;

namespace {

using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::temp_path;

const std::string kSource = DCSIM_SOURCE_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) out.push_back(cell);
  return out;
}

// A folder with a sweep file over tests/data/sweeps/<scenario>; removed at scope exit.
struct SweepDir {
  fs::path dir;
  SweepDir(const std::string& name, const std::string& body, const std::string& scenario = "tiny.json")
      : dir(temp_path("sweep-" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    write(body, scenario);
  }
  ~SweepDir() { fs::remove_all(dir); }
  void write(const std::string& body, const std::string& scenario = "tiny.json") const {
    std::ofstream(dir / "sweep.json") << R"({"name": "t", "scenario": ")" << kSource << "/tests/data/sweeps/"
                                      << scenario << "\", " << body << "}";
  }
  std::string file() const { return (dir / "sweep.json").string(); }
  std::string out(const std::string& name) const { return (dir / name).string(); }
};

// 2 node counts x 2 utilisations x 2 replications = 8 variants.
const std::string kGrid = R"("replications": 2, "parameters": [
    {"path": "cluster.nodes", "values": [2, 4]},
    {"path": "workload.generators.0.gpu_utilization", "values": [0.5, 0.9]}])";

}  // namespace

TEST_CASE("sweep: one row per variant - the same results.csv on 1 and 2 threads and run twice", "[cli][sweep]") {
  const SweepDir s("identical", kGrid);
  const auto a = run_dcsim("sweep " + s.file() + " -o " + s.out("a") + " --jobs 2 --quiet");
  REQUIRE(a.exit_code == 0);
  CHECK_THAT(a.output, Catch::Contains("8 variants, 8 ok, 0 failed (8 run now, 0 reused)"));
  const auto b = run_dcsim("sweep " + s.file() + " -o " + s.out("b") + " --jobs 1 --quiet");
  REQUIRE(b.exit_code == 0);
  const std::string csv = read_file(s.out("a") + "/results.csv");
  CHECK(csv == read_file(s.out("b") + "/results.csv"));

  const auto rows = lines_of(csv);
  REQUIRE(rows.size() == 9);  // header + 8 variants
  CHECK(rows[0].rfind("variant,status,replication,seed,cluster.nodes,workload.generators.0.gpu_utilization,", 0) == 0);
  CHECK(rows[0].find(",engine/events,") != std::string::npos);
  CHECK(rows[0].substr(rows[0].size() - 6) == ",error");
  // Replication 0 keeps the scenario's seed (3); replication 1 gets another, the same at every point.
  std::set<std::string> seeds;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto c = cells_of(rows[i]);
    CHECK(c[0] == "v000" + std::to_string(i - 1));
    CHECK(c[1] == "ok");
    CHECK(c[2] == std::to_string((i - 1) % 2));
    if (c[2] == "0") CHECK(c[3] == "3");
    seeds.insert(c[3]);
  }
  CHECK(seeds.size() == 2);
  // Row 4 is point (nodes 2, utilisation 0.9), replication 1: row-major, replications innermost.
  CHECK(cells_of(rows[4])[4] == "2");
  CHECK(cells_of(rows[4])[5] == "0.9");

  // Each variant's summary.json records its overrides and seed.
  const auto summary = nlohmann::json::parse(read_file(s.out("a") + "/v0003/summary.json"));
  CHECK(std::to_string(summary["seed"].get<std::uint64_t>()) == cells_of(rows[4])[3]);
  CHECK(summary["seed"] != 3);
  CHECK(summary["overrides"][0] == "cluster.nodes=2");
  CHECK(summary["overrides"][1] == "workload.generators.0.gpu_utilization=0.9");
  CHECK(summary["overrides"][2] == "seed=" + cells_of(rows[4])[3]);
  CHECK(fs::exists(s.out("a") + "/v0007/trace.h5"));
  CHECK(fs::exists(s.out("a") + "/results.h5"));
}

TEST_CASE("sweep: a second run reuses finished variants - changed values run again and say so", "[cli][sweep]") {
  const SweepDir s("resume", kGrid);
  REQUIRE(run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet").exit_code == 0);
  const std::string first = read_file(s.out("o") + "/results.csv");
  const auto again = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet");
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains("(0 run now, 8 reused)"));
  CHECK(read_file(s.out("o") + "/results.csv") == first);

  // 0.9 becomes 0.8: the four variants at that utilisation run again, the other four do not.
  s.write(R"("replications": 2, "parameters": [
    {"path": "cluster.nodes", "values": [2, 4]},
    {"path": "workload.generators.0.gpu_utilization", "values": [0.5, 0.8]}])");
  const auto changed = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet");
  CHECK(changed.exit_code == 0);
  CHECK_THAT(changed.output, Catch::Contains("(4 run now, 4 reused)"));
  CHECK_THAT(changed.output, Catch::Contains("v0002: its values changed since the last run"));
  CHECK_THAT(read_file(s.out("o") + "/results.csv"), Catch::Contains(",2,0.8,"));

  // A half-finished folder (summary.json gone: a run killed while writing) is run again.
  fs::remove(s.out("o") + "/v0005/summary.json");
  const auto partial = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet");
  CHECK_THAT(partial.output, Catch::Contains("(1 run now, 7 reused)"));

  // A variant that another build of dcsim ran (the same version, other code) is run again.
  {
    const std::string record_file = s.out("o") + "/v0003/variant.json";
    auto record = nlohmann::json::parse(read_file(record_file));
    CHECK(record.at("dcsim_build").get<std::string>().size() == 16);  // a 64-bit hash of the executable
    record["dcsim_build"] = "0000000000000000";
    std::ofstream(record_file, std::ios::trunc) << record.dump(2);
  }
  const auto rebuilt = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet");
  CHECK_THAT(rebuilt.output, Catch::Contains("(1 run now, 7 reused)") &&
                                 Catch::Contains("v0003: it ran with another build of dcsim"));
}

TEST_CASE("sweep: a variant that fails is a failed row with its message - the others run - exit 4", "[cli][sweep]") {
  // Every variant validates (its keys are in range and its models build), but 0.004 kg/s of
  // facility water per rack cannot carry the racks' heat: as the run goes the dies pass 87 C and
  // /facility/on_shortfall "error" ends it (at t = 423 s). A model refusal at build time is caught
  // before any variant runs (sweep_validation_test.cpp), so a failure here is one only a run finds.
  const SweepDir s("failed",
                   R"("set": ["duration=\"1 h\"", "facility.on_shortfall=error"],
                      "parameters": [{"path": "facility.plant.water_flow_kg_per_s_per_rack", "values": [1, 0.004, 2]}])",
                   "../../../scenarios/d2c-rdhx-50kw.json");
  const auto r = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet");
  CHECK(r.exit_code == 4);
  CHECK_THAT(r.output, Catch::Contains("3 variants, 2 ok, 1 failed"));
  CHECK_THAT(r.output, Catch::Contains("failed v0001 (facility.plant.water_flow_kg_per_s_per_rack=0.004, seed=") &&
                           Catch::Contains("the cooling cannot remove the heat"));
  const auto rows = lines_of(read_file(s.out("o") + "/results.csv"));
  REQUIRE(rows.size() == 4);
  CHECK(rows[1].rfind("v0000,ok,", 0) == 0);
  CHECK(rows[2].rfind("v0001,failed,", 0) == 0);
  CHECK_THAT(rows[2], Catch::Contains("the cooling cannot remove the heat"));
  CHECK(rows[3].rfind("v0002,ok,", 0) == 0);
  // A failed variant is tried again next time; the finished ones are not.
  const auto again = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --quiet");
  CHECK(again.exit_code == 4);
  CHECK_THAT(again.output, Catch::Contains("(1 run now, 2 reused)"));
}

TEST_CASE("sweep: bad sweep files exit 2 with the sweep file's JSON pointer and write nothing", "[cli][sweep]") {
  const SweepDir s("bad", R"("parameters": [{"path": "cluster.nodez", "values": [2, 4]}])");
  const auto expect_bad = [&](const std::string& body, const std::vector<std::string>& needles) {
    s.write(body);
    const auto r = run_dcsim("sweep " + s.file() + " -o " + s.out("o"));
    CHECK(r.exit_code == 2);
    for (const auto& n : needles) CHECK_THAT(r.output, Catch::Contains(s.file() + ":" + n));
    CHECK_FALSE(fs::exists(s.out("o")));
  };
  expect_bad(R"("parameters": [{"path": "cluster.nodez", "values": [2, 4]}])",
             {"/parameters/0/path: 'cluster.nodez' is not in the scenario: no key 'nodez' at /cluster"});
  expect_bad(R"("parameters": [{"path": "cluster.nodes", "values": []}])",
             {"/parameters/0/values: expected a non-empty array"});
  expect_bad(R"("parameters": [{"path": "cluster.nodes", "range": {"start": 1, "stop": 4, "step": 0}}])",
             {"/parameters/0/range/step: expected a non-zero step, got 0"});
  // Values the scenario refuses: each at its own pointer, all reported together.
  expect_bad(R"("parameters": [{"path": "cluster.nodes", "values": [2, 0]},
                               {"path": "workload.generators.0.gpu_utilization", "values": [1.5, 0.5]}])",
             {"/parameters/0/values/1: cluster.nodes=0: ", "/parameters/1/values/0: workload.generators.0.gpu_utilization=1.5: "});
  expect_bad(R"("set": ["cluster.nodes=-1"], "parameters": [])", {"/set: "});
  CHECK(run_dcsim("sweep " + s.file()).exit_code == 2);  // -o is required
}

TEST_CASE("sweep: the example sweeps validate and expand - --dry-run writes nothing", "[cli][sweep]") {
  // Variant counts by hand: oversubscription 1, 2, 4, 8 x 2 replications; utilisation 0.5 to 0.9
  // by 0.1 (5) x electricity price 0.05 to 0.20 by 0.05 (4).
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"step-vs-oversubscription.json", "8 variants"}, {"tco-sensitivity.json", "20 variants"}};
  for (const auto& [file, count] : examples) {
    const auto r = run_dcsim("sweep " + kSource + "/scenarios/sweeps/" + file + " --dry-run");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains(count));
  }
}

TEST_CASE("sweep: the step-time example runs - oversubscription stretches the shared jobs' steps", "[cli][sweep]") {
  const auto out = temp_path("sweep-example");
  fs::remove_all(out);
  const auto r = run_dcsim("sweep " + kSource + "/scenarios/sweeps/step-vs-oversubscription.json -o " + out.string() +
                           " --jobs 2 --quiet");
  REQUIRE(r.exit_code == 0);
  const auto rows = lines_of(read_file(out / "results.csv"));
  REQUIRE(rows.size() == 9);
  const auto header = cells_of(rows[0]);
  const auto column = std::find(header.begin(), header.end(), "jobs/a/step_time_s") - header.begin();
  REQUIRE(column < static_cast<long>(header.size()));
  // Under ECMP (even rows: v0000, v0002, ...) job a's all-reduce crosses leaf 1's uplinks, which
  // shrink as the oversubscription grows 1, 2, 4, 8: its step time grows with it.
  double previous = 0.0;
  for (std::size_t i = 1; i < rows.size(); i += 2) {
    const auto c = cells_of(rows[i]);
    CHECK(c[5] == "ecmp");
    const double step = std::stod(c[column]);
    CHECK(step > previous);
    previous = step;
  }
  fs::remove_all(out);
}

TEST_CASE("sweep: a variant whose data file changed runs again - an untouched one is reused", "[cli][sweep]") {
  // The scenario replays a job list from a CSV next to it: the variants' results depend on that
  // file as much as on the JSON, so editing it must not leave the old results standing.
  const fs::path dir = temp_path("sweep-data-file");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "jobs.csv") << "name,arrival_s,nodes,work_s\na,0,1,600\nb,60,2,1200\n";
  std::ofstream(dir / "scenario.json") << R"({"name": "data file", "seed": 1, "duration": "2 h",
    "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2, "nodes_per_rack": 2},
    "workload": {"traces": [{"name": "list", "format": "csv", "path": "jobs.csv"}]},
    "policies": {"scheduler": "fifo"}, "outputs": {"telemetry_interval": "10 min"}})";
  std::ofstream(dir / "sweep.json") << R"({"name": "d", "scenario": "scenario.json",
    "parameters": [{"path": "cluster.nodes", "values": [2, 4]}]})";
  const std::string cmd = "sweep " + (dir / "sweep.json").string() + " -o " + (dir / "o").string() + " --quiet";
  REQUIRE(run_dcsim(cmd).exit_code == 0);
  CHECK_THAT(run_dcsim(cmd).output, Catch::Contains("(0 run now, 2 reused)"));

  std::ofstream(dir / "jobs.csv", std::ios::trunc) << "name,arrival_s,nodes,work_s\na,0,1,900\nb,60,2,1200\n";
  const auto changed = run_dcsim(cmd);
  CHECK(changed.exit_code == 0);
  CHECK_THAT(changed.output, Catch::Contains("(2 run now, 0 reused)") &&
                                 Catch::Contains("the scenario or a data file it reads changed since the last run"));
  fs::remove_all(dir);
}

TEST_CASE("sweep: --max-memory is shared by the variants that run at once, and checked before anything runs", "[cli][sweep]") {
  const SweepDir s("max-memory", kGrid);
  // 1 MB for two variants at once: each gets half, far below what a run needs; exit 2, nothing written.
  const auto small = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " -j 2 --max-memory '1 MB' --quiet");
  CHECK(small.exit_code == 2);
  CHECK_THAT(small.output, Catch::Contains("above the memory limit of"));
  CHECK_FALSE(fs::exists(s.out("o")));
  const auto bad = run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " --max-memory lots --quiet");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("--max-memory"));
  CHECK(run_dcsim("sweep " + s.file() + " -o " + s.out("o") + " -j 2 --max-memory '8 GB' --quiet").exit_code == 0);
}
