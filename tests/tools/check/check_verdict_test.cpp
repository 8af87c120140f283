// Judging a summary against checks: each verdict's pass or fail, with the margin stated.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/check/check_verdict.hpp"
#include "tools/check/expectations.hpp"

using dcsim::tools::check::judge;
using dcsim::tools::check::parse_expectations;
using nlohmann::json;

namespace {

// One run's checks, parsed as `dcsim check` parses them; baselines relative to `dir`.
dcsim::tools::check::RunExpectation run_with(const json& checks, const std::string& dir = ".") {
  const json doc = {{"name", "t"}, {"runs", {{{"name", "r"}, {"scenario", "s.json"}, {"checks", checks}}}}};
  return parse_expectations(doc, "<test>", dir).runs.at(0);
}

// A folder with baseline.json: a step time of 4 s for job "llama", a throughput of 1000 tokens/s.
struct BaselineDir {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("dcsim-check-" + std::to_string(::getpid()));
  BaselineDir() {
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "baseline.json") << R"({ "jobs": [ { "name": "llama", "step_time_s": 4.0,
                                                            "tokens_per_s": 1000 } ] })";
  }
  ~BaselineDir() { std::filesystem::remove_all(dir); }
};

const json kSummary = json::parse(R"({
  "network": { "fct_p99_s": 0.02, "flows_failed": 0, "switches": 20 },
  "workload": { "jobs_unfinished": 1, "jobs_failed": 0 },
  "engine": { "fingerprint": "abc" } })");

}  // namespace

TEST_CASE("bounds pass inside and fail outside, saying by how much", "[tools][check]") {
  const auto v = judge(run_with(json::parse(R"([ { "path": "network/fct_p99_s", "max": 0.025 },
      { "path": "network/fct_p99_s", "max": 0.016 }, { "path": "network/fct_p99_s", "min": 0.01, "max": 0.03 },
      { "path": "network/nope", "max": 1 } ])")),
                       kSummary);
  REQUIRE(v.size() == 4);
  CHECK(v[0].passed);
  CHECK(v[0].detail == "inside by 0.005 (20.0% of the limit)");  // 0.025 - 0.02, over 0.025
  CHECK_FALSE(v[1].passed);
  CHECK(v[1].detail == "above the maximum by 0.004 (25.0% of the limit)");
  CHECK(v[2].passed);
  CHECK(v[2].detail == "inside by 0.01 (33.3% of the limit)");  // nearest bound: 0.03 is 0.01 away
  CHECK_FALSE(v[3].passed);  // a value the run does not report fails: the gate cannot vouch for it
  CHECK(v[3].detail == "no such value in the summary (no key 'nope' in network)");
}

TEST_CASE("equals, fingerprint, failed flows and unfinished jobs", "[tools][check]") {
  const auto v = judge(run_with(json::parse(R"([ { "path": "network/switches", "equals": 20 },
      { "fingerprint": "abc" }, { "fingerprint": "abd" }, { "no_failed_flows": true },
      { "no_unfinished_jobs": true } ])")),
                       kSummary);
  REQUIRE(v.size() == 5);
  CHECK(v[0].passed);
  CHECK(v[1].passed);
  CHECK_FALSE(v[2].passed);
  CHECK(v[3].passed);
  CHECK_FALSE(v[4].passed);
  CHECK(v[4].detail == "1 still waiting or running, 0 failed");
}

TEST_CASE("bad expectations name their pointer, all at once", "[tools][check]") {
  const auto error_of = [](const json& checks) -> std::string {
    try {
      run_with(checks);
    } catch (const dcsim::sim::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK_THAT(error_of(json::parse(R"([ { "path": "a/b", "maxx": 1 } ])")),
             Catch::Contains("<test>:/runs/0/checks/0/maxx: unknown key"));
  CHECK_THAT(error_of(json::parse(R"([ { "path": "a/b", "min": 2, "max": 1 } ])")),
             Catch::Contains("<test>:/runs/0/checks/0/min: expected min <= max"));
  CHECK_THAT(error_of(json::parse(R"([ { "path": "a/b", "baseline": "b.json" } ])")),
             Catch::Contains("needs rel_tol or abs_tol") && Catch::Contains("cannot open baseline summary"));
  CHECK_THAT(error_of(json::parse(R"([ { "no_failed_flows": false } ])")),
             Catch::Contains("<test>:/runs/0/checks/0/no_failed_flows: expected true"));
  CHECK_THAT(error_of(json::parse(R"([ { "path": "a", "max": 1, "fingerprint": "x" } ])")),
             Catch::Contains("expected exactly one of"));
  CHECK_THAT(error_of(json::array()), Catch::Contains("<test>:/runs/0/checks: expected a non-empty array"));
}

TEST_CASE("one-sided baseline checks: an improvement passes, a regression beyond the allowance fails",
          "[tools][check]") {
  const BaselineDir b;
  // Step time 3.72 s against 4 s: 7% better. A two-sided 5% tolerance fails on it; "may not rise
  // more than 2%" passes. 4.1 s (+2.5%) is beyond 2% (4.08 s) but within 0.15 s.
  const auto judged = [&](double step_s, const json& check) {
    const json summary = {{"jobs", {{{"name", "llama"}, {"step_time_s", step_s}, {"tokens_per_s", 930}}}}};
    return judge(run_with(json::array({check}), b.dir.string()), summary).at(0);
  };
  const json base = {{"path", "jobs/llama/step_time_s"}, {"baseline", "baseline.json"}};
  json two = base, up = base, up_abs = base, both = base;
  two["rel_tol"] = 0.05;
  up["max_increase"] = "2%";
  up_abs["max_increase"] = 0.15;
  both["max_increase"] = "2%";
  both["max_decrease"] = "5%";
  CHECK_FALSE(judged(3.72, two).passed);
  const auto better = judged(3.72, up);
  CHECK(better.passed);
  CHECK(better.limit == "<= 4.08 (baseline 4 + 2%)");
  CHECK(better.detail == "below the baseline by 0.28 (-7.00%), any decrease allowed");
  const auto worse = judged(4.1, up);
  CHECK_FALSE(worse.passed);
  CHECK(worse.detail == "above the baseline by 0.1 (+2.50%), 0.08 allowed");
  CHECK(judged(4.1, up_abs).passed);
  CHECK(judged(4.1, up_abs).limit == "<= 4.15 (baseline 4 + 0.15)");
  // Both ways: 7% better is beyond a 5% decrease (a suspicious jump either way fails).
  CHECK_FALSE(judged(3.72, both).passed);
  CHECK(judged(3.72, both).limit == "[3.8, 4.08] (baseline 4 -5% +2%)");
  CHECK(judged(3.9, both).passed);
  // Throughput must not fall more than 5%: 930 tokens/s is 7% down.
  json tokens = {{"path", "jobs/0/tokens_per_s"}, {"baseline", "baseline.json"}, {"max_decrease", "5%"}};
  CHECK_FALSE(judged(4.0, tokens).passed);
}

TEST_CASE("bad one-sided checks name their pointer", "[tools][check]") {
  const BaselineDir b;
  const auto error_of = [&](const json& checks) -> std::string {
    try {
      run_with(checks, b.dir.string());
    } catch (const dcsim::sim::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  const auto with = [](const char* key, const json& value) {
    json c = {{"path", "jobs/llama/step_time_s"}, {"baseline", "baseline.json"}};
    c[key] = value;
    return json::array({c});
  };
  CHECK(error_of(with("max_increase", "2%")) == "no error");
  CHECK(error_of(with("max_increase", " 2.5 % ")) == "no error");
  for (const json& bad : {json("2"), json("-2%"), json(-1), json("two%"), json(true), json("%")}) {
    INFO(bad.dump());
    CHECK_THAT(error_of(with("max_increase", bad)),
               Catch::Contains("<test>:/runs/0/checks/0/max_increase: expected a number >= 0 (in the value's unit) or "
                               "a percentage of the baseline such as \"2%\", got " + bad.dump()));
  }
  json mixed = with("max_increase", "2%");
  mixed[0]["rel_tol"] = 0.05;
  CHECK_THAT(error_of(mixed), Catch::Contains("<test>:/runs/0/checks/0: rel_tol/abs_tol (within a tolerance either "
                                              "way) and max_increase/max_decrease (one way) exclude each other"));
  // A key of another form of check is not ignored.
  CHECK_THAT(error_of(json::parse(R"([ { "path": "a/b", "max": 1, "rel_tol": 0.1 } ])")),
             Catch::Contains("<test>:/runs/0/checks/0/rel_tol: not a key of a bounds check (its keys: path, min, max)"));
  CHECK_THAT(error_of(json::parse(R"([ { "path": "a/b", "baseline": "baseline.json" } ])")),
             Catch::Contains("needs rel_tol or abs_tol") && Catch::Contains("or max_increase or max_decrease"));
  // The baseline's value is found by the job's name too, or the check says why not: kept with the
  // check, not an error yet, because `dcsim check` first tells a mistyped path (with its guess
  // from what the run reports) from a baseline that lacks a value the run does report.
  const auto missing = run_with(json::parse(
      R"([ { "path": "jobs/gpt/step_time_s", "baseline": "baseline.json", "max_increase": "2%" } ])"), b.dir.string());
  REQUIRE(missing.checks.size() == 1);
  CHECK_THAT(missing.checks[0].baseline_problem,
             Catch::Contains("has no number at 'jobs/gpt/step_time_s': no row of jobs is named 'gpt'"));
  const auto v = judge(missing, kSummary);
  REQUIRE(v.size() == 1);
  CHECK_FALSE(v[0].passed);
}
