// A check's path in a summary: keys joined by "/", headline rows by index or by name.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tools/check/summary_path.hpp"

using dcsim::tools::check::leaf_paths;
using dcsim::tools::check::lookup;
using nlohmann::json;

namespace {

const json kSummary = json::parse(R"({
  "scenario": "s", "seed": 3, "overrides": ["a=1"], "units": {"network/fct_p99_s": "s"},
  "network": { "fct_p99_s": 0.02 },
  "jobs": [ { "name": "llama", "step_time_s": 3.5 }, { "name": "bert", "step_time_s": 0.4 },
            { "name": "dup", "step_time_s": 1 }, { "name": "dup", "step_time_s": 2 },
            { "name": "7", "step_time_s": 9 } ] })");

}  // namespace

TEST_CASE("a headline row is addressed by its name as well as by its index", "[tools][check]") {
  CHECK(*lookup(kSummary, "network/fct_p99_s").value == 0.02);
  CHECK(*lookup(kSummary, "jobs/0/step_time_s").value == 3.5);
  CHECK(*lookup(kSummary, "jobs/llama/step_time_s").value == 3.5);
  CHECK(*lookup(kSummary, "jobs/bert/step_time_s").value == 0.4);
  // Digits are an index: the job named "7" is row 4.
  CHECK(*lookup(kSummary, "jobs/4/step_time_s").value == 9);
  CHECK(lookup(kSummary, "jobs/7/step_time_s").problem == "jobs has 5 rows, no row 7");
  // A name two rows share names neither.
  const auto dup = lookup(kSummary, "jobs/dup/step_time_s");
  CHECK(dup.value == nullptr);
  CHECK(dup.problem == "2 rows of jobs are named 'dup' (jobs/2, jobs/3): address one by its index");
  CHECK(lookup(kSummary, "jobs/gpt/step_time_s").problem == "no row of jobs is named 'gpt'");
  CHECK(lookup(kSummary, "network/fct_p99").problem == "no key 'fct_p99' in network");
  CHECK(lookup(kSummary, "network/fct_p99_s/x").problem == "network/fct_p99_s is a single value, it has no 'x'");
  // No JSON-pointer escapes to trip over.
  CHECK(lookup(kSummary, "network/a~b").problem == "no key 'a~b' in network");
}

TEST_CASE("the paths a check can name: leaves, rows by index and by unique name, no metadata", "[tools][check]") {
  const auto paths = leaf_paths(kSummary);
  const std::vector<std::string> expected = {
      "jobs/0/name", "jobs/0/step_time_s", "jobs/1/name", "jobs/1/step_time_s", "jobs/2/name", "jobs/2/step_time_s",
      "jobs/3/name", "jobs/3/step_time_s", "jobs/4/name", "jobs/4/step_time_s", "jobs/bert/name",
      "jobs/bert/step_time_s", "jobs/llama/name", "jobs/llama/step_time_s", "network/fct_p99_s", "scenario", "seed"};
  CHECK(paths == expected);
}
