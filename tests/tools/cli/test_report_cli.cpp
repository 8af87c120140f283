// `dcsim report` as a user meets it: a fresh run's page lands in the run directory; a missing or
// foreign directory and an -o into nowhere are exit 2 with the reason, and nothing is written.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::source_dir;
using dcsim::cli_testing::temp_path;

TEST_CASE("report: a fresh run's page is written into its directory", "[cli][report]") {
  const auto out = temp_path("report-run");
  fs::remove_all(out);
  REQUIRE(run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " + out.string())
              .exit_code == 0);
  const auto r = run_dcsim("report " + out.string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("report written to " + (out / "report.html").string()));
  CHECK(fs::file_size(out / "report.html") > 10'000);
  fs::remove_all(out);
}

TEST_CASE("report: bad run directories and targets exit 2 and write nothing", "[cli][report]") {
  const auto out = temp_path("report-bad");
  fs::remove_all(out);
  fs::create_directories(out / "not-a-run");
  auto r = run_dcsim("report " + (out / "missing").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("does not exist"));
  r = run_dcsim("report " + (out / "not-a-run").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("not a dcsim run directory"));
  CHECK(fs::is_empty(out / "not-a-run"));
  std::ofstream(out / "not-a-run" / "summary.json") << "{\"dcsim_version\": \"0.1.0\"}";
  std::ofstream(out / "not-a-run" / "trace.h5") << "garbage";
  r = run_dcsim("report " + (out / "not-a-run").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("cannot open trace"));
  CHECK_FALSE(fs::exists(out / "not-a-run" / "report.html"));
  r = run_dcsim("report " + (out / "not-a-run").string() + " -o " +
                (out / "nowhere" / "r.html").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("does not exist"));
  CHECK_FALSE(fs::exists(out / "nowhere"));
  fs::remove_all(out);
}

TEST_CASE("report: a cluster above 1,024 racks names its rack groups instead of plotting them", "[cli][report]") {
  // 4,100 nodes four to a rack: 1,025 racks, so /outputs/rack_power auto writes groups of
  // ceil(1,025 / 1,024) = 2 racks, 513 series (the last holds one rack).
  const auto out = temp_path("report-rack-groups");
  fs::remove_all(out);
  REQUIRE(run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q --set cluster.nodes=4100 -o " +
                    out.string())
              .exit_code == 0);
  REQUIRE(run_dcsim("report " + out.string()).exit_code == 0);
  std::ifstream in(out / "report.html");
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(html, Catch::Contains("513 groups of consecutive racks"));
  fs::remove_all(out);
}
