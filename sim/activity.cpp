#include "sim/activity.hpp"

#include <cmath>
#include <string>

#include "sim/error.hpp"

namespace dcsim::sim {

namespace {

constexpr double kNsPerSecond = 1e9;

// Work done in `ns` nanoseconds at `rate` units/s. Every use goes through this one expression
// (a division by 1e9 is correctly rounded, a product with 1e-9 is not), so the completion time
// and remaining() can never disagree about whether the work is finished.
double work_in(double rate, std::int64_t ns) {
  return rate * static_cast<double>(ns) / kNsPerSecond;
}

// Smallest n >= 0 with work_in(rate, n) >= remaining; false when it is beyond the time range.
bool completion_delay_ns(double remaining, double rate, std::int64_t max_ns, std::int64_t& out) {
  if (remaining <= 0.0) {
    out = 0;
    return true;
  }
  if (rate <= 0.0) return false;
  const double estimate = std::ceil(remaining * kNsPerSecond / rate);
  if (!(estimate < static_cast<double>(max_ns))) return false;
  auto n = static_cast<std::int64_t>(estimate);
  // The estimate is within a rounding error or two of the answer: settle it exactly.
  while (n > 0 && work_in(rate, n - 1) >= remaining) --n;
  while (work_in(rate, n) < remaining) {
    if (n >= max_ns) return false;
    ++n;
  }
  out = n;
  return true;
}

void check_rate(double rate) {
  if (!(rate >= 0.0) || std::isinf(rate)) {
    throw InternalError("activity rate must be finite and >= 0, got " + std::to_string(rate) +
                        " (this is a bug)");
  }
}

}  // namespace

Activity::Activity(Simulator& sim, double work, double rate, OnComplete on_complete,
                   Priority priority)
    : sim_(sim),
      total_work_(work),
      remaining_(work),
      rate_(rate),
      last_update_(sim.now()),
      started_at_(sim.now()),
      priority_(priority),
      on_complete_(std::move(on_complete)) {
  if (!(work >= 0.0) || std::isinf(work)) {
    throw InternalError("activity work must be finite and >= 0, got " + std::to_string(work) +
                        " (this is a bug)");
  }
  check_rate(rate);
  schedule_completion();
}

Activity::~Activity() { sim_.cancel(completion_); }

void Activity::set_rate(double rate) {
  if (done_ || cancelled_) {
    throw InternalError("set_rate on an activity that is already " +
                        std::string(done_ ? "complete" : "cancelled") + " (this is a bug)");
  }
  check_rate(rate);
  advance_to_now();
  rate_ = rate;
  schedule_completion();
}

void Activity::set_total_work(double work) {
  if (done_ || cancelled_) {
    throw InternalError("set_total_work on an activity that is already " +
                        std::string(done_ ? "complete" : "cancelled") + " (this is a bug)");
  }
  advance_to_now();
  const double done_work = total_work_ - remaining_;
  if (!(work >= done_work) || std::isinf(work)) {
    throw InternalError("set_total_work(" + std::to_string(work) + ") below the " + std::to_string(done_work) +
                        " already done (this is a bug)");
  }
  total_work_ = work;
  remaining_ = work - done_work;
  schedule_completion();
}

double Activity::remaining() const {
  if (done_) return 0.0;
  const double left = remaining_ - work_in(rate_, (sim_.now() - last_update_).ns());
  return left > 0.0 ? left : 0.0;
}

Time Activity::expected_finish() const {
  if (done_) return finished_at_;
  return scheduled_finish_;
}

void Activity::cancel() {
  if (done_ || cancelled_) return;
  advance_to_now();
  rate_ = 0.0;
  cancelled_ = true;
  sim_.cancel(completion_);
  scheduled_finish_ = Time::max();
}

void Activity::advance_to_now() {
  remaining_ = remaining();
  last_update_ = sim_.now();
}

void Activity::schedule_completion() {
  const Time now = sim_.now();
  std::int64_t delay_ns = 0;
  if (!completion_delay_ns(remaining_, rate_, Time::max().ns() - now.ns(), delay_ns)) {
    // Suspended (rate 0) or beyond the representable future: no event.
    sim_.cancel(completion_);
    scheduled_finish_ = Time::max();
    return;
  }
  const Time finish = now + Time::from_ns(delay_ns);
  if (sim_.is_pending(completion_)) {
    // An unchanged finish keeps its event, and with it its place among same-instant events.
    if (finish != scheduled_finish_) sim_.reschedule(completion_, finish);
  } else {
    completion_ = sim_.at(
        finish, [this] { complete(); }, priority_);
  }
  scheduled_finish_ = finish;
}

void Activity::complete() {
  advance_to_now();
  if (remaining_ != 0.0) {
    throw InternalError("activity completed with " + std::to_string(remaining_) +
                        " work left (this is a bug)");
  }
  done_ = true;
  finished_at_ = sim_.now();
  scheduled_finish_ = finished_at_;
  // Moved out first: the callback may destroy this activity, and with it on_complete_.
  OnComplete on_complete = std::move(on_complete_);
  if (on_complete) on_complete(*this);
}

}  // namespace dcsim::sim
