#pragma once
// The discrete-event simulator: a clock, a pending-event set and the loop that runs it.
//
// Order: events run by (time, priority, insertion sequence). Equal keys are impossible (the
// sequence is unique), so a run is a pure function of its inputs: no tie is left to the queue's
// internals. Priorities are named so that models agree on what happens first at one instant.
//
// Complexity (see event_queue.hpp for the structure, a 256-ary radix heap): schedule O(1), pop
// amortised O(log_256(span of pending times) + log(events at the front instant)), cancel O(1)
// (lazy: the entry is dropped when it reaches the front), reschedule O(1). Scheduling never
// allocates once the pools have grown to the run's peak number of pending events.
//
// Not thread-safe: one Simulator per thread (sweeps run one per scenario instance).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "sim/callback.hpp"
#include "sim/time.hpp"

namespace dcsim::sim {

// What runs first at one instant. Lower runs earlier.
enum class Priority : std::uint8_t {
  kFirst = 0,         // externally imposed state changes (faults, scripted events)
  kRateChange = 64,   // models that change activity rates
  kCompletion = 96,   // activity completions
  kNormal = 128,      // default
  kTelemetry = 224,   // sampling sees the settled state of an instant
  kLast = 255,        // end-of-run bookkeeping
};

// Refers to one scheduled event. Stale handles (event ran or was cancelled) are detected by a
// generation count, so cancelling twice or cancelling a finished event is safe and returns false.
struct EventHandle {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
  bool valid() const { return slot != UINT32_MAX; }
};

class EventQueue;

class Simulator {
 public:
  Simulator();
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time now() const { return now_; }
  std::uint64_t events_executed() const { return executed_; }
  // Hash of (time, priority, kind) of every executed event, in order (OMNeT++'s fingerprint):
  // two runs with the same fingerprint executed the same event sequence, so golden tests catch
  // silent drift, including two events at one instant that swap places. The kind is the
  // callback's type (Callback::kind): moving an event's lambda to another function changes it.
  std::uint64_t fingerprint() const { return fingerprint_; }
  // The same hash without the kind: (time, priority) of every executed event, in order. Equal
  // before and after a refactor that only moves or renames code (a namespace, a lambda moved to
  // a collaborator class), where fingerprint() changes; the golden tests keep both, so such a
  // commit shows that the event sequence stayed and only the kinds' names moved.
  std::uint64_t timing_fingerprint() const { return timing_fingerprint_; }
  std::size_t pending() const;
  // Time of the earliest pending event, Time::max() when idle.
  Time next_event_time();

  // Schedules `cb` at absolute time `t` (t >= now(), else InternalError: the past is closed).
  EventHandle at(Time t, Callback cb, Priority priority = Priority::kNormal);
  EventHandle after(Time delay, Callback cb, Priority priority = Priority::kNormal) {
    return at(now_ + delay, std::move(cb), priority);
  }
  // False when the handle is stale (already ran, already cancelled, or never valid).
  bool cancel(EventHandle h);
  // Moves a pending event to time t, keeping its callback and priority; it gets a new sequence
  // number (it orders as if scheduled now). Returns false (and does nothing) for a stale handle.
  // `h` is updated in place; other copies of the old handle become stale. t < now() is an
  // InternalError (checked only for a pending event).
  bool reschedule(EventHandle& h, Time t);
  bool is_pending(EventHandle h) const;

  // Runs until no event is pending or stop() is called.
  void run();
  // Runs every event with time <= t, then advances the clock to t (unless stopped earlier).
  void run_until(Time t);
  // Makes run()/run_until() return after the current event. The simulator can be resumed.
  void stop() { stop_requested_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const { return stop_requested_.load(std::memory_order_relaxed); }
  // The flag stop() sets, for a signal handler (a lock-free atomic store is async-signal-safe):
  // storing true ends run() or run_until() before the next event, as stop() does. The loop
  // reads it anyway, so an outside stop costs nothing per event.
  std::atomic<bool>& stop_flag() { return stop_requested_; }

  // Calls `observer` every `every_events` executed events (progress reporting); 0 disables.
  void set_progress_observer(std::uint64_t every_events, std::function<void()> observer);

 private:
  bool step_until(Time limit);

  Time now_ = Time::zero();
  std::uint64_t executed_ = 0;
  std::uint64_t fingerprint_ = 0xCBF29CE484222325ULL;
  std::uint64_t timing_fingerprint_ = 0xCBF29CE484222325ULL;
  std::atomic<bool> stop_requested_{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "stop_flag() is stored from signal handlers");
  std::uint64_t progress_every_ = 0;
  std::uint64_t next_progress_ = UINT64_MAX;
  std::function<void()> progress_;
  std::unique_ptr<EventQueue> queue_;
};

}  // namespace dcsim::sim
