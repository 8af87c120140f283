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
  CHECK_THAT(xml, Catch::Contains("<testsuites name=\"fabric regression") && Catch::Contains("tests=\"8\" failures=\"0\""));
  fs::remove_all(out);
}

TEST_CASE("check: a failed check exits 3 and says by how much; bad expectations exit 2", "[cli][check]") {
  const auto out = temp_path("check-fail");
  fs::remove_all(out);
  fs::create_directories(out);
  const std::string scenario = kSource + "/scenarios/fat-tree-vs-mesh.json";
  {
    std::ofstream(out / "tight.json") << R"({ "name": "tight", "runs": [ { "name": "ft", "scenario": ")" << scenario
                                      << R"(", "checks": [ { "path": "network/fct_p99_s", "max": 0.02 },
                                                            { "no_failed_flows": true } ] } ] })";
  }
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
