// The headline's training lines: an MoE job's line says how much of its step is exposed expert
// all-to-all (issue 41; measured in flow mode), a dense job's line stays as it was.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/report/headline.hpp"

using dcsim::tools::report::headline_facts_from_resolved;
using dcsim::tools::report::headline_lines;

namespace {

std::vector<std::string> training_texts(const nlohmann::json& summary) {
  const auto facts = headline_facts_from_resolved({{"name", "x"}, {"cluster", {{"nodes", 256}}}}, 1);
  std::vector<std::string> out;
  for (const auto& line : headline_lines(facts, summary)) {
    if (line.label == "training") out.push_back(line.text);
  }
  return out;
}

nlohmann::json job(const std::string& name) {
  return {{"name", name}, {"step_time_s", 6.349}, {"tokens_per_s", 1321200.0}, {"tflops_per_gpu", 181.0},
          {"mfu", 0.092}, {"state", "done"},      {"steps_done", 2.0}};
}

}  // namespace

TEST_CASE("an MoE job's headline line shows its exposed all-to-all time, a dense one's does not",
          "[report][headline][moe]") {
  nlohmann::json summary = {{"jobs", {job("deepseek"), job("llama")}}};
  summary["training"]["jobs"]["deepseek"]["exposed_ep_s"] = 1.3343;
  const auto lines = training_texts(summary);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] ==
        "deepseek: step 6.349 s, all-to-all 1.334 s exposed, 1321.2k tokens/s, 181 TFLOP/s per GPU, MFU 9.2%; "
        "done, 2 steps");
  CHECK(lines[1] == "llama: step 6.349 s, 1321.2k tokens/s, 181 TFLOP/s per GPU, MFU 9.2%; done, 2 steps");
}
