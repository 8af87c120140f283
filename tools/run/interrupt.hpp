#pragma once
// SIGINT and SIGTERM during a run: the handler only records the signal; the engine stops at the
// next event (sim::Simulator::set_stop_flag), the run throws Interrupted, the outputs' temporaries
// are deleted while the stack unwinds, and the CLI exits 128 + the signal number (130, 143).
// A second signal while the first is being handled gets the default action (the process ends at
// once), so a stuck run can still be killed from the keyboard.

#include <atomic>
#include <memory>
#include <stdexcept>

namespace dcsim::tools::run {

// The signal received since the handlers were installed, 0 when none. Lock-free: written by the
// signal handler, read by the engine once per event.
const std::atomic<int>& interrupt_signal();

// Throws Interrupted when a signal was received.
void throw_if_interrupted();

class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }
  // What the shell reports for a process ended by the signal: 128 + its number.
  int exit_code() const { return 128 + signal_; }

 private:
  int signal_;
};

// Installs the handlers for its lifetime and restores the previous ones after; clears any
// recorded signal on construction. One at a time (the CLI's `run`).
class InterruptHandlers {
 public:
  InterruptHandlers();
  ~InterruptHandlers();
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;

 private:
  struct Saved;
  std::unique_ptr<Saved> saved_;
};

}  // namespace dcsim::tools::run
