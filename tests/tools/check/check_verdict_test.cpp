// Judging a summary against checks: each verdict's pass or fail, with the margin stated.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/check/check_verdict.hpp"
#include "tools/check/expectations.hpp"

using dcsim::tools::check::judge;
using dcsim::tools::check::parse_expectations;
using nlohmann::json;

namespace {

// One run's checks, parsed as `dcsim check` parses them.
dcsim::tools::check::RunExpectation run_with(const json& checks) {
  const json doc = {{"name", "t"}, {"runs", {{{"name", "r"}, {"scenario", "s.json"}, {"checks", checks}}}}};
  return parse_expectations(doc, "<test>", ".").runs.at(0);
}

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
  CHECK(v[3].detail == "no such value in the summary");
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
