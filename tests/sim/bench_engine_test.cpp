// The engine benchmark runs and reports consistent fields. No timing is asserted: speed is
// measured by `dcsim bench engine`, not by the test suite.

#include <catch2/catch.hpp>
#include <cmath>

#include "sim/bench_engine.hpp"
#include "sim/error.hpp"

TEST_CASE("engine benchmark reports both sides of a small hold model", "[sim][bench]") {
  const dcsim::sim::EngineBenchResult r = dcsim::sim::run_engine_bench(64, 2'000, 3);
  CHECK(r.pending == 64);
  CHECK(r.events == 2'000);
  CHECK(r.engine_events_per_s > 0.0);
  CHECK(r.heap_events_per_s > 0.0);
  CHECK(std::isfinite(r.ratio));
  CHECK(r.ratio == Approx(r.engine_events_per_s / r.heap_events_per_s));
}

TEST_CASE("engine benchmark rejects empty runs", "[sim][bench]") {
  CHECK_THROWS_AS(dcsim::sim::run_engine_bench(0, 10), dcsim::sim::InternalError);
  CHECK_THROWS_AS(dcsim::sim::run_engine_bench(10, 0), dcsim::sim::InternalError);
}
