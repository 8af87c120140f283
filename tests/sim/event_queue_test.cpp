// EventQueue: order, ties, cancellation, rescheduling, stale handles, and a randomized
// differential test against a std::map reference (the same contract a different queue
// implementation would have to meet).

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "sim/event_queue.hpp"
#include "sim/random.hpp"

namespace {

using dcsim::sim::Callback;
using dcsim::sim::EventHandle;
using dcsim::sim::EventQueue;
using dcsim::sim::Priority;
using dcsim::sim::RandomStream;
using dcsim::sim::Time;

Time ns(std::int64_t n) { return Time::from_ns(n); }

// Pops and runs everything.
void drain(EventQueue& q) {
  EventQueue::Popped p;
  while (q.pop(Time::max(), p)) q.invoke(p.slot);
}

Callback record(std::vector<int>& log, int id) {
  return [&log, id] { log.push_back(id); };
}

}  // namespace

TEST_CASE("events pop in time order across all radix levels", "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  // Times chosen to land in different levels and digits relative to base 0: byte 0, byte 1,
  // byte 3, byte 5 and byte 7 differ.
  const std::vector<std::int64_t> times{
      1'000'000'000'000'000'000, 70'000, 255, 3, 1LL << 40, 256, 0, 1LL << 24, 5'000'000'000, 4};
  for (std::size_t i = 0; i < times.size(); ++i) {
    q.push(ns(times[i]), Priority::kNormal, record(log, static_cast<int>(i)));
  }
  REQUIRE(q.size() == times.size());
  drain(q);
  // Sorted by time: 0, 3, 4, 255, 256, 70000, 2^24, 5e9, 2^40, 1e18.
  CHECK(log == std::vector<int>{6, 3, 9, 2, 5, 1, 7, 8, 4, 0});
  CHECK(q.empty());
}

TEST_CASE("equal times run by priority, then in insertion order", "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  q.push(ns(10), Priority::kNormal, record(log, 1));
  q.push(ns(10), Priority::kTelemetry, record(log, 2));
  q.push(ns(10), Priority::kNormal, record(log, 3));
  q.push(ns(10), Priority::kFirst, record(log, 4));
  q.push(ns(5), Priority::kLast, record(log, 5));
  q.push(ns(10), Priority::kCompletion, record(log, 6));
  q.push(ns(10), Priority::kNormal, record(log, 7));
  drain(q);
  // 5 is earliest whatever its priority; at 10: kFirst, kCompletion, the three kNormal in the
  // order they were pushed, then kTelemetry.
  CHECK(log == std::vector<int>{5, 4, 6, 1, 3, 7, 2});
}

TEST_CASE("an event pushed at the front instant while it runs keeps the tie order",
          "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  q.push(ns(7), Priority::kNormal, [&] {
    log.push_back(1);
    // Same instant: kFirst runs before the pending kNormal 2, kLast after it.
    q.push(ns(7), Priority::kLast, record(log, 4));
    q.push(ns(7), Priority::kFirst, record(log, 3));
  });
  q.push(ns(7), Priority::kNormal, record(log, 2));
  drain(q);
  CHECK(log == std::vector<int>{1, 3, 2, 4});
}

TEST_CASE("popped events report time, priority and sequence", "[sim][event_queue]") {
  EventQueue q;
  q.push(ns(3), Priority::kTelemetry, [] {});
  q.push(ns(3), Priority::kFirst, [] {});
  EventQueue::Popped p;
  REQUIRE(q.pop(Time::max(), p));
  CHECK(p.time == ns(3));
  CHECK(p.priority == Priority::kFirst);
  const std::uint64_t first_sequence = p.sequence;
  q.discard(p.slot);
  REQUIRE(q.pop(Time::max(), p));
  CHECK(p.priority == Priority::kTelemetry);
  CHECK(p.sequence < first_sequence);  // pushed first
  q.discard(p.slot);
  CHECK_FALSE(q.pop(Time::max(), p));
}

TEST_CASE("pop respects its limit and peek_time sees the front", "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  CHECK(q.peek_time() == Time::max());
  q.push(ns(100), Priority::kNormal, record(log, 1));
  q.push(ns(50), Priority::kNormal, record(log, 2));
  CHECK(q.peek_time() == ns(50));
  EventQueue::Popped p;
  CHECK_FALSE(q.pop(ns(49), p));
  REQUIRE(q.pop(ns(50), p));
  q.invoke(p.slot);
  CHECK_FALSE(q.pop(ns(99), p));
  // Looking at 100 moved the queue's base there; 60 must still come out first.
  q.push(ns(60), Priority::kNormal, record(log, 3));
  CHECK(q.peek_time() == ns(60));
  drain(q);
  CHECK(log == std::vector<int>{2, 3, 1});
}

TEST_CASE("a pop that finds nothing due leaves room for events before the next one",
          "[sim][event_queue]") {
  // run_until(limit) then scheduling between limit and the next event is the common pattern:
  // those events must stay in the radix buckets, not fall into the overflow heap.
  EventQueue q;
  std::vector<int> log;
  q.push(ns(5'000'000'000), Priority::kNormal, record(log, 3));
  EventQueue::Popped p;
  // The last limit lies inside the radix bucket of the 5e9 event ([2^32, 2^40) relative to 0).
  for (std::int64_t limit : {1'000LL, 1'000'000LL, 4'500'000'000LL, 4'999'999'000LL}) {
    CHECK_FALSE(q.pop(ns(limit), p));
    q.push(ns(limit + 7), Priority::kNormal, [] {});
    CHECK(q.early_entries() == 0);
    REQUIRE(q.pop(ns(limit + 7), p));
    q.invoke(p.slot);
  }
  q.push(ns(4'999'999'500), Priority::kNormal, record(log, 1));
  q.push(ns(4'999'999'500), Priority::kNormal, record(log, 2));
  drain(q);
  CHECK(q.early_entries() == 0);
  CHECK(log == std::vector<int>{1, 2, 3});
}

TEST_CASE("cancel: true once, then stale; stale and default handles are harmless",
          "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  const EventHandle a = q.push(ns(1), Priority::kNormal, record(log, 1));
  const EventHandle b = q.push(ns(2), Priority::kNormal, record(log, 2));
  CHECK(q.is_pending(a));
  CHECK(q.cancel(a));
  CHECK_FALSE(q.is_pending(a));
  CHECK_FALSE(q.cancel(a));  // twice
  CHECK(q.size() == 1);
  CHECK_FALSE(q.cancel(EventHandle{}));
  CHECK_FALSE(q.is_pending(EventHandle{}));
  CHECK_FALSE(q.cancel(EventHandle{12345, 1}));  // slot never used
  // a's slot is reused by c: a's handle must not reach c.
  const EventHandle c = q.push(ns(3), Priority::kNormal, record(log, 3));
  CHECK(c.slot == a.slot);
  CHECK_FALSE(q.cancel(a));
  CHECK(q.is_pending(c));
  drain(q);
  CHECK(log == std::vector<int>{2, 3});
  CHECK_FALSE(q.cancel(b));  // already ran
  CHECK_FALSE(q.is_pending(c));
}

TEST_CASE("cancel destroys the callback's captures at once", "[sim][event_queue]") {
  EventQueue q;
  auto token = std::make_shared<int>(0);
  const EventHandle h = q.push(ns(5), Priority::kNormal, [token] {});
  CHECK(token.use_count() == 2);
  q.cancel(h);
  CHECK(token.use_count() == 1);
}

TEST_CASE("an event cannot cancel itself while it runs", "[sim][event_queue]") {
  EventQueue q;
  EventHandle self;
  bool cancel_result = true;
  self = q.push(ns(1), Priority::kNormal, [&] { cancel_result = q.cancel(self); });
  EventQueue::Popped p;
  REQUIRE(q.pop(Time::max(), p));
  q.invoke(p.slot);
  CHECK_FALSE(cancel_result);
}

TEST_CASE("reschedule moves an event earlier or later and keeps its priority",
          "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  EventHandle a = q.push(ns(100), Priority::kNormal, record(log, 1));
  EventHandle b = q.push(ns(200), Priority::kFirst, record(log, 2));
  q.push(ns(150), Priority::kNormal, record(log, 3));
  EventHandle a_before = a;
  REQUIRE(q.reschedule(a, ns(300)));  // later
  REQUIRE(q.reschedule(b, ns(50)));   // earlier
  CHECK(q.is_pending(a));
  CHECK_FALSE(q.is_pending(a_before));  // the handle was updated; the old copy is stale
  CHECK_FALSE(q.reschedule(a_before, ns(1)));
  CHECK(q.size() == 3);
  // b keeps kFirst: at 150 it would precede a kNormal pushed earlier.
  REQUIRE(q.reschedule(b, ns(150)));
  drain(q);
  CHECK(log == std::vector<int>{2, 3, 1});
}

TEST_CASE("a rescheduled event orders as if scheduled now among equals", "[sim][event_queue]") {
  EventQueue q;
  std::vector<int> log;
  EventHandle a = q.push(ns(10), Priority::kNormal, record(log, 1));
  q.push(ns(10), Priority::kNormal, record(log, 2));
  REQUIRE(q.reschedule(a, ns(10)));  // same time, new sequence: now after 2
  drain(q);
  CHECK(log == std::vector<int>{2, 1});
}

TEST_CASE("a throwing callback still frees its slot", "[sim][event_queue]") {
  EventQueue q;
  auto token = std::make_shared<int>(0);
  q.push(ns(1), Priority::kNormal, [token] { throw std::runtime_error("model failed"); });
  EventQueue::Popped p;
  REQUIRE(q.pop(Time::max(), p));
  CHECK_THROWS_AS(q.invoke(p.slot), std::runtime_error);
  CHECK(token.use_count() == 1);  // callback destroyed
  CHECK(q.empty());
  // The slot is reusable.
  bool ran = false;
  q.push(ns(2), Priority::kNormal, [&] { ran = true; });
  REQUIRE(q.pop(Time::max(), p));
  q.invoke(p.slot);
  CHECK(ran);
}

TEST_CASE("stale entries of cancelled far-future events are compacted", "[sim][event_queue]") {
  EventQueue q;
  // A timeout pattern: each step schedules a far timeout, cancels the previous one and
  // advances by one event. Stale entries must not pile up without bound.
  EventHandle timeout;
  EventQueue::Popped p;
  std::int64_t now = 0;
  constexpr int kSteps = 100'000;
  std::size_t max_stale = 0;
  for (int i = 0; i < kSteps; ++i) {
    q.cancel(timeout);
    timeout = q.push(ns(now + 1'000'000'000'000), Priority::kNormal, [] {});
    q.push(ns(now + 10), Priority::kNormal, [] {});
    REQUIRE(q.pop(Time::max(), p));
    CHECK(p.time == ns(now + 10));
    q.invoke(p.slot);
    now += 10;
    max_stale = std::max(max_stale, q.stale_entries());
  }
  CHECK(q.size() == 1);
  CHECK(max_stale < 10'000);  // compaction at 4096 stale entries (when they outnumber live)
}

TEST_CASE("differential: random schedule/cancel/reschedule/pop against a reference",
          "[sim][event_queue]") {
  // Reference: a std::map keyed by (time, priority, sequence), the order's definition. The
  // reference numbers sequences exactly as the queue does (one per push and per reschedule),
  // so both must agree on every pop, tie included.
  using Key = std::tuple<std::int64_t, int, std::uint64_t>;
  std::map<Key, int> reference;
  struct Live {
    EventHandle handle;
    Key key;
  };
  std::map<int, Live> live;  // by id, ordered so that random picks are deterministic
  EventQueue q;
  RandomStream rng(2024, "tests/sim/event_queue", "differential");
  std::uint64_t sequence = 0;
  std::int64_t now = 0;  // time of the last pop; pushes are never earlier (the engine's rule)
  int next_id = 0;
  int ran_id = -1;
  constexpr int kOps = 100'000;
  const Priority priorities[] = {Priority::kFirst, Priority::kRateChange, Priority::kNormal,
                                 Priority::kTelemetry};

  auto random_time = [&]() -> std::int64_t {
    // Delays across every radix level, with many exact ties and zero delays.
    switch (rng.uniform_int(6)) {
      case 0:
        return now;
      case 1:
        return now + static_cast<std::int64_t>(rng.uniform_int(4));
      case 2:
        return now + static_cast<std::int64_t>(rng.uniform_int(1'000));
      case 3:
        return now + static_cast<std::int64_t>(rng.uniform_int(10'000'000));
      case 4:
        return now + static_cast<std::int64_t>(rng.uniform_int(1'000'000'000'000));
      default:
        return now + static_cast<std::int64_t>(rng.uniform_int(std::uint64_t{1} << 61));
    }
  };
  auto pick_live = [&]() {
    auto it =
        live.lower_bound(static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(next_id))));
    return it == live.end() ? live.begin() : it;
  };

  for (int op = 0; op < kOps; ++op) {
    const std::uint64_t kind = rng.uniform_int(100);
    if (kind < 45 || live.empty()) {
      const std::int64_t t = random_time();
      const Priority pr = priorities[rng.uniform_int(4)];
      const int id = next_id++;
      const Key key{t, static_cast<int>(pr), ++sequence};
      const EventHandle h = q.push(ns(t), pr, [&ran_id, id] { ran_id = id; });
      reference.emplace(key, id);
      live.emplace(id, Live{h, key});
    } else if (kind < 60) {
      auto it = pick_live();
      REQUIRE(q.cancel(it->second.handle));
      REQUIRE_FALSE(q.cancel(it->second.handle));
      reference.erase(it->second.key);
      live.erase(it);
    } else if (kind < 70) {
      auto it = pick_live();
      const std::int64_t t = random_time();
      REQUIRE(q.reschedule(it->second.handle, ns(t)));
      reference.erase(it->second.key);
      it->second.key = Key{t, std::get<1>(it->second.key), ++sequence};
      reference.emplace(it->second.key, it->first);
    } else if (kind < 75) {
      // Peek (moves the queue's base to the front), then maybe push between now and the front:
      // what run_until() followed by a model's schedule does.
      const Time front = q.peek_time();
      REQUIRE(front == Time::from_ns(std::get<0>(reference.begin()->first)));
      if (front.ns() > now) {
        const std::int64_t t = now + static_cast<std::int64_t>(rng.uniform_int(
                                         static_cast<std::uint64_t>(front.ns() - now)));
        const int id = next_id++;
        const Key key{t, static_cast<int>(Priority::kNormal), ++sequence};
        const EventHandle h = q.push(ns(t), Priority::kNormal, [&ran_id, id] { ran_id = id; });
        reference.emplace(key, id);
        live.emplace(id, Live{h, key});
      }
    } else if (kind < 80) {
      // pop with a limit, as run_until(limit) does; when nothing is due the clock moves to the
      // limit (later pushes are never earlier than it).
      const std::int64_t limit = random_time();
      const auto expected = reference.begin();
      EventQueue::Popped p;
      if (std::get<0>(expected->first) <= limit) {
        REQUIRE(q.pop(ns(limit), p));
        REQUIRE(p.time.ns() == std::get<0>(expected->first));
        q.invoke(p.slot);
        REQUIRE(ran_id == expected->second);
        now = p.time.ns();
        live.erase(ran_id);
        reference.erase(expected);
      } else {
        REQUIRE_FALSE(q.pop(ns(limit), p));
        now = limit;
      }
    } else {
      EventQueue::Popped p;
      REQUIRE(q.pop(Time::max(), p));
      const auto expected = reference.begin();
      REQUIRE(p.time.ns() == std::get<0>(expected->first));
      REQUIRE(static_cast<int>(p.priority) == std::get<1>(expected->first));
      q.invoke(p.slot);
      REQUIRE(ran_id == expected->second);
      REQUIRE_FALSE(q.is_pending(live.at(ran_id).handle));
      now = p.time.ns();
      live.erase(ran_id);
      reference.erase(expected);
    }
    REQUIRE(q.size() == reference.size());
  }
  // Drain the rest in order.
  EventQueue::Popped p;
  while (q.pop(Time::max(), p)) {
    q.invoke(p.slot);
    REQUIRE(ran_id == reference.begin()->second);
    reference.erase(reference.begin());
  }
  CHECK(reference.empty());
}
