// A sweep is validated by the variants that will run, not by each value alone over the base: a
// zip of values that are valid only in pairs passes; a grid combination that does not load is
// named with its values; a bad value is still reported once, at its own pointer.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tools/sweep/sweep_spec.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace sw = dcsim::tools::sweep;
using nlohmann::json;

namespace {

const std::string kTiny = std::string(DCSIM_SOURCE_DIR) + "/tests/data/sweeps/tiny.json";

// tiny.json: 4 nodes; its generator asks for 1 or 2 nodes per job; seed 3.
std::vector<std::string> errors_of(const std::string& body) {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const json doc = json::parse(R"({"name": "t", "scenario": ")" + kTiny + "\", " + body + "}");
  const sw::Sweep sweep = sw::parse_sweep(doc, "s.json", ".");
  try {
    sw::validate_sweep(sweep, registries, 2, dcsim::tools::scenario::ResourceLimits::for_this_machine());
  } catch (const dcsim::sim::InputErrors& e) {
    return e.messages();
  }
  return {};
}

}  // namespace

TEST_CASE("sweep: zip validates the pairs that run, not each value over the base", "[sweep]") {
  // 1 node alone is too small for the base's jobs of 2 nodes, but it runs with jobs of 1 node.
  CHECK(errors_of(R"("combine": "zip", "parameters": [
      {"path": "cluster.nodes", "values": [1, 2]},
      {"path": "workload.generators.0.nodes", "values": [[1], [1, 2]]}])")
            .empty());
  // A pair that does not load is named as the variant, with its values.
  const auto errors = errors_of(R"("combine": "zip", "parameters": [
      {"path": "cluster.nodes", "values": [1, 2]},
      {"path": "workload.generators.0.nodes", "values": [[1, 2], [1, 2]]}])");
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::StartsWith("s.json:/parameters: variant v0000 (cluster.nodes=1, "
                                          "workload.generators.0.nodes=[1,2], seed=3): ") &&
                            Catch::Contains("/workload/generators/0/nodes/1: expected at most 1 nodes"));
}

TEST_CASE("sweep: a grid is validated by its combinations - a value bad everywhere is reported at its pointer",
          "[sweep]") {
  // nodes=1 fails only beside jobs of 2 nodes: that combination (both replications) is named,
  // once; 1 with [1] and 4 with either are fine.
  auto errors = errors_of(R"("replications": 2, "parameters": [
      {"path": "cluster.nodes", "values": [1, 4]},
      {"path": "workload.generators.0.nodes", "values": [[1], [1, 2]]}])");
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::StartsWith("s.json:/parameters: variant v0002 (cluster.nodes=1, "
                                          "workload.generators.0.nodes=[1,2], seed=3): ") &&
                            Catch::EndsWith(" (and 1 more variant)"));
  // 0 nodes fails in every variant that has it and in no other: its pointer, once, whatever the
  // other parameter; and a bad utilisation likewise, though one variant has both.
  errors = errors_of(R"("parameters": [{"path": "cluster.nodes", "values": [2, 0]},
                                        {"path": "workload.generators.0.gpu_utilization", "values": [1.5, 0.5]}])");
  REQUIRE(errors.size() == 2);
  CHECK_THAT(errors[0], Catch::StartsWith("s.json:/parameters/1/values/0: workload.generators.0.gpu_utilization=1.5: "));
  CHECK_THAT(errors[1], Catch::StartsWith("s.json:/parameters/0/values/1: cluster.nodes=0: ") &&
                            Catch::Contains("/cluster/nodes: expected a positive integer, got 0"));
}

TEST_CASE("sweep: the base need not load alone when every variant does - when none does, the base is named",
          "[sweep]") {
  // The fixed overrides break the base (1 node, jobs of 2), the swept value repairs it.
  CHECK(errors_of(R"("set": ["cluster.nodes=1"], "parameters": [{"path": "cluster.nodes", "values": [2, 4]}])")
            .empty());
  const auto errors =
      errors_of(R"("set": ["cluster.nodes=-1"], "parameters": [{"path": "workload.generators.0.count", "values": [1, 2]}])");
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::StartsWith("s.json:/set: ") && Catch::Contains("/cluster/nodes: expected a positive "
                                                                              "integer, got -1"));
}

TEST_CASE("sweep: a variant whose models do not build is refused before any runs, as validate refuses it", "[sweep]") {
  // tiny-fabric.json: 4 nodes on a 4-host fabric. 5 nodes load (each key is in range) but the
  // fabric has 4 hosts: `dcsim validate` refuses that when it builds the models, and so must the
  // sweep (its --dry-run said ok, then the variant failed at run time).
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const json doc = json::parse(R"({"name": "t", "scenario": ")" + std::string(DCSIM_SOURCE_DIR) +
                               R"(/tests/data/sweeps/tiny-fabric.json", "parameters": [
      {"path": "cluster.nodes", "values": [4, 5, 2]}]})");
  const sw::Sweep sweep = sw::parse_sweep(doc, "s.json", ".");
  std::vector<std::string> errors;
  try {
    sw::validate_sweep(sweep, registries, 2, dcsim::tools::scenario::ResourceLimits::for_this_machine());
  } catch (const dcsim::sim::InputErrors& e) {
    errors = e.messages();
  }
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::StartsWith("s.json:/parameters/0/values/1: cluster.nodes=5: ") &&
                            Catch::Contains("the fabric has 4 hosts but the cluster has 5 nodes"));
}
