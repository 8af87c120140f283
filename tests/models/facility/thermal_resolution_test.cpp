#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "tests/models/facility/facility_test_support.hpp"

// The facility's site-scale forms: racks split into data halls (FacilityConfig::halls), and one
// thermal path per node instead of per GPU (FacilityConfig::thermal_resolution).

using namespace dcsim;
using dcsim::tests::kConservationTol;
using dcsim::tests::Result;
using dcsim::tests::run;
using models::facility::FacilityConfig;

namespace {

bool has_zone(const Result& r, const std::string& zone) {
  return r.sink.summary().count("thermal/zone/" + zone + "/max_gpu_c") > 0;
}

double zone_cdus(const Result& r, const std::string& zone) {
  return std::get<double>(r.sink.summary("thermal/zone/" + zone + "/cdus").value);
}

FacilityConfig per_node(FacilityConfig f) {
  f.thermal_resolution = FacilityConfig::ThermalResolution::kNode;
  return f;
}

}  // namespace

TEST_CASE("facility: halls split the racks in order into zones of equal size", "[models][thermal][facility]") {
  // 32 nodes, 4 per rack: 8 racks into 3 halls of 3, 3 and 2 racks. Each hall gets CDUs for its
  // own racks (N+1 at the default 1 kg/s per rack and 1.5 kg/s units: 2 + 1 for three racks,
  // 2 + 1 for two), and its own zone series and summary.
  FacilityConfig f;
  f.halls = 3;
  const auto r = run(f, 1.0, 2.0, 32, 4);
  CHECK(has_zone(*r, "hall-1"));
  CHECK(has_zone(*r, "hall-2"));
  CHECK(has_zone(*r, "hall-3"));
  CHECK_FALSE(has_zone(*r, "hall-4"));
  CHECK_FALSE(has_zone(*r, "all"));
  CHECK(zone_cdus(*r, "hall-1") == zone_cdus(*r, "hall-2"));
  CHECK(r->balance_error < kConservationTol);
  // One hall is the single zone "all".
  const auto one = run(FacilityConfig{}, 1.0, 2.0, 32, 4);
  CHECK(has_zone(*one, "all"));
}

TEST_CASE("facility: halls are refused beside listed zones and beyond the racks", "[models][thermal][facility]") {
  models::ModelRegistries reg;
  models::register_builtin_models(reg);
  const models::facility::FacilityRegistries facility_registries{reg.cooling_controls, reg.power_capping};
  sim::Simulator s;
  sim::MemoryTraceSink sink;
  FacilityConfig f;
  f.halls = 3;  // 8 nodes in 2 racks
  CHECK_THROWS_WITH(models::facility::FacilitySimulation(f, 8, 4, 1, facility_registries, s, sink),
                    Catch::StartsWith("halls: must be from 1 to the racks (2)"));
  f.halls = 2;
  f.zones.resize(1);
  f.zones[0].name = "z";
  f.zones[0].racks = {0, 1};
  CHECK_THROWS_WITH(models::facility::FacilitySimulation(f, 8, 4, 1, facility_registries, s, sink),
                    Catch::StartsWith("halls: must be 1 when zones are listed"));
}

TEST_CASE("facility: with equal GPUs, one path per node is the per-GPU model", "[models][thermal][facility]") {
  // No thermal-interface spread: a node's eight GPU paths are the same equations with the same
  // inputs, so one path counted eight times is the same system. What differs is rounding (a sum
  // of eight equal terms against eight times one), so everything agrees to ~1e-12, not bit for bit.
  FacilityConfig f;
  f.tim_spread = 0.0;
  FacilityConfig failed = f;  // and through a throttling transient: a CDU pump at 5% for 30 min
  failed.faults.push_back({models::facility::PlantFault::Kind::kCduPumpFailure, sim::Time::from_s(1800),
                           sim::Time::from_s(1800), 0, 0.05, 0.0});
  for (const FacilityConfig& c : {f, failed}) {
    const auto gpu = run(c);
    const auto node = run(per_node(c));
    CHECK(node->max_gpu_c == Approx(gpu->max_gpu_c).epsilon(1e-9));
    CHECK(node->makespan_s == Approx(gpu->makespan_s).epsilon(1e-9));
    CHECK(node->throttled_gpu_s == Approx(gpu->throttled_gpu_s).margin(1e-6));
    CHECK(node->total_kwh == Approx(gpu->total_kwh).epsilon(1e-9));
    CHECK(node->balance_error < kConservationTol);
  }
}

TEST_CASE("facility: one path per node keeps the hottest die, the node clocks and the heat balance",
          "[models][thermal][facility]") {
  // With the default spread, a node's path takes its hottest GPU's resistance (the same draws as
  // per GPU). The hottest die, which decides the node's clock, comes out as at GPU resolution but
  // for the coolant, a little warmer since the node's other GPUs now hold as much heat as its
  // hottest. This case (a CDU pump at 5% for 30 minutes) drives dies to shutdown: per GPU only the
  // hot ones stop drawing power, per node all of a node's GPUs do, so the node cools sooner and its
  // job is back sooner (about 1% here). Energy is conserved either way.
  FacilityConfig failed;
  failed.faults.push_back({models::facility::PlantFault::Kind::kCduPumpFailure, sim::Time::from_s(1800),
                           sim::Time::from_s(1800), 0, 0.05, 0.0});
  const auto gpu = run(failed);
  const auto node = run(per_node(failed));
  CHECK(gpu->throttled_gpu_s > 0.0);  // the case throttles
  // Throttled GPU-seconds count a node's GPUs with its hottest: more than per GPU (here about
  // 17%), never more than the node's GPU count times as many.
  CHECK(node->throttled_gpu_s > gpu->throttled_gpu_s);
  CHECK(node->throttled_gpu_s < 8.0 * gpu->throttled_gpu_s);
  CHECK(node->max_gpu_c == Approx(gpu->max_gpu_c).margin(0.5));
  CHECK(node->makespan_s == Approx(gpu->makespan_s).epsilon(0.02));
  CHECK(node->it_kwh == Approx(gpu->it_kwh).epsilon(0.02));
  CHECK(node->balance_error < kConservationTol);
}
