#include "tools/run/interrupt.hpp"

#include <csignal>
#include <string>

namespace dcsim::tools::run {

namespace {

std::atomic<int> g_signal{0};
std::atomic<std::atomic<bool>*> g_forward{nullptr};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free, "the signal handler needs a lock-free pointer");

extern "C" void record_signal(int signal) {
  g_signal.store(signal, std::memory_order_relaxed);
  if (std::atomic<bool>* flag = g_forward.load(std::memory_order_acquire)) flag->store(true, std::memory_order_relaxed);
}

}  // namespace

ForwardInterrupts::ForwardInterrupts(std::atomic<bool>& flag) { g_forward.store(&flag, std::memory_order_release); }
ForwardInterrupts::~ForwardInterrupts() { g_forward.store(nullptr, std::memory_order_release); }

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
