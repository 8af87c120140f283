// Issue 15, item 14: the cooling and power-delivery assumptions are scenario keys; each reaches
// the facility model, a default left out is sized with the cluster, bad values name their key.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "scenario_test_support.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

using testing::with_facility;
using testing::load_doc;

TEST_CASE("facility cooling keys reach the model", "[tools][scenario][facility]") {
  const auto s = load_doc(with_facility(json::parse(R"({
    "on_shortfall": "error",
    "pdu_efficiency": 0.99,
    "ups": {"no_load_loss": 0.01, "proportional_loss": 0.03, "square_law_loss": 0.004, "capacity": "500 kW"},
    "throttle": {"max_operating": "85 C", "slowdown": "88 C", "shutdown": "91 C", "slowdown_clock": 0.6,
                 "restart_below": "75 C"},
    "cooling": {"rdhx_effectiveness": 0.8, "rdhx_passive_capacity": "30 kW", "rdhx_fan_power": "1.5 kW",
                "crah_capacity": "120 kW", "crah_fan_fraction": 0.03, "cdu_pump_power": "300 W"},
    "plant": {"water_flow_kg_per_s_per_rack": 1.5, "chiller_capacity": "2 MW"}})")));
  REQUIRE(s.facility);
  const auto& f = *s.facility;
  CHECK(f.shortfall_is_error);
  CHECK(f.pdu_efficiency == 0.99);
  CHECK(f.ups_no_load_loss == 0.01);
  CHECK(f.ups_proportional_loss == 0.03);
  CHECK(f.ups_square_law_loss == 0.004);
  CHECK(f.ups_capacity_w == 500e3);
  CHECK(f.max_operating_c == 85.0);
  CHECK(f.slowdown_c == 88.0);
  CHECK(f.shutdown_c == 91.0);
  CHECK(f.slowdown_clock_factor == 0.6);
  CHECK(f.restart_below_c == 75.0);
  CHECK(f.rdhx_effectiveness == 0.8);
  CHECK(f.rdhx_passive_capacity_w == 30e3);
  CHECK(f.rdhx_fan_power_w == 1.5e3);
  CHECK(f.crah_capacity_w == 120e3);
  CHECK(f.crah_fan_w_per_w == 0.03);
  CHECK(f.cdu_pump_power_w_per_rack == 300.0);
  CHECK(f.facility_water_flow_kg_per_s_per_rack == 1.5);
  CHECK(f.chiller_capacity_w == 2e6);
}

TEST_CASE("facility cooling keys left out: documented defaults, sizes left to the model (with the cluster)",
          "[tools][scenario][facility]") {
  const auto s = load_doc(with_facility(json::object()));
  REQUIRE(s.facility);
  const auto& f = *s.facility;
  CHECK_FALSE(f.shortfall_is_error);
  CHECK_FALSE(f.crah_capacity_w.has_value());  // no "unlimited" air handler: sized per zone
  CHECK_FALSE(f.chiller_capacity_w.has_value());
  CHECK_FALSE(f.ups_capacity_w.has_value());
  CHECK(f.facility_water_flow_kg_per_s_per_rack == 1.0);
  CHECK(f.rdhx_effectiveness == 0.9);
  CHECK(f.max_operating_c == 87.0);
}

// Each GPU's driver enforces its own limits: an A100 SXM4 starts to fall back at 85 C, an H100
// SXM at 87 C (nvidia-smi -q outputs cited in gpu_presets.cpp). A threshold left out follows
// the node's preset and the resolved document states it; one that is set wins.
TEST_CASE("throttle thresholds left out follow the node's GPU preset", "[tools][scenario][facility]") {
  json a100 = with_facility(json::object());
  a100["cluster"]["node"] = {{"preset", "dgx-a100"}};
  const auto s = load_doc(a100);
  REQUIRE(s.facility);
  CHECK(s.facility->max_operating_c == 85.0);
  CHECK(s.facility->slowdown_c == 89.0);
  CHECK(s.facility->shutdown_c == 92.0);
  CHECK(s.resolved["facility"]["throttle"]["max_operating"] == 85.0);

  const auto h100 = load_doc(with_facility(json::object()));
  CHECK(h100.facility->max_operating_c == 87.0);
  CHECK(h100.resolved["facility"]["throttle"]["max_operating"] == 87.0);

  a100["facility"] = {{"throttle", {{"max_operating", "80 C"}}}};
  const auto set = load_doc(a100);
  CHECK(set.facility->max_operating_c == 80.0);
  CHECK(set.facility->slowdown_c == 89.0);
}

TEST_CASE("facility cooling keys: bad values name their key", "[tools][scenario][facility]") {
  CHECK_THROWS_WITH(load_doc(with_facility({{"on_shortfall", "panic"}})), Catch::Contains("/facility/on_shortfall"));
  CHECK_THROWS_WITH(load_doc(with_facility({{"cooling", {{"rdhx_effectiveness", 1.5}}}})),
                    Catch::Contains("/facility/cooling/rdhx_effectiveness"));
  CHECK_THROWS_WITH(load_doc(with_facility({{"plant", {{"water_flow_kg_per_s_per_rack", 0}}}})),
                    Catch::Contains("/facility/plant/water_flow_kg_per_s_per_rack"));
}

TEST_CASE("CDU keys and the cdu_failure fault reach the facility model", "[tools][scenario][facility]") {
  json doc = with_facility(json::parse(R"({
    "cooling": {"cdu_rated_flow_kg_per_s": 12, "cdu_redundant_units": 2},
    "zones": [{"name": "row-a", "racks": [0], "cdus": 3}]})"));
  doc["faults"] = json::parse(R"([{"at": "1 h", "kind": "cdu_failure", "zone": 0, "count": 2, "duration": "30 min"}])");
  const auto s = load_doc(doc);
  REQUIRE(s.facility);
  CHECK(s.facility->cdu_rated_flow_kg_per_s == 12.0);
  CHECK(s.facility->cdu_redundant_units == 2);
  REQUIRE(s.facility->zones.size() == 1);
  CHECK(s.facility->zones[0].cdus == 3);
  REQUIRE(s.facility->faults.size() == 1);
  CHECK(s.facility->faults[0].kind == models::facility::PlantFault::Kind::kCduFailure);
  CHECK(s.facility->faults[0].count == 2);
  doc["faults"][0]["count"] = 0;
  CHECK_THROWS_WITH(load_doc(doc), Catch::Contains("/faults/0/count"));
  doc["faults"][0]["count"] = 1;
  doc["faults"][0]["flow_fraction"] = 0.5;  // a pump-failure key on a CDU failure
  CHECK_THROWS_WITH(load_doc(doc), Catch::Contains("/faults/0/flow_fraction"));
}
