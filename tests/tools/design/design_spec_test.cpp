// The design file as a user writes it: variables, couplings, constraints, objectives and
// fidelities read into a Design, every mistake refused at its JSON pointer (all of them at once),
// and the values a point gives, couplings included, worked out by hand.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/design/design_spec.hpp"

namespace dd = dcsim::tools::design;
using nlohmann::json;

namespace {

json base() {
  return json::parse(R"({
    "name": "t", "scenario": "s.json",
    "variables": [
      { "path": "fabric.topology", "values": ["fat_tree", "leaf_spine"] },
      { "path": "cluster.nodes", "range": { "low": 16, "high": 64, "step": 16 } },
      { "path": "facility.gpu_power_limit", "range": { "low": 400, "high": 700, "unit": "W", "grid_points": 4 } } ],
    "couplings": [
      { "path": "workload.training.0.nodes", "from": "cluster.nodes" },
      { "path": "cluster.nodes_per_rack", "from": "facility.gpu_power_limit", "scale": -0.01, "offset": 12,
        "round": "down", "min": 1 },
      { "path": "fabric.k", "from": "fabric.topology", "map": { "fat_tree": 64, "leaf_spine": 32 } } ],
    "constraints": [ { "key": "power/peak_w", "max": 4e6 } ],
    "objectives": [ { "key": "cost/owned/usd_per_million_tokens" }, { "key": "jobs/a/tokens_per_s", "goal": "maximize" } ]
  })");
}

std::string errors_of(const json& doc) {
  try {
    dd::parse_design(doc, "d.json", "/base");
  } catch (const dcsim::sim::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a design file reads into variables of three kinds, couplings in order, and one fidelity by default",
          "[design]") {
  const auto d = dd::parse_design(base(), "d.json", "/base");
  CHECK(d.scenario == "/base/s.json");
  REQUIRE(d.variables.size() == 3);
  CHECK(d.variables[0].kind == dd::SearchVariable::Kind::kChoice);
  CHECK(d.variables[1].kind == dd::SearchVariable::Kind::kInteger);
  CHECK(d.variables[2].kind == dd::SearchVariable::Kind::kContinuous);
  CHECK(d.couplings.size() == 3);
  CHECK_FALSE(d.objectives[0].maximize);  // minimise unless told
  CHECK(d.objectives[1].maximize);
  REQUIRE(d.fidelities.size() == 1);  // no ladder: every candidate is the full scenario
  CHECK(d.fidelities[0].name == "full");
  CHECK(d.strategy == "grid");
}

TEST_CASE("a point's values: choices by index, integers and units as written, couplings computed from them",
          "[design]") {
  const auto d = dd::parse_design(base(), "d.json", "/base");
  // leaf_spine, 32 nodes, 500 W.
  const auto values = dd::design_values(d, {1.0, 32.0, 500.0});
  REQUIRE(values.size() == 6);
  CHECK(values[0].second == "leaf_spine");
  CHECK(values[1].second == 32);
  CHECK(values[2].second == "500 W");
  CHECK(values[3].second == 32);  // an integer copied stays an integer
  CHECK(values[4].second == 7);   // floor(-0.01 x 500 + 12) = 7 racks' worth: 12 - 5
  CHECK(values[5].second == 32);  // the map's value for leaf_spine
  // At 1,200 W the linear coupling would give 0; its min holds it at 1.
  auto wide = base();
  wide["variables"][2]["range"]["high"] = 1200;
  const auto d2 = dd::parse_design(wide, "d.json", "/base");
  CHECK(dd::design_values(d2, {0.0, 16.0, 1200.0})[4].second == 1);
  const auto overrides = dd::candidate_overrides(d, {0.0, 16.0, 400.0}, 0, 9);
  CHECK(overrides.front() == "fabric.topology=\"fat_tree\"");
  CHECK(overrides.back() == "seed=9");
}

TEST_CASE("every mistake in a design file is refused at its pointer, all at once", "[design]") {
  auto doc = base();
  doc["variables"][1]["range"]["high"] = 8;                   // inverted
  doc["couplings"][0]["from"] = "workload.training.0.nodes";  // names itself
  doc["couplings"][1]["from"] = "cluster.racks";              // not a variable
  doc["constraints"][0].erase("max");                         // neither min nor max
  doc["objectives"][0]["goal"] = "lowest";
  doc["colour"] = "red";
  const std::string e = errors_of(doc);
  CHECK_THAT(e, Catch::Contains("d.json:/variables/1/range/high: expected high >= low (16), got 8"));
  CHECK_THAT(e, Catch::Contains("d.json:/couplings/0/from: 'workload.training.0.nodes' names the coupling itself"));
  CHECK_THAT(e, Catch::Contains("d.json:/couplings/1/from: 'cluster.racks' is not a variable or an earlier coupling"));
  CHECK_THAT(e, Catch::Contains("d.json:/constraints/0: expected min, max or both"));
  CHECK_THAT(e, Catch::Contains("d.json:/objectives/0/goal: expected \"minimize\" or \"maximize\""));
  CHECK_THAT(e, Catch::Contains("colour"));
}

TEST_CASE("a design refuses empty spaces, repeated choices, fixed continuous ranges and missing objectives",
          "[design]") {
  auto doc = base();
  doc["variables"][0]["values"] = json::array({"fat_tree", "fat_tree"});
  doc["variables"][2]["range"]["high"] = 400;
  doc.erase("objectives");
  const std::string e = errors_of(doc);
  CHECK_THAT(e, Catch::Contains("/variables/0/values/1: \"fat_tree\" is listed twice"));
  CHECK_THAT(e, Catch::Contains("/variables/2/range/high: a continuous range needs high > low"));
  CHECK_THAT(e, Catch::Contains("/objectives: expected at least one objective"));
  auto none = base();
  none["variables"] = json::array();
  CHECK_THAT(errors_of(none), Catch::Contains("/variables: expected a non-empty array of variables"));
  auto integer = base();
  integer["variables"][1]["range"]["step"] = 0.5;
  CHECK_THAT(errors_of(integer), Catch::Contains("/variables/1/range/step: an integer variable needs an integer low"));
}

TEST_CASE("a coupling's map must hold every value its source takes", "[design]") {
  auto doc = base();
  doc["couplings"][2]["map"].erase("leaf_spine");
  const auto d = dd::parse_design(doc, "d.json", "/base");
  CHECK_THROWS_WITH(dd::design_values(d, {1.0, 16.0, 400.0}),
                    Catch::Contains("d.json:/couplings/2/map: no value for fabric.topology = \"leaf_spine\""));
}
