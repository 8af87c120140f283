// `dcsim design` as a user meets it: the files it writes, the best design as a scenario that runs
// to the same answer, a search run again reusing its evaluations, exit 5 with the nearest miss
// when nothing meets the constraints, and bad design files refused with exit 2 before anything
// is written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../cli/cli_test_support.hpp"

namespace fs = std::filesystem;
using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::temp_path;
using nlohmann::json;

namespace {

struct DesignDir {
  fs::path dir;
  explicit DesignDir(const std::string& name, const json& body) : dir(temp_path("design-" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    json doc = {{"name", name},
                {"scenario", std::string(DCSIM_SOURCE_DIR) + "/tests/data/design/tiny-training.json"},
                {"variables", {{{"path", "cluster.nodes"}, {"values", {1, 2, 4}}}}},
                {"couplings", {{{"path", "workload.training.0.nodes"}, {"from", "cluster.nodes"}}}},
                {"objectives", {{{"key", "cost/owned/usd_per_million_tokens"}}}}};
    doc.update(body);
    std::ofstream(dir / "design.json") << doc.dump(2);
  }
  ~DesignDir() { fs::remove_all(dir); }
  std::string command() const {
    return "design " + (dir / "design.json").string() + " -o " + (dir / "out").string() + " -q";
  }
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("dcsim design writes every evaluation, the front, the best design as a scenario and its sensitivity",
          "[design][cli]") {
  const DesignDir d("writes", {{"constraints", {{{"key", "power/peak_w"}, {"max", 30e3}}}}});
  const auto r = run_dcsim(d.command());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("3 evaluations (2 feasible, 0 infeasible, 1 pruned before running, 0 failed)"));
  for (const char* f :
       {"evaluations.csv", "pareto.csv", "best-scenario.json", "sensitivity.csv", "report.html", "design.json"}) {
    CHECK(fs::exists(d.dir / "out" / f));
  }
  const std::string csv = read(d.dir / "out" / "evaluations.csv");
  CHECK(csv.rfind("evaluation,fidelity,status,cluster.nodes,workload.training.0.nodes,power/peak_w,"
                  "cost/owned/usd_per_million_tokens,reason,",
                  0) == 0);
  // The report says why the runners-up lost: the 4-node design over the power limit.
  const std::string html = read(d.dir / "out" / "report.html");
  CHECK_THAT(html, Catch::Contains("Why the runners-up lost") && Catch::Contains("power/peak_w") &&
                       Catch::Contains("before running"));
  // The best design runs on its own to the objective the search reported.
  const auto best = json::parse(read(d.dir / "out" / "best-scenario.json"));
  const auto run =
      run_dcsim("run " + (d.dir / "out" / "best-scenario.json").string() + " -o " + (d.dir / "best").string() + " -q");
  REQUIRE(run.exit_code == 0);
  const auto summary = json::parse(read(d.dir / "best" / "summary.json"));
  const std::string pareto = read(d.dir / "out" / "pareto.csv");
  std::ostringstream objective;
  objective << summary["cost"]["owned"]["usd_per_million_tokens"].dump();
  CHECK_THAT(pareto, Catch::Contains(objective.str()));
  CHECK(best["cluster"]["nodes"] == best["workload"]["training"][0]["nodes"]);
  // Run again into the same folder: nothing is simulated again, the same bytes come out.
  const auto again = run_dcsim(d.command());
  REQUIRE(again.exit_code == 0);
  CHECK(read(d.dir / "out" / "evaluations.csv") == csv);
}

TEST_CASE("dcsim design exits 5 and names the nearest miss when no candidate meets the constraints", "[design][cli]") {
  const DesignDir d("none", {{"constraints", {{{"key", "jobs/llama3-8b/tokens_per_s"}, {"min", 1e9}}}}});
  const auto r = run_dcsim(d.command());
  INFO(r.output);
  CHECK(r.exit_code == 5);
  CHECK_THAT(r.output, Catch::Contains("no candidate met the constraints") &&
                           Catch::Contains("nearest: cluster.nodes=4") && Catch::Contains("< min 1e+09"));
  CHECK(fs::exists(d.dir / "out" / "evaluations.csv"));
}

TEST_CASE("dcsim design refuses a bad design file with exit 2 at its pointer and writes nothing", "[design][cli]") {
  SECTION("a summary key no run reports") {
    const DesignDir d("key", {{"objectives", {{{"key", "cost/owned/usd_per_milion_tokens"}}}}});
    const auto r = run_dcsim(d.command());
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("design.json:/objectives/0/key") &&
                             Catch::Contains("did you mean 'cost/owned/usd_per_million_tokens'"));
    CHECK_FALSE(fs::exists(d.dir / "out"));
  }
  SECTION("an unknown strategy") {
    const DesignDir d("strategy", {{"strategy", {{"name", "simulated_annealing"}}}});
    const auto r = run_dcsim(d.command());
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("unknown search strategy 'simulated_annealing'; valid: "));
    CHECK_FALSE(fs::exists(d.dir / "out"));
  }
  SECTION("a design none of whose candidates loads") {
    const DesignDir d("noload", {{"set", {"workload.training.0.parallelism.tp=3"}}});
    const auto r = run_dcsim(d.command());
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("design.json:/set: no candidate of 3 tried loads"));
    CHECK_FALSE(fs::exists(d.dir / "out"));
  }
}

TEST_CASE("every shipped design file passes its dry run", "[design][cli]") {
  // The designs in scenarios/designs stay runnable as the scenario format and the summary change.
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(std::string(DCSIM_SOURCE_DIR) + "/scenarios/designs")) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    const auto r = run_dcsim("design " + entry.path().string() + " --dry-run");
    INFO(entry.path().string() << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("evaluations planned"));
  }
  CHECK(count >= 2);
}
