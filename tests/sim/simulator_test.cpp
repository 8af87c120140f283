// Simulator: the clock, scheduling rules, run/run_until/stop semantics and progress reporting.

#include <catch2/catch.hpp>
#include <atomic>
#include <cstdint>
#include <vector>

#include "sim/error.hpp"
#include "sim/simulator.hpp"

namespace {

using dcsim::sim::EventHandle;
using dcsim::sim::InternalError;
using dcsim::sim::Priority;
using dcsim::sim::Simulator;
using dcsim::sim::Time;

Time ns(std::int64_t n) { return Time::from_ns(n); }

// Schedules an event whose callback finds a broken invariant: its lambda's type names this
// function, which the error must show.
void schedule_broken_invariant(Simulator& sim) {
  sim.at(ns(2'000'000'000), [] { throw InternalError("queue state broke"); });
}

}  // namespace

TEST_CASE("events run in time order and see their own time as now", "[sim][simulator]") {
  Simulator sim;
  std::vector<std::int64_t> seen;
  for (std::int64_t t : {30, 10, 20}) {
    sim.at(ns(t), [&] { seen.push_back(sim.now().ns()); });
  }
  CHECK(sim.pending() == 3);
  CHECK(sim.next_event_time() == ns(10));
  sim.run();
  CHECK(seen == std::vector<std::int64_t>{10, 20, 30});
  CHECK(sim.now() == ns(30));
  CHECK(sim.events_executed() == 3);
  CHECK(sim.pending() == 0);
  CHECK(sim.next_event_time() == Time::max());
}

TEST_CASE("ties at one instant: priority first, then scheduling order", "[sim][simulator]") {
  Simulator sim;
  std::vector<int> order;
  sim.at(ns(5), [&] { order.push_back(1); });
  sim.at(
      ns(5), [&] { order.push_back(2); }, Priority::kTelemetry);
  sim.at(
      ns(5),
      [&] {
        order.push_back(3);
        // Scheduled during the instant: kRateChange still runs before the pending kNormal 1.
        sim.after(
            Time::zero(), [&] { order.push_back(5); }, Priority::kRateChange);
      },
      Priority::kFirst);
  sim.at(ns(5), [&] { order.push_back(4); });
  sim.run();
  CHECK(order == std::vector<int>{3, 5, 1, 4, 2});
}

TEST_CASE("after() is relative to now", "[sim][simulator]") {
  Simulator sim;
  std::int64_t fired_at = -1;
  sim.at(ns(100), [&] { sim.after(ns(50), [&] { fired_at = sim.now().ns(); }); });
  sim.run();
  CHECK(fired_at == 150);
}

TEST_CASE("scheduling in the past is an internal error", "[sim][simulator]") {
  Simulator sim;
  sim.run_until(ns(100));
  CHECK_THROWS_AS(sim.at(ns(99), [] {}), InternalError);
  CHECK_THROWS_AS(sim.after(ns(-1), [] {}), InternalError);
  CHECK_NOTHROW(sim.at(ns(100), [] {}));  // now itself is open
  EventHandle h = sim.at(ns(200), [] {});
  CHECK_THROWS_AS(sim.reschedule(h, ns(50)), InternalError);
  CHECK(sim.is_pending(h));  // a refused reschedule leaves the event alone
  CHECK_THROWS_AS(sim.run_until(ns(10)), InternalError);
}

TEST_CASE("cancel through the simulator", "[sim][simulator]") {
  Simulator sim;
  int runs = 0;
  EventHandle h = sim.at(ns(10), [&] { ++runs; });
  CHECK(sim.is_pending(h));
  CHECK(sim.cancel(h));
  CHECK_FALSE(sim.cancel(h));
  CHECK_FALSE(sim.is_pending(h));
  EventHandle ran = sim.at(ns(20), [&] { ++runs; });
  sim.run();
  CHECK(runs == 1);
  CHECK_FALSE(sim.cancel(ran));  // stale: it ran
  CHECK(sim.now() == ns(20));
}

TEST_CASE("reschedule through the simulator: earlier, later, stale", "[sim][simulator]") {
  Simulator sim;
  std::vector<int> order;
  EventHandle a = sim.at(ns(10), [&] { order.push_back(1); });
  EventHandle b = sim.at(ns(20), [&] { order.push_back(2); });
  CHECK(sim.reschedule(a, ns(30)));
  CHECK(sim.reschedule(b, ns(5)));
  CHECK(sim.next_event_time() == ns(5));
  sim.run();
  CHECK(order == std::vector<int>{2, 1});
  CHECK(sim.now() == ns(30));
  CHECK_FALSE(sim.reschedule(a, ns(40)));  // ran: stale, and nothing is scheduled
  CHECK(sim.pending() == 0);
}

TEST_CASE("run_until runs events up to and including t, then sets the clock to t",
          "[sim][simulator]") {
  Simulator sim;
  std::vector<int> order;
  sim.at(ns(10), [&] { order.push_back(1); });
  sim.at(ns(20), [&] { order.push_back(2); });
  sim.at(ns(21), [&] { order.push_back(3); });
  sim.run_until(ns(20));
  CHECK(order == std::vector<int>{1, 2});
  CHECK(sim.now() == ns(20));
  CHECK(sim.pending() == 1);
  sim.run_until(ns(20));  // idempotent at the same instant
  CHECK(sim.pending() == 1);
  // The clock moves to t even when no event is there.
  sim.run_until(ns(15'000));
  CHECK(order == std::vector<int>{1, 2, 3});
  CHECK(sim.now() == ns(15'000));
}

TEST_CASE("after run_until, events between t and the next event still run first",
          "[sim][simulator]") {
  Simulator sim;
  std::vector<int> order;
  sim.at(ns(1'000'000), [&] { order.push_back(3); });
  sim.run_until(ns(10));  // looked at 1e6 but stopped at 10
  sim.at(ns(500), [&] { order.push_back(2); });
  sim.at(ns(10), [&] { order.push_back(1); });
  CHECK(sim.next_event_time() == ns(10));
  sim.run();
  CHECK(order == std::vector<int>{1, 2, 3});
}

TEST_CASE("stop ends the run after the current event and the run can resume", "[sim][simulator]") {
  Simulator sim;
  std::vector<int> order;
  sim.at(ns(10), [&] { order.push_back(1); });
  sim.at(ns(20), [&] {
    order.push_back(2);
    sim.stop();
  });
  sim.at(ns(20), [&] { order.push_back(3); });
  sim.at(ns(30), [&] { order.push_back(4); });
  sim.run();
  CHECK(order == std::vector<int>{1, 2});
  CHECK(sim.stop_requested());
  CHECK(sim.now() == ns(20));
  CHECK(sim.pending() == 2);
  sim.run();  // resumes: the flag is cleared
  CHECK(order == std::vector<int>{1, 2, 3, 4});
  CHECK_FALSE(sim.stop_requested());
}

TEST_CASE("stop inside run_until leaves the clock at the stopping event", "[sim][simulator]") {
  Simulator sim;
  sim.at(ns(10), [&] { sim.stop(); });
  sim.at(ns(40), [] {});
  sim.run_until(ns(100));
  CHECK(sim.now() == ns(10));
  CHECK(sim.pending() == 1);
  sim.run_until(ns(100));
  CHECK(sim.now() == ns(100));
  CHECK(sim.pending() == 0);
}

TEST_CASE("progress observer fires every N executed events", "[sim][simulator]") {
  Simulator sim;
  std::vector<std::uint64_t> calls;
  sim.set_progress_observer(10, [&] { calls.push_back(sim.events_executed()); });
  for (int i = 0; i < 35; ++i) sim.at(ns(i), [] {});
  sim.run();
  CHECK(calls == std::vector<std::uint64_t>{10, 20, 30});
  // Re-arming counts in multiples of the new period; 0 disables.
  sim.set_progress_observer(4, [&] { calls.push_back(sim.events_executed()); });
  for (int i = 0; i < 6; ++i) sim.after(ns(1), [] {});
  sim.run();
  CHECK(calls == std::vector<std::uint64_t>{10, 20, 30, 36, 40});
  sim.set_progress_observer(0, [&] { calls.push_back(0); });
  for (int i = 0; i < 8; ++i) sim.after(ns(1), [] {});
  sim.run();
  CHECK(calls.size() == 5);
}

TEST_CASE("an exception from an event propagates and leaves the simulator usable",
          "[sim][simulator]") {
  Simulator sim;
  sim.at(ns(5), [] { throw InternalError("model bug"); });
  sim.at(ns(6), [] {});
  CHECK_THROWS_AS(sim.run(), InternalError);
  CHECK(sim.now() == ns(5));
  CHECK(sim.pending() == 1);
  sim.run();
  CHECK(sim.now() == ns(6));
}

TEST_CASE("a long self-rescheduling chain keeps the queue small", "[sim][simulator]") {
  // The hold model in miniature: 100 pending, each event schedules one more. Checks the
  // count and that the clock never goes backwards.
  Simulator sim;
  std::uint64_t left = 100'000;
  std::int64_t last = 0;
  bool monotone = true;
  struct Hold {
    Simulator* sim;
    std::uint64_t* left;
    std::int64_t* last;
    bool* monotone;
    std::int64_t step;
    void operator()() const {
      *monotone = *monotone && sim->now().ns() >= *last;
      *last = sim->now().ns();
      if (--*left == 0) sim->stop();
      sim->after(Time::from_ns(step), Hold{*this});
    }
  };
  for (std::int64_t i = 0; i < 100; ++i) {
    sim.at(ns(i), Hold{&sim, &left, &last, &monotone, 37 + i * 1'009});
  }
  sim.run();
  CHECK(sim.events_executed() == 100'000);
  CHECK(sim.pending() == 100);
  CHECK(monotone);
}

namespace {

// Two kinds of event at one instant, scheduled in the given order; returns the fingerprint.
std::uint64_t fingerprint_of_two_kinds(bool a_first) {
  Simulator sim;
  int a = 0;
  int b = 0;
  const auto schedule_a = [&] { sim.at(ns(10), [&a] { ++a; }); };
  const auto schedule_b = [&] { sim.at(ns(10), [&b] { b += 2; }); };
  if (a_first) {
    schedule_a();
    schedule_b();
  } else {
    schedule_b();
    schedule_a();
  }
  sim.run();
  return sim.fingerprint();
}

}  // namespace

TEST_CASE("the fingerprint changes when two events at one instant swap places", "[sim][simulator]") {
  // Same times, same priorities, same count: only the kinds' order differs, which a hash of the
  // times alone cannot see (the bug the fingerprint exists to catch).
  CHECK(fingerprint_of_two_kinds(true) == fingerprint_of_two_kinds(true));
  CHECK(fingerprint_of_two_kinds(true) != fingerprint_of_two_kinds(false));
}

TEST_CASE("the fingerprint changes with an event's priority at the same time", "[sim][simulator]") {
  const auto run = [](Priority p) {
    Simulator sim;
    sim.at(ns(5), [] {}, p);
    sim.run();
    return sim.fingerprint();
  };
  CHECK(run(Priority::kNormal) == run(Priority::kNormal));
  CHECK(run(Priority::kNormal) != run(Priority::kTelemetry));
}

TEST_CASE("the stop flag, set from outside (a signal handler), ends the run before the next event",
          "[sim][simulator]") {
  Simulator sim;
  std::atomic<bool>& flag = sim.stop_flag();
  std::vector<int> ran;
  sim.at(ns(1), [&] { ran.push_back(1); });
  sim.at(ns(2), [&] {
    ran.push_back(2);
    flag.store(true);  // as a SIGTERM handler does, between two events
  });
  sim.at(ns(3), [&] { ran.push_back(3); });
  sim.run_until(ns(100));
  CHECK(ran == std::vector<int>{1, 2});
  CHECK(sim.now() == ns(2));  // not advanced to the limit: the run did not reach it
  CHECK(sim.stop_requested());
  sim.run();  // resumable, as after stop()
  CHECK(ran == std::vector<int>{1, 2, 3});
}

TEST_CASE("an error out of an event says which event, when, and which code scheduled it", "[sim][simulator]") {
  Simulator sim;
  sim.at(ns(1'000'000'000), [] {});
  schedule_broken_invariant(sim);
  // The second event, at 2 s; the callable's type names schedule_broken_invariant.
  CHECK_THROWS_WITH(sim.run(), Catch::StartsWith("queue state broke (in event 2 at 2 s (2000000000 ns), scheduled by ") &&
                                   Catch::Contains("schedule_broken_invariant"));
  // Any other exception escaping an event is a bug too: an internal error with the same context.
  Simulator other;
  other.at(ns(5), [] { (void)std::vector<int>{}.at(3); });
  CHECK_THROWS_AS(other.run(), InternalError);
  // Bad input found as the run goes (a cooling shortfall made an error) stays bad input, as thrown.
  Simulator input;
  input.at(ns(5), [] { throw dcsim::sim::ConfigError("on_shortfall", "the cooling cannot remove the heat"); });
  CHECK_THROWS_WITH(input.run(), "on_shortfall: the cooling cannot remove the heat");
}
