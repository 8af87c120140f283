#include "tools/run/interrupt.hpp"

#include <array>
#include <csignal>
#include <cstddef>
#include <string>

namespace dcsim::tools::run {

namespace {

std::atomic<int> g_signal{0};
// One slot per run in progress: a sweep runs one per thread. A fixed array of lock-free
// pointers, because the signal handler may neither lock nor allocate. A run that finds every
// slot taken is not forwarded to; it still stops when it checks throw_if_interrupted().
constexpr std::size_t kForwardSlots = 256;
std::array<std::atomic<std::atomic<bool>*>, kForwardSlots> g_forward{};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free, "the signal handler needs a lock-free pointer");

extern "C" void record_signal(int signal) {
  g_signal.store(signal, std::memory_order_relaxed);
  for (auto& slot : g_forward) {
    if (std::atomic<bool>* flag = slot.load(std::memory_order_acquire)) flag->store(true, std::memory_order_relaxed);
  }
}

}  // namespace

ForwardInterrupts::ForwardInterrupts(std::atomic<bool>& flag) {
  for (std::size_t i = 0; i < kForwardSlots; ++i) {
    std::atomic<bool>* expected = nullptr;
    if (g_forward[i].compare_exchange_strong(expected, &flag, std::memory_order_acq_rel)) {
      slot_ = i;
      break;
    }
  }
  // A signal that arrived before the slot was taken: stop at once rather than run to the end.
  if (g_signal.load(std::memory_order_relaxed) != 0) flag.store(true, std::memory_order_relaxed);
}
ForwardInterrupts::~ForwardInterrupts() {
  if (slot_ < kForwardSlots) g_forward[slot_].store(nullptr, std::memory_order_release);
}

void throw_if_interrupted() {
  const int signal = g_signal.load(std::memory_order_relaxed);
  if (signal != 0) throw Interrupted(signal);
}

Interrupted::Interrupted(int signal)
    : std::runtime_error(std::string("interrupted by ") +
                         (signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal") +
                         "; no output was written"),
      signal_(signal) {}

struct InterruptHandlers::Saved {
  struct sigaction interrupt {};
  struct sigaction terminate {};
};

InterruptHandlers::InterruptHandlers() : saved_(std::make_unique<Saved>()) {
  g_signal.store(0, std::memory_order_relaxed);
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  // Once: a second signal finds the default action back in place and ends the process.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &saved_->interrupt);
  sigaction(SIGTERM, &action, &saved_->terminate);
}

InterruptHandlers::~InterruptHandlers() {
  sigaction(SIGINT, &saved_->interrupt, nullptr);
  sigaction(SIGTERM, &saved_->terminate, nullptr);
}

}  // namespace dcsim::tools::run
