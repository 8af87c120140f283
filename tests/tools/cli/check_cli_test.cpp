// `dcsim check` as a CI job meets it: the shipped fabric gate passes; a failed check exits 3 with
// its JUnit failure; bad expectations exit 2 before anything runs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

namespace {

using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::temp_path;

const std::string kSource = DCSIM_SOURCE_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder holding an expectations file `file` with one run of `scenario` and `checks`
// (a JSON array's text), and whatever `extra_runs` (",{...}" run objects) add.
fs::path gate_dir(const std::string& name, const std::string& file, const std::string& scenario,
                  const std::string& checks, const std::string& extra_runs = "") {
  const auto out = temp_path(name);
  fs::remove_all(out);
  fs::create_directories(out);
  std::ofstream(out / file) << R"({ "name": ")" << name << R"(", "runs": [ { "name": "ft", "scenario": ")" << scenario
                            << R"(", "checks": )" << checks << " }" << extra_runs << " ] }";
  return out;
}

}  // namespace

TEST_CASE("check: the shipped fabric gate passes and writes JUnit XML", "[cli][check]") {
  const auto out = temp_path("check-gate");
  fs::remove_all(out);
  const auto r = run_dcsim("check " + kSource + "/scenarios/ci/fabric-gate.json -o " + (out / "runs").string() +
                           " --junit " + (out / "junit.xml").string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("2 runs, 8 checks, 0 failed"));
  CHECK(fs::exists(out / "runs" / "fat-tree-k4" / "summary.json"));
  CHECK(fs::exists(out / "runs" / "torus-4x4" / "trace.h5"));
  const std::string xml = read_file(out / "junit.xml");
  // 8 checks and the 2 runs, each a testcase with its time.
  CHECK_THAT(xml, Catch::Contains("<testsuites name=\"fabric regression") && Catch::Contains("tests=\"10\" failures=\"0\""));
  CHECK_THAT(xml, Catch::Matches("(.|\n)*<testcase classname=\"fat-tree-k4\" name=\"run [^\"]*fat-tree-vs-mesh.json\" "
                                 "time=\"[0-9]+\\.[0-9]{3}\"/>(.|\n)*"));
  CHECK_THAT(xml, Catch::Matches("(.|\n)*<testcase classname=\"torus-4x4\" name=\"network/makespan_s &lt;= 0.02\" "
                                 "time=\"[0-9]+\\.[0-9]{3}\"/>(.|\n)*"));
  fs::remove_all(out);
}

TEST_CASE("check: every shipped gate passes", "[cli][check]") {
  const auto out = temp_path("check-shipped");
  for (const auto& e : fs::directory_iterator(kSource + "/scenarios/ci")) {
    const auto name = e.path().filename().string();
    if (name.find("baseline") != std::string::npos || name.find("schema") != std::string::npos) continue;
    INFO(name);
    fs::remove_all(out);
    const auto r = run_dcsim("check " + e.path().string() + " -o " + out.string());
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains(", 0 failed"));
  }
  fs::remove_all(out);
}

TEST_CASE("check: a failed check exits 3 and says by how much - bad expectations exit 2", "[cli][check]") {
  const auto out = gate_dir("check-fail", "tight.json", kSource + "/scenarios/fat-tree-vs-mesh.json",
                            R"([ { "path": "network/fct_p99_s", "max": 0.02 }, { "no_failed_flows": true } ])");
  const auto r = run_dcsim("check " + (out / "tight.json").string() + " -o " + (out / "runs").string() + " --junit " +
                           (out / "junit.xml").string());
  CHECK(r.exit_code == 3);
  // p99 24.32 ms against 20 ms: 4.32 ms, 21.6% of the limit, over.
  CHECK_THAT(r.output, Catch::Contains("FAIL ft") && Catch::Contains("above the maximum by 0.00432342 (21.6% of the limit)"));
  CHECK_THAT(r.output, Catch::Contains("1 failed"));
  const std::string xml = read_file(out / "junit.xml");
  CHECK_THAT(xml, Catch::Contains("failures=\"1\"") && Catch::Contains("<failure message=\"got 0.0243234, expected &lt;= 0.02"));

  {
    std::ofstream(out / "bad.json") << R"({ "name": "bad", "runs": [ { "name": "ft", "scenario": "missing.json",
                                           "checks": [ { "path": "x", "max": 1, "min": 2 } ] } ] })";
  }
  const auto bad = run_dcsim("check " + (out / "bad.json").string() + " -o " + (out / "runs2").string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("bad.json:/runs/0/checks/0/min: expected min <= max"));
  CHECK_FALSE(fs::exists(out / "runs2"));
  fs::remove_all(out);
}

TEST_CASE("check: a mistyped path is exit 2 with a guess before anything runs", "[cli][check]") {
  const auto out = gate_dir("check-typo", "typo.json", kSource + "/scenarios/fat-tree-vs-mesh.json",
                            R"([ { "path": "network/fct_p99", "max": 0.02 }, { "path": "jobs/x/step_time_s", "max": 1 },
                                 { "path": "network/switches", "equals": 20 } ])");
  const auto r = run_dcsim("check " + (out / "typo.json").string() + " -o " + (out / "runs").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("typo.json:/runs/0/checks/0/path: 'network/fct_p99' is not a value this run "
                                       "reports; did you mean 'network/fct_p99_s'? under network/: "));
  // A fabric-only scenario has no jobs table.
  CHECK_THAT(r.output, Catch::Contains("typo.json:/runs/0/checks/1/path: 'jobs/x/step_time_s' is not a value this "
                                       "run reports; its sections: "));
  CHECK_THAT(r.output, !Catch::Contains("checks/2"));
  CHECK_FALSE(fs::exists(out / "runs"));
  // Against a baseline too: the mistyped path gets the run's guess, not "the baseline has no
  // number there" (the baseline lacks it because nothing reports it); a path the run reports but
  // the baseline lacks is the baseline's problem, at /baseline.
  std::ofstream(out / "baseline.json") << R"({ "network": { "fct_p99_s": 0.02 } })";
  std::ofstream(out / "typo-baseline.json") << R"({ "name": "t", "runs": [ { "name": "r", "scenario": ")" << kSource
                                            << R"(/scenarios/fat-tree-vs-mesh.json", "checks": [
      { "path": "network/fct_p99", "baseline": "baseline.json", "max_increase": "5%" },
      { "path": "network/fct_p50_s", "baseline": "baseline.json", "max_increase": "5%" } ] } ] })";
  const auto b = run_dcsim("check " + (out / "typo-baseline.json").string() + " -o " + (out / "runs").string());
  CHECK(b.exit_code == 2);
  CHECK_THAT(b.output, Catch::Contains("typo-baseline.json:/runs/0/checks/0/path: 'network/fct_p99' is not a value "
                                       "this run reports; did you mean 'network/fct_p99_s'?"));
  CHECK_THAT(b.output, !Catch::Contains("checks/0/baseline"));
  CHECK_THAT(b.output, Catch::Contains("typo-baseline.json:/runs/0/checks/1/baseline: the baseline baseline.json has "
                                       "no number at 'network/fct_p50_s'"));
  CHECK_FALSE(fs::exists(out / "runs"));
  // A JUnit file that cannot be written is found before the runs too.
  const auto junit = run_dcsim("check " + kSource + "/scenarios/ci/fabric-gate.json -o " + (out / "runs").string() +
                               " --junit " + (out / "missing" / "junit.xml").string());
  CHECK(junit.exit_code == 2);
  CHECK_THAT(junit.output, Catch::Contains("does not exist"));
  CHECK_FALSE(fs::exists(out / "runs"));
  fs::remove_all(out);
}

TEST_CASE("check: must not regress: an improvement passes a one-sided gate and fails a two-sided one - jobs by name",
          "[cli][check]") {
  // The baseline's makespan 7% above the run's 24.32 ms (the design got 7% faster); and the
  // quickstart's jobs by name.
  const auto out = gate_dir("check-one-sided", "gate.json", kSource + "/scenarios/fat-tree-vs-mesh.json", R"([
      { "path": "network/makespan_s", "baseline": "baseline.json", "max_increase": "2%" },
      { "path": "network/makespan_s", "baseline": "baseline.json", "rel_tol": 0.02 } ])",
                            R"(, { "name": "qs", "scenario": ")" + kSource + R"(/scenarios/quickstart.json", "checks": [
      { "path": "jobs/eval-sweep/state", "equals": "done" }, { "path": "jobs/finetune-llama3-8b/nodes", "equals": 4 },
      { "path": "jobs/0/nodes", "equals": 2 } ] })");
  std::ofstream(out / "baseline.json") << R"({ "network": { "makespan_s": 0.026154 } })";
  const auto r = run_dcsim("check " + (out / "gate.json").string() + " -o " + (out / "runs").string());
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("1 failed"));
  CHECK_THAT(r.output, Catch::Contains("pass ft") && Catch::Contains("below the baseline by 0.00183058 (-7.00%), any "
                                                                       "decrease allowed"));
  CHECK_THAT(r.output, Catch::Contains("FAIL ft") && Catch::Contains("below the baseline by 0.00183058 (-7.00%), "
                                                                       "0.00052308 allowed either way"));
  CHECK_THAT(r.output, Catch::Contains("pass qs               jobs/eval-sweep/state == done"));
  CHECK_THAT(r.output, Catch::Contains("pass qs               jobs/finetune-llama3-8b/nodes == 4"));
  // Rows are in the order the jobs ended: eval-sweep (2 nodes, 90 min) first.
  CHECK_THAT(r.output, Catch::Contains("pass qs               jobs/0/nodes == 2"));
  fs::remove_all(out);
}
