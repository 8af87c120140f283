// Activity: completion exact to the nanosecond under rate changes, suspension, cancellation.

#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include "sim/activity.hpp"
#include "sim/error.hpp"

namespace {

using dcsim::sim::Activity;
using dcsim::sim::InternalError;
using dcsim::sim::Priority;
using dcsim::sim::Simulator;
using dcsim::sim::Time;

Time ns(std::int64_t n) { return Time::from_ns(n); }

// Relative tolerance for remaining work read mid-flight: the values below are exact binary
// fractions or integers, so only the last-bit rounding of rate * ns / 1e9 can differ.
constexpr double kWorkTol = 1e-12;

}  // namespace

TEST_CASE("constant rate: finishes at work / rate, remaining exactly 0", "[sim][activity]") {
  Simulator sim;
  Time finished = Time::max();
  // 1 MB at 1 GB/s = 1 ms = 1'000'000 ns.
  Activity a(sim, 1e6, 1e9, [&](Activity& self) {
    finished = sim.now();
    CHECK(self.remaining() == 0.0);
  });
  CHECK(a.expected_finish() == ns(1'000'000));
  sim.run_until(ns(250'000));
  CHECK(a.remaining() == Approx(750'000.0).epsilon(kWorkTol));
  sim.run();
  CHECK(finished == ns(1'000'000));
  CHECK(a.done());
  CHECK(a.remaining() == 0.0);
  CHECK(a.finished_at() == ns(1'000'000));
  CHECK(a.started_at() == Time::zero());
}

TEST_CASE("several rate changes: completion exact to the nanosecond", "[sim][activity]") {
  Simulator sim;
  Time finished = Time::max();
  // 1e6 units. 0..200 us at 1 unit/ns: 2e5 done, 8e5 left.
  // 200 us..1 ms at 0.5 unit/ns: 4e5 done, 4e5 left (the finish had moved to 1.8 ms).
  // From 1 ms at 2 units/ns: 4e5 / 2 = 2e5 ns more, so it finishes at 1'200'000 ns.
  Activity a(sim, 1e6, 1e9, [&](Activity&) { finished = sim.now(); });
  sim.at(
      ns(200'000),
      [&] {
        a.set_rate(0.5e9);
        CHECK(a.remaining() == Approx(8e5).epsilon(kWorkTol));
        CHECK(a.expected_finish() == ns(1'800'000));
      },
      Priority::kRateChange);
  sim.at(
      ns(1'000'000),
      [&] {
        a.set_rate(2e9);
        CHECK(a.remaining() == Approx(4e5).epsilon(kWorkTol));
      },
      Priority::kRateChange);
  sim.run();
  CHECK(finished == ns(1'200'000));
  CHECK(a.remaining() == 0.0);
}

TEST_CASE("a non-integral duration rounds up to the next nanosecond", "[sim][activity]") {
  Simulator sim;
  // 10 units at 3 units/s: 3.333...s. 3'333'333'333 ns does 9.999999999 units (< 10), the
  // next nanosecond does 10.000000002: the activity never finishes early.
  Activity a(sim, 10.0, 3.0, nullptr);
  CHECK(a.expected_finish() == ns(3'333'333'334));
  sim.run();
  CHECK(a.done());
  CHECK(sim.now() == ns(3'333'333'334));
}

TEST_CASE("completion uses the engine's own arithmetic, not a naive ceiling", "[sim][activity]") {
  SECTION("naive ceil would finish one ns early") {
    // work = 0.1 * 7 = 0.7000000000000001 (just above 0.7). At 0.1/s, 7 s of progress
    // computes as 0.1 * 7e9 / 1e9 = 0.7 < work, so 7 s is not enough: the first ns at which
    // the progress reaches the work is 7 s + 1 ns. ceil(work / rate * 1e9) says 7 s exactly,
    // which would leave work over at completion.
    Simulator sim;
    Activity a(sim, 0.1 * 7, 0.1, nullptr);
    sim.run();
    CHECK(sim.now() == ns(7'000'000'001));
    CHECK(a.remaining() == 0.0);
  }
  SECTION("naive ceil would finish one ns late") {
    // 53.3 units at 6.56/s is 8.125 s; in doubles 53.3e9 / 6.56 = 8125000000.000001, whose
    // ceiling is 8'125'000'001, yet 6.56 * 8.125e9 / 1e9 computes to exactly 53.3: done at
    // 8'125'000'000 ns.
    Simulator sim;
    Activity a(sim, 53.3, 6.56, nullptr);
    sim.run();
    CHECK(sim.now() == ns(8'125'000'000));
  }
}

TEST_CASE("rate 0 suspends; a later rate resumes from the frozen remaining work",
          "[sim][activity]") {
  Simulator sim;
  Time finished = Time::max();
  // 1000 units at 1 unit/ns: 400 done by 400 ns, suspended until 10'000 ns, then 600 more ns.
  Activity a(sim, 1000.0, 1e9, [&](Activity&) { finished = sim.now(); });
  sim.at(ns(400), [&] { a.set_rate(0.0); });
  sim.run_until(ns(5'000));
  CHECK(a.remaining() == Approx(600.0).epsilon(kWorkTol));
  CHECK(a.expected_finish() == Time::max());
  CHECK(sim.pending() == 0);  // no completion event while suspended
  CHECK_FALSE(a.done());
  sim.run_until(ns(10'000));
  a.set_rate(1e9);
  sim.run();
  CHECK(finished == ns(10'600));
}

TEST_CASE("an activity created suspended starts when given a rate", "[sim][activity]") {
  Simulator sim;
  Activity a(sim, 50.0, 0.0, nullptr);
  CHECK(sim.pending() == 0);
  sim.run_until(ns(100));
  a.set_rate(1e9);  // 50 units at 1/ns
  sim.run();
  CHECK(sim.now() == ns(150));
  CHECK(a.done());
}

TEST_CASE("zero work completes at once, even at rate 0", "[sim][activity]") {
  Simulator sim;
  sim.run_until(ns(42));
  int calls = 0;
  Activity a(sim, 0.0, 0.0, [&](Activity&) { ++calls; });
  sim.run();
  CHECK(calls == 1);
  CHECK(a.finished_at() == ns(42));
}

TEST_CASE("an unchanged finish keeps its event", "[sim][activity]") {
  Simulator sim;
  Activity a(sim, 1000.0, 1e9, nullptr);
  // Same rate at 500 ns: the finish is still 1000 ns, nothing is rescheduled.
  sim.at(ns(500), [&] { a.set_rate(1e9); });
  sim.run();
  CHECK(sim.now() == ns(1000));
  CHECK(sim.events_executed() == 2);
}

TEST_CASE("cancel: no callback, remaining frozen", "[sim][activity]") {
  Simulator sim;
  int calls = 0;
  Activity a(sim, 1000.0, 1e9, [&](Activity&) { ++calls; });
  sim.run_until(ns(300));
  a.cancel();
  a.cancel();  // harmless
  sim.run_until(ns(2'000));
  CHECK(calls == 0);
  CHECK(a.cancelled());
  CHECK_FALSE(a.done());
  CHECK(a.remaining() == Approx(700.0).epsilon(kWorkTol));
  CHECK(sim.pending() == 0);
  CHECK_THROWS_AS(a.set_rate(1.0), InternalError);
}

TEST_CASE("destroying an activity cancels its completion", "[sim][activity]") {
  Simulator sim;
  int calls = 0;
  {
    Activity a(sim, 1000.0, 1e9, [&](Activity&) { ++calls; });
    CHECK(sim.pending() == 1);
  }
  CHECK(sim.pending() == 0);
  sim.run();
  CHECK(calls == 0);
}

TEST_CASE("the completion callback may destroy its activity", "[sim][activity]") {
  Simulator sim;
  std::unique_ptr<Activity> a;
  bool ran = false;
  a = std::make_unique<Activity>(sim, 10.0, 1e9, [&](Activity&) {
    ran = true;
    a.reset();
  });
  sim.run();
  CHECK(ran);
  CHECK(a == nullptr);
}

TEST_CASE("a rate change at the finish instant runs before the completion", "[sim][activity]") {
  Simulator sim;
  Time finished = Time::max();
  // Due at 1000 ns; a kRateChange event at 1000 ns halves the rate first. Remaining is 0 by
  // then, so the completion stays at 1000 ns.
  Activity a(sim, 1000.0, 1e9, [&](Activity&) { finished = sim.now(); });
  bool changed = false;
  sim.at(
      ns(1000),
      [&] {
        CHECK_FALSE(a.done());
        a.set_rate(0.5e9);
        changed = true;
      },
      Priority::kRateChange);
  sim.run();
  CHECK(changed);
  CHECK(finished == ns(1000));
}

TEST_CASE("bad work or rate is an internal error", "[sim][activity]") {
  Simulator sim;
  CHECK_THROWS_AS(Activity(sim, -1.0, 1.0, nullptr), InternalError);
  CHECK_THROWS_AS(Activity(sim, 1.0, -1.0, nullptr), InternalError);
  CHECK_THROWS_AS(Activity(sim, 1.0, std::nan(""), nullptr), InternalError);
  Activity a(sim, 1.0, 1.0, nullptr);
  CHECK_THROWS_AS(a.set_rate(-2.0), InternalError);
  sim.run();
  CHECK_THROWS_AS(a.set_rate(1.0), InternalError);  // done
}

TEST_CASE("set_total_work shortens an activity in flight to a boundary", "[sim][activity]") {
  Simulator sim;
  Time finished = Time::max();
  // 10 units at 1 unit/us: at 2.5 us, 2.5 are done; cutting the total to 3 leaves 0.5 units,
  // so it finishes at 3 us instead of 10 us.
  Activity a(sim, 10.0, 1e6, [&](Activity& self) {
    finished = sim.now();
    CHECK(self.total_work() == 3.0);
  });
  sim.at(ns(2'500), [&] { a.set_total_work(3.0); });
  sim.run();
  CHECK(finished == ns(3'000));
  // Less than what is already done is a model bug.
  Activity b(sim, 10.0, 1e6, [](Activity&) {});
  sim.run_until(sim.now() + ns(4'000));
  CHECK_THROWS_AS(b.set_total_work(2.0), InternalError);
}
