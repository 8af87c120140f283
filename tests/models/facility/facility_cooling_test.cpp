// Issue 15, items 12-15: rear doors in series with the rack exhaust, a plant sized with the
// cluster, cooling shortfalls that are never silent, and the cooling assumptions as knobs.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/power/node_power_model.hpp"
#include "tests/models/facility/facility_test_support.hpp"

using namespace dcsim;
using models::facility::FacilityConfig;
using models::facility::PlantFault;
using tests::has_event;
using tests::Result;
using tests::run;

namespace {

double air_side_kwh(const Result& r) {
  return r.num("facility/energy/rdhx_fans_kwh") + r.num("facility/energy/crah_fans_kwh");
}

bool has_summary(const Result& r, const std::string& path) { return r.sink.summary().count(path) > 0; }

PlantFault door_fans_fail_all_run() {
  PlantFault f;
  f.kind = PlantFault::Kind::kRdhxFanFailure;
  f.at = sim::Time::zero();
  f.zone = -1;
  return f;
}

// Open loop at full pump speed and no TIM spread: every rate in the zone is known by hand.
FacilityConfig hand_solvable() {
  FacilityConfig f;
  f.control = "fixed_curve";
  f.control_params.set_number("min_speed", 1.0);
  f.tim_spread = 0.0;
  return f;
}

}  // namespace

TEST_CASE("facility: a D2C zone's steady state matches the heat balance solved by hand",
          "[models][thermal][facility][cooling]") {
  // 8 nodes in 2 racks, jobs still running at 3 h (the loop's time constant is ~2 min).
  const FacilityConfig f = hand_solvable();
  const auto r = run(f, 3.0, 4.0);
  const double p = r->last("facility/it_w");  // 8 busy nodes, no network
  // Coolant: the loop takes capture x P = 0.8 P and hands it to the facility water through the
  // CDU, G_x = eff x c_p x min(m_secondary, m_facility) = 0.8 x 4180 x min(2, 2) = 6688 W/K, at
  // the 25 C supply (outdoor 15 C + 6 K dry-cooler approach = 21 C: economiser, no chiller).
  const double g_x = 0.8 * 4180.0 * 2.0;
  const double loop_c = 25.0 + 0.8 * p / g_x;
  CHECK(r->num("thermal/zone/all/final_coolant_c") == Approx(loop_c).margin(0.01));
  // GPU die: 0.8 of its power through R_die-plate 0.03 + R_plate-coolant 0.025 K/W.
  const double gpu_w = models::power::gpu_power_w(f.node.gpu, 1.0, 1.0);
  CHECK(r->num("thermal/zone/all/max_gpu_c") == Approx(loop_c + 0.8 * gpu_w * (0.03 + 0.025)).margin(0.01));
  // Room air: the exhaust is 0.2 P; the doors take 0.9 of it, the air handlers the rest with
  // G = capacity / 10 K, their capacity sized for 0.2 x 8 nodes at full power (P_full):
  // T_a = 25 + 0.1 x 0.2 P / (0.2 P_full / 10) = 25 + P / P_full.
  std::vector<double> full(static_cast<std::size_t>(f.node.gpus), f.node.gpu.max_power_w);
  const double p_full = 8.0 * models::power::node_power(f.node, full.data(), 1.0, f.node_fan_min_speed).ac_w;
  CHECK(r->last("thermal/zone/all/air_c") == Approx(25.0 + p / p_full).margin(1e-3));
  // Heat in = heat out at these temperatures.
  CHECK(r->last("thermal/zone/all/liquid_w") + r->last("thermal/zone/all/air_w") == Approx(p).epsilon(1e-4));
  CHECK(r->last("thermal/zone/all/liquid_w") == Approx(0.8 * p).epsilon(1e-4));
}

TEST_CASE("facility: rear doors off raise the air-side cooling energy and the PUE",
          "[models][thermal][facility][cooling]") {
  const auto on = run(FacilityConfig{});
  FacilityConfig off_config;
  off_config.rdhx = false;
  const auto off = run(off_config);
  // Same air heat both ways: with doors the handlers move only the 10% the doors leave, so their
  // fan energy is a tenth; the door fans at ~14% duty draw 0.144^3 of 1 kW, ~3 W a door.
  CHECK(on->num("facility/energy/crah_fans_kwh") ==
        Approx(0.1 * off->num("facility/energy/crah_fans_kwh")).epsilon(0.02));
  CHECK(on->num("facility/energy/rdhx_fans_kwh") < 0.1 * on->num("facility/energy/crah_fans_kwh"));
  CHECK(air_side_kwh(*off) > 5.0 * air_side_kwh(*on));
  CHECK(off->pue > on->pue);
  CHECK(on->balance_error < tests::kConservationTol);
  CHECK(off->balance_error < tests::kConservationTol);
}

TEST_CASE("facility: a door-fan failure never improves PUE", "[models][thermal][facility][cooling]") {
  // Failed fans: a door passes only the passive share of its airflow (20/50 kW), taking 0.9 x 0.4
  // = 36% of the exhaust instead of 90%; the handlers' 5% fan power on the other 54% outweighs
  // the door fans' at most 1 kW / 50 kW = 2% (air_side.hpp), whatever the load.
  struct Case {
    const char* name;
    FacilityConfig f;
  };
  std::vector<Case> cases;
  cases.push_back({"d2c default", FacilityConfig{}});
  FacilityConfig low_capture;
  low_capture.d2c_capture = 0.5;
  cases.push_back({"d2c, half the heat to air", low_capture});
  FacilityConfig air;
  air.mode = FacilityConfig::Mode::kAir;
  air.plant.supply_c = 15.0;
  cases.push_back({"air-cooled nodes with doors", air});
  for (auto& c : cases) {
    INFO(c.name);
    const auto ok = run(c.f);
    c.f.faults.push_back(door_fans_fail_all_run());
    const auto failed = run(c.f);
    CHECK(failed->pue >= ok->pue);
    CHECK(failed->num("facility/energy/rdhx_fans_kwh") == 0.0);
    CHECK(failed->num("facility/energy/crah_fans_kwh") > ok->num("facility/energy/crah_fans_kwh"));
    CHECK(failed->balance_error < tests::kConservationTol);
  }
  // By hand in the D2C case: the handlers go from 10% to 64% of the same exhaust heat.
  const auto ok = run(FacilityConfig{});
  FacilityConfig f;
  f.faults.push_back(door_fans_fail_all_run());
  const auto failed = run(f);
  CHECK(failed->num("facility/energy/crah_fans_kwh") ==
        Approx(6.4 * ok->num("facility/energy/crah_fans_kwh")).epsilon(0.02));
}

TEST_CASE("facility: the plant follows the cluster: 160 and 10,000 busy nodes run as cool as 8",
          "[models][thermal][facility][cooling][slow]") {
  FacilityConfig f;
  f.tick = sim::Time::from_s(60);
  // 15 minutes: the coolant loop settles in a few of its ~2 min time constants.
  const auto small = run(f, 0.25, 1.0);
  const auto mid = run(f, 0.25, 1.0, 160, 4);
  const auto large = run(f, 0.25, 1.0, 10'000, 4);
  for (const auto* r : {small.get(), mid.get(), large.get()}) {
    CHECK(r->throttled_gpu_s == 0.0);
    CHECK(r->num("facility/cooling_shortfall_s") == 0.0);
    CHECK_FALSE(has_summary(*r, "facility/cooling_warning"));
    CHECK(r->max_gpu_c < f.max_operating_c);
  }
  // Per rack the same plant: the same hottest GPU up to the TIM spread of more GPUs.
  CHECK(large->max_gpu_c == Approx(small->max_gpu_c).margin(3.0));
}

TEST_CASE("facility: an undersized plant warns in the summary, or stops the run when asked",
          "[models][thermal][facility][cooling][slow]") {
  // The old fixed 10 kg/s of facility water shared by 10,000 nodes in 2,500 racks: 0.004 kg/s a
  // rack carries 0.004 x 4180 = 17 W/K, so a 40 kW rack's loop would need ~2000 K over the supply.
  FacilityConfig f;
  f.tick = sim::Time::from_s(60);
  f.facility_water_flow_kg_per_s_per_rack = 10.0 / 2'500.0;
  const auto r = run(f, 0.25, 1.0, 10'000, 4);  // the dies pass 87 C within ~10 minutes
  CHECK(r->num("facility/cooling_shortfall_s") > 0.0);
  REQUIRE(has_summary(*r, "facility/cooling_warning"));
  const auto warning = std::get<std::string>(r->sink.summary("facility/cooling_warning").value);
  CHECK_THAT(warning, Catch::Contains("GPU dies above their max operating 87 C"));
  CHECK_THAT(warning, Catch::Contains("0.004 kg/s per rack: size the plant"));
  CHECK(has_event(*r, "cooling_shortfall"));

  f.shortfall_is_error = true;
  CHECK_THROWS_WITH(run(f, 0.25, 1.0, 10'000, 4), Catch::Contains("cannot remove the heat"));
}

TEST_CASE("facility: hot dies after a load step at a coarse tick name the control's lag, not the plant",
          "[models][thermal][facility][cooling]") {
  // Idle for an hour, the PI control slows the pumps to min_speed (0.3). The jobs start at 1 h:
  // the control decides at that event from dies the new load has not warmed yet, and again only
  // at the next 15 min tick, so the step runs at 0.3 of the rated flow and the dies pass 87 C.
  // The plant is not short (no chiller deficit, full speed would hold them: at a 1 min tick they
  // stay below 87 C), so the warning says so and gives the tick, not "size the plant".
  FacilityConfig f;
  f.tick = sim::Time::from_s(900);
  const auto r = run(f, 3.0, 1.0, 8, 4, 1.0);
  REQUIRE(r->num("facility/cooling_shortfall_s") > 0.0);
  const auto warning = std::get<std::string>(r->sink.summary("facility/cooling_warning").value);
  INFO(warning);
  CHECK_THAT(warning, Catch::Contains("zone all: pumps below full speed, as the pi_target control set them for "
                                      "the load before it rose; it decides once per tick (900 s)"));
  CHECK_THAT(warning, !Catch::Contains("chiller short"));
  CHECK_THAT(warning, !Catch::Contains("size the plant"));
  f.tick = sim::Time::from_s(60);
  const auto fine = run(f, 3.0, 1.0, 8, 4, 1.0);
  CHECK(fine->num("facility/cooling_shortfall_s") == 0.0);
  CHECK(fine->max_gpu_c < f.max_operating_c);
}

TEST_CASE("facility: the cooling assumptions are knobs that act", "[models][thermal][facility][cooling]") {
  const auto base = run(FacilityConfig{});
  SECTION("door fan power scales the door fans' energy exactly (same duty)") {
    FacilityConfig f;
    f.rdhx_fan_power_w = 2'000.0;
    CHECK(run(f)->num("facility/energy/rdhx_fans_kwh") ==
          Approx(2.0 * base->num("facility/energy/rdhx_fans_kwh")).epsilon(1e-6));
  }
  SECTION("the air-handler fan fraction scales their fan energy exactly") {
    FacilityConfig f;
    f.crah_fan_w_per_w = 0.10;
    CHECK(run(f)->num("facility/energy/crah_fans_kwh") ==
          Approx(2.0 * base->num("facility/energy/crah_fans_kwh")).epsilon(1e-6));
  }
  SECTION("CDU pump power scales the pumps' energy exactly (same speeds)") {
    FacilityConfig f;
    f.cdu_pump_power_w_per_rack = 800.0;
    CHECK(run(f)->num("facility/energy/cdu_pumps_kwh") ==
          Approx(2.0 * base->num("facility/energy/cdu_pumps_kwh")).epsilon(1e-6));
  }
  SECTION("a less effective door leaves more to the air handlers: 0.5 instead of 0.1 of the exhaust") {
    FacilityConfig f;
    f.rdhx_effectiveness = 0.5;
    CHECK(run(f)->num("facility/energy/crah_fans_kwh") ==
          Approx(5.0 * base->num("facility/energy/crah_fans_kwh")).epsilon(0.02));
  }
  SECTION("less facility water per rack: warmer coolant") {
    FacilityConfig f = hand_solvable();
    const auto a = run(f);
    f.facility_water_flow_kg_per_s_per_rack = 0.5;
    const auto b = run(f);
    // G_x follows min(secondary, facility) flow: half of it doubles the loop's rise over the supply.
    const auto rise = [](const Result& r) { return r.num("thermal/zone/all/final_coolant_c") - 25.0; };
    CHECK(rise(*b) > 1.5 * rise(*a));
  }
  SECTION("air handlers too small for the exhaust: the room air rises past 32 C and the run warns") {
    FacilityConfig f;
    f.rdhx = false;
    f.crah_capacity_w = 2'000.0;  // for ~16 kW of exhaust heat
    const auto r = run(f);
    REQUIRE(has_summary(*r, "facility/cooling_warning"));
    CHECK_THAT(std::get<std::string>(r->sink.summary("facility/cooling_warning").value),
               Catch::Contains("room air above ASHRAE's allowable 32 C"));
    CHECK(r->balance_error < tests::kConservationTol);
  }
  SECTION("a chiller smaller than the load on a hot day: the supply warms and the run warns") {
    FacilityConfig f;
    f.outdoor.mean_c = 35.0;  // no free cooling: the chiller must lift everything
    f.chiller_capacity_w = 20'000.0;
    const auto r = run(f);
    REQUIRE(has_summary(*r, "facility/cooling_warning"));
    CHECK_THAT(std::get<std::string>(r->sink.summary("facility/cooling_warning").value),
               Catch::Contains("heat beyond the chiller's capacity"));
    const auto& supply = r->sink.series("facility/water_supply_c").value;
    CHECK(*std::max_element(supply.begin(), supply.end()) > 25.0 + 1.0);
  }
}

// CDU count as a mechanism (item 13): the zone's loop gets what the control asks for, up to what
// its working CDUs pump. 2 racks at 1 kg/s each with 1 kg/s CDUs: sized 2 + 1 spare (N+1).
TEST_CASE("facility: an N+1 zone loses nothing to one CDU out; a second one halves its flow, solved by hand",
          "[models][thermal][facility][cooling]") {
  FacilityConfig f = hand_solvable();
  f.cdu_rated_flow_kg_per_s = 1.0;
  const auto cdus_out = [&f](int count) {
    FacilityConfig g = f;
    PlantFault fault;
    fault.kind = PlantFault::Kind::kCduFailure;
    fault.at = sim::Time::zero();
    fault.zone = 0;
    fault.count = count;
    g.faults.push_back(fault);
    return run(g, 3.0, 4.0);
  };
  const auto none = run(f, 3.0, 4.0);
  const auto one = cdus_out(1);
  const auto two = cdus_out(2);
  CHECK(none->num("thermal/zone/all/cdus") == 3.0);
  CHECK(has_event(*two, "cdu_failure"));
  const double p = none->last("facility/it_w");
  const double gpu_w = models::power::gpu_power_w(f.node.gpu, 1.0, 1.0);
  // One out: two CDUs still pump the rated 2 kg/s, so the hand solution of the zone holds as it
  // does without the fault (G_x = 0.8 x 4180 x 2 W/K).
  for (const auto* r : {none.get(), one.get()}) {
    CHECK(r->num("thermal/zone/all/final_coolant_c") == Approx(25.0 + 0.8 * p / (0.8 * 4180.0 * 2.0)).margin(0.01));
  }
  CHECK(one->max_gpu_c == Approx(none->max_gpu_c).margin(1e-9));
  // Two out: one CDU pumps 1 kg/s, half the rated flow. The CDU passes heat at
  // 0.8 x 4180 x min(1, 2) W/K, the cold plates conduct 0.5^0.8 of rated (Dittus-Boelter) and the
  // pumps draw 400 W x 2 racks x 0.5^3 = 100 W.
  const double loop_c = 25.0 + 0.8 * p / (0.8 * 4180.0 * 1.0);
  CHECK(two->num("thermal/zone/all/final_coolant_c") == Approx(loop_c).margin(0.01));
  CHECK(two->num("thermal/zone/all/max_gpu_c") ==
        Approx(loop_c + 0.8 * gpu_w * (0.03 + 0.025 / std::pow(0.5, 0.8))).margin(0.01));
  CHECK(two->last("facility/cooling_w") < none->last("facility/cooling_w"));
  CHECK(two->balance_error < tests::kConservationTol);
  // Set, the count is what it says: two CDUs and no spare, so one out halves the flow.
  FacilityConfig set = f;
  set.zones.push_back({"all", {0, 1}, {}, {}, {}, {}, 2});
  const auto two_set = run(set, 3.0, 4.0);
  CHECK(two_set->num("thermal/zone/all/cdus") == 2.0);
  // Both of them out: no flow, the GPUs pass max operating, and the warning names the cause.
  set.faults.push_back({PlantFault::Kind::kCduFailure, sim::Time::from_s(1800), sim::Time::from_s(1800), 0, 0.0, 0.0, 2});
  const auto none_left = run(set, 3.0, 4.0);
  REQUIRE(has_summary(*none_left, "facility/cooling_warning"));
  CHECK_THAT(std::get<std::string>(none_left->sink.summary("facility/cooling_warning").value),
             Catch::Contains("zone all: 2 of 2 CDUs out of service, the working ones pump 0% of its rated flow"));
}
