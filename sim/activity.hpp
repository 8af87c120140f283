#pragma once
// Activity: anything that progresses at a rate — a network flow, a compute phase on a GPU whose
// clock may throttle, a checkpoint write. It holds remaining work (model-defined units: bytes,
// FLOPs, seconds at nominal speed) and a current rate (units per second).
//
// When a model changes the rate, the activity first advances its remaining work to now at the old
// rate, then reschedules its completion event at now + ceil(remaining / rate) ns. Completion
// times are rounded up to the next whole nanosecond, so an activity never finishes before its
// work is done; at completion remaining() is exactly 0. A rate of 0 suspends it (no event).
//
// "Done by time T" is decided by the same arithmetic that advances the work (rate * ns / 1e9), so
// the completion instant is the first nanosecond at which remaining() reaches 0, with no epsilon.
// Work 0 completes at once (an event at now), whatever the rate.
//
// The completion callback runs as an event of priority kCompletion (or the one given). The
// activity must outlive its pending completion; destroying it cancels the event. The callback
// may destroy the activity.

#include <functional>

#include "sim/simulator.hpp"

namespace dcsim::sim {

class Activity {
 public:
  using OnComplete = std::function<void(Activity&)>;

  // Starts at sim.now(). work >= 0, rate >= 0 (else InternalError).
  Activity(Simulator& sim, double work, double rate, OnComplete on_complete,
           Priority priority = Priority::kCompletion);
  ~Activity();
  Activity(const Activity&) = delete;
  Activity& operator=(const Activity&) = delete;

  void set_rate(double rate);
  // Changes the total work to `work` (>= the work done so far, else InternalError): a model
  // that decides in flight to stop at a boundary (a training segment ending at the step in
  // flight) shortens it; the completion is rescheduled for the new remaining work.
  void set_total_work(double work);
  double rate() const { return rate_; }
  double total_work() const { return total_work_; }
  // Remaining work as of sim.now().
  double remaining() const;
  // True once the completion has run (not after cancel()).
  bool done() const { return done_; }
  bool cancelled() const { return cancelled_; }
  Time started_at() const { return started_at_; }
  Time finished_at() const { return finished_at_; }
  // Completion time at the current rate; Time::max() when suspended.
  Time expected_finish() const;
  // Stops the activity without completing it (no callback); its remaining work is frozen and its
  // rate becomes 0. set_rate() on a done or cancelled activity is an InternalError (a model bug).
  void cancel();

 private:
  void advance_to_now();
  void schedule_completion();
  void complete();

  Simulator& sim_;
  double total_work_;
  double remaining_;
  double rate_;
  Time last_update_;
  Time started_at_;
  Time finished_at_ = Time::max();
  Time scheduled_finish_ = Time::max();  // of the pending completion event
  bool done_ = false;
  bool cancelled_ = false;
  Priority priority_;
  EventHandle completion_;
  OnComplete on_complete_;
};

}  // namespace dcsim::sim
