// `dcsim report` as a user meets it: a fresh run's page lands in the run directory; a missing or
// foreign directory and an -o into nowhere are exit 2 with the reason, and nothing is written.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <regex>

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

TEST_CASE("costs: a short run priced over a long horizon says so in the headline and the report, with the capex "
          "by category and money with separators",
          "[cli][report][economics]") {
  const auto out = temp_path("report-costs");
  fs::remove_all(out);
  // The shipped 3-year TCO scenario, one hour of it simulated but the whole horizon asked for.
  const auto run = run_dcsim("run " + source_dir() +
                             "/scenarios/tco-bare-metal-vs-cloud.json --set 'duration=1 h' "
                             "--set 'economics.horizon=1095.75 d' -o " + out.string());
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Catch::Contains("  priced      1,095.75 d (36 billing months), the horizon asked for; the run "
                                         "simulated 1.00 h of it (0.0038%)"));
  CHECK_THAT(run.output, Catch::Contains("  WARNING     the run simulated 1 h, 0.0038% of the 1095 d 18 h horizon"));
  // Against each offer: on demand for an hour's GPU-hours never catches up with three years of
  // owning; the 3-year commitment bills all 256 GPUs for the whole horizon, so owning wins in its
  // last month.
  CHECK_THAT(run.output, Catch::Contains("  break-even  owning catches up with aws-p5-on-demand never, aws-p5-reserved-3y in month 36"));
  CHECK_THAT(run.output, Catch::Contains("  capex       $11,") && Catch::Contains(": servers $10,032,000, switches $"));
  const auto r = run_dcsim("report " + out.string());
  REQUIRE(r.exit_code == 0);
  std::ifstream in(out / "report.html");
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(html, Catch::Contains("Warning: the run simulated 1 h"));
  CHECK_THAT(html, Catch::Contains("<th>capex</th>") && Catch::Contains("<td>cables and optics</td>") &&
                       Catch::Contains("<th>owned TCO</th>") && Catch::Contains("<td>electricity</td>"));
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">$10,032,000</td>"));
  // No money printed as a bare run of digits ("12345 USD").
  for (auto at = html.find(" USD"); at != std::string::npos; at = html.find(" USD", at + 1)) {
    INFO(html.substr(at < 20 ? 0 : at - 20, 30));
    CHECK(!(at >= 5 && std::all_of(html.begin() + static_cast<long>(at) - 5, html.begin() + static_cast<long>(at),
                                   [](char c) { return c >= '0' && c <= '9'; })));
  }

  // The same hour without a horizon prices its own span, without a warning.
  fs::remove_all(out);
  const auto own = run_dcsim("run " + source_dir() + "/scenarios/tco-bare-metal-vs-cloud.json --set 'duration=1 h' -o " +
                             out.string());
  REQUIRE(own.exit_code == 0);
  CHECK_THAT(own.output, Catch::Contains("  priced      1.00 h (1 billing month), the run's own span"));
  CHECK_THAT(own.output, !Catch::Contains("WARNING"));
  // An hour of a 3-year depreciation leaves nearly all the capex as book value, a credit: the
  // owned TCO's shares are of the costs before it (capex about 100%, the credit about -100%), not
  // of the small net total (where the capex was millions of percent), and one month is singular.
  REQUIRE(run_dcsim("report " + out.string()).exit_code == 0);
  std::ifstream own_in(out / "report.html");
  const std::string own_html((std::istreambuf_iterator<char>(own_in)), std::istreambuf_iterator<char>());
  CHECK_THAT(own_html, Catch::Contains("<th>share of the costs before credits</th>"));
  CHECK_THAT(own_html, Catch::Contains("(1 billing month)"));
  const std::regex share(R"(<td class="num">(-?[0-9.]+(?:e[+-]?[0-9]+)?)%</td>)");
  for (auto it = std::sregex_iterator(own_html.begin(), own_html.end(), share); it != std::sregex_iterator(); ++it) {
    INFO((*it)[0].str());
    CHECK(std::abs(std::stod((*it)[1].str())) <= 100.0);
  }
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
