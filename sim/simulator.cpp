#include "sim/simulator.hpp"

#include <cstdint>
#include <cstdlib>
#include <cxxabi.h>
#include <string>

#include "sim/error.hpp"
#include "sim/event_queue.hpp"

namespace dcsim::sim {

namespace {

[[noreturn]] void past_time(const char* what, Time t, Time now) {
  throw InternalError(std::string(what) + " at " + format_duration(t) + " (" +
                      std::to_string(t.ns()) + " ns), before the current time " +
                      format_duration(now) + " (" + std::to_string(now.ns()) +
                      " ns): the past is closed (this is a bug)");
}

// "(in event 8812 at 1 h 0.5 s (3600500000000 ns), scheduled by dcsim::models::...::start_job(...)
// ::{lambda()#2})": where in the run and in the code an exception out of an event came from.
// The callable's type names the class and function that scheduled the event (not the instance:
// the engine knows no components).
std::string event_context(std::uint64_t number, Time now, const Callback::Kind* kind) {
  std::string scheduled_by = "an empty callback";
  if (kind != nullptr) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(kind->type_name, nullptr, nullptr, &status);
    scheduled_by = status == 0 && demangled != nullptr ? demangled : kind->type_name;
    std::free(demangled);
  }
  return "(in event " + std::to_string(number) + " at " + format_duration(now) + " (" + std::to_string(now.ns()) +
         " ns), scheduled by " + scheduled_by + ")";
}

}  // namespace

Simulator::Simulator() : queue_(std::make_unique<EventQueue>()) {}
Simulator::~Simulator() = default;

std::size_t Simulator::pending() const { return queue_->size(); }

Time Simulator::next_event_time() { return queue_->peek_time(); }

EventHandle Simulator::at(Time t, Callback cb, Priority priority) {
  if (t < now_) past_time("event scheduled", t, now_);
  return queue_->push(t, priority, std::move(cb));
}

bool Simulator::cancel(EventHandle h) { return queue_->cancel(h); }

bool Simulator::reschedule(EventHandle& h, Time t) {
  if (!queue_->is_pending(h)) return false;
  if (t < now_) past_time("event rescheduled", t, now_);
  return queue_->reschedule(h, t);
}

bool Simulator::is_pending(EventHandle h) const { return queue_->is_pending(h); }

void Simulator::run() {
  stop_requested_.store(false, std::memory_order_relaxed);
  while (!stop_requested() && step_until(Time::max())) {
  }
}

void Simulator::run_until(Time t) {
  if (t < now_) past_time("run_until", t, now_);
  stop_requested_.store(false, std::memory_order_relaxed);
  while (!stop_requested() && step_until(t)) {
  }
  if (!stop_requested()) now_ = t;
}

bool Simulator::step_until(Time limit) {
  EventQueue::Popped event;
  if (!queue_->pop(limit, event)) return false;
  now_ = event.time;
  ++executed_;
  // FNV-1a over (time, priority, kind) words: a swap of two events at one instant changes it.
  constexpr std::uint64_t kPrime = 0x100000001B3ULL;
  fingerprint_ = (fingerprint_ ^ static_cast<std::uint64_t>(now_.ns())) * kPrime;
  fingerprint_ = (fingerprint_ ^ static_cast<std::uint64_t>(event.priority)) * kPrime;
  timing_fingerprint_ = (timing_fingerprint_ ^ static_cast<std::uint64_t>(now_.ns())) * kPrime;
  timing_fingerprint_ = (timing_fingerprint_ ^ static_cast<std::uint64_t>(event.priority)) * kPrime;
  const Callback::Kind* kind = queue_->kind_info(event.slot);
  fingerprint_ = (fingerprint_ ^ (kind == nullptr ? 0 : kind->hash)) * kPrime;
  // A try block costs nothing until something throws (table-driven unwinding).
  try {
    queue_->invoke(event.slot);
  } catch (const InputError&) {
    throw;  // bad input found as the run goes (a cooling shortfall made an error): the user's
  } catch (const std::exception& e) {
    throw InternalError(std::string(e.what()) + " " + event_context(executed_, now_, kind));
  }
  if (executed_ == next_progress_) [[unlikely]] {
    next_progress_ += progress_every_;
    progress_();
  }
  return true;
}

void Simulator::set_progress_observer(std::uint64_t every_events, std::function<void()> observer) {
  progress_ = std::move(observer);
  progress_every_ = progress_ ? every_events : 0;
  // Fire on multiples of every_events, counted from the start of the run.
  next_progress_ =
      progress_every_ == 0 ? UINT64_MAX : (executed_ / progress_every_ + 1) * progress_every_;
}

}  // namespace dcsim::sim
