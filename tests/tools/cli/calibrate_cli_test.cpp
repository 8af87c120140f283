// `dcsim calibrate` as a user runs it (issue 40, item 2): measurements in, a profile out that a
// scenario names, and exit 2 with the reason for anything it cannot use.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/tools/calibrate/calibrate_support.hpp"
#include "tests/tools/cli/cli_test_support.hpp"

using namespace dcsim::cli_testing;
using namespace dcsim::calibrate_testing;
namespace mc = dcsim::models::collective;
namespace mw = dcsim::models::workload;

namespace {

mw::SoftwareStack site_stack() {
  mw::SoftwareStack s = mw::nemo_25_02();
  s.communication.network_efficiency = 0.8;
  s.communication.nvlink_efficiency = 0.78;
  return s;
}

nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("dcsim calibrate writes a profile a scenario names, and the scenario then predicts the site",
          "[tools][cli][calibrate]") {
  const auto dir = fresh_dir("cli");
  const auto truth = site_stack();
  write_text(dir / "all_reduce_perf_1node.txt",
             nccl_tests_text("all_reduce_perf", mc::CollectiveOp::kAllReduce, 1, truth));
  write_text(dir / "all_gather_perf_2nodes.txt",
             nccl_tests_text("all_gather_perf", mc::CollectiveOp::kAllGather, 2, truth));
  const auto profile = dir / "site.profile.json";
  const auto r = run_dcsim("calibrate " + (dir / "all_reduce_perf_1node.txt").string() + " " +
                           (dir / "all_gather_perf_2nodes.txt").string() + " -o " + profile.string() +
                           " --fit nvlink_efficiency,network_efficiency");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("calibrated nemo-25.02"));
  CHECK_THAT(r.output, Catch::Contains("held out"));
  const auto p = read_json(profile);
  CHECK(p["software"]["stack"] == "nemo-25.02");
  CHECK(p["software"]["params"]["network_efficiency"].get<double>() == Approx(0.8).epsilon(0.01));
  CHECK(p["software"]["params"]["nvlink_efficiency"].get<double>() == Approx(0.78).epsilon(0.01));
  CHECK(p["calibration"]["measurements"].size() == 2);

  // The scenario that names the profile runs its collectives at the site's rates.
  write_text(dir / "site.json", R"({"name": "site", "cluster": {"nodes": 2, "node": {"preset": "hgx-h100"}},
    "software": {"profile": "site.profile.json"}})");
  const auto site = run_dcsim("collective " + (dir / "site.json").string() + " --op all_gather --sizes 1G --json");
  INFO(site.output);
  REQUIRE(site.exit_code == 0);
  const double measured_like = nlohmann::json::parse(site.output)[0]["time_s"].get<double>();
  const auto system = mc::make_collective_system(dcsim::models::hardware::hgx_h100(), 2, {});
  const double truth_s = mc::estimate_collective(registries().collective_algorithms, mc::CollectiveOp::kAllGather,
                                                 1 << 30, system, truth.collective_tuning())
                             .time_s;
  CHECK(measured_like == Approx(truth_s).epsilon(0.01));
  CHECK(run_dcsim("validate " + (dir / "site.json").string()).exit_code == 0);
}

TEST_CASE("dcsim calibrate refuses what it cannot use with exit 2 and writes nothing", "[tools][cli][calibrate]") {
  const auto dir = fresh_dir("cli-bad");
  const auto profile = dir / "p.json";
  auto r = run_dcsim("calibrate " + (dir / "missing.txt").string() + " -o " + profile.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("missing.txt"));
  CHECK_FALSE(std::filesystem::exists(profile));

  write_text(dir / "all_reduce_perf.txt",
             nccl_tests_text("all_reduce_perf", mc::CollectiveOp::kAllReduce, 1, mw::nemo_25_02()));
  r = run_dcsim("calibrate " + (dir / "all_reduce_perf.txt").string() + " -o " + profile.string() + " --fit bogus");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--fit: 'bogus' is not a software stack parameter"));
  CHECK_FALSE(std::filesystem::exists(profile));

  r = run_dcsim("calibrate " + (dir / "all_reduce_perf.txt").string() + " -o " + (dir / "no" / "p.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("no such folder"));

  r = run_dcsim("calibrate " + (dir / "all_reduce_perf.txt").string() + " -o " + profile.string() +
                " --stack nemo-1.0");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("unknown software stack 'nemo-1.0'"));

  // A scenario naming a profile that is not there points at the key.
  write_text(dir / "s.json", R"({"name": "s", "cluster": {"nodes": 1}, "software": {"profile": "gone.json"}})");
  r = run_dcsim("validate " + (dir / "s.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("s.json:/software/profile: gone.json: cannot open file"));
}
