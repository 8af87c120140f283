#pragma once
// SIGINT and SIGTERM during a run: the handler records the signal and raises the running
// engine's stop flag (sim::Simulator::stop_flag, see ForwardInterrupts), so the engine stops at
// the next event; the run throws Interrupted, the outputs' temporaries are deleted while the
// stack unwinds, and the CLI exits 128 + the signal number (130, 143).
// A second signal while the first is being handled gets the default action (the process ends at
// once), so a stuck run can still be killed from the keyboard.

#include <atomic>
#include <cstddef>
#include <memory>
#include <stdexcept>

namespace dcsim::tools::run {

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

// While it lives, a signal also stores true into `flag` (an engine's stop flag). Several may live
// at once, on several threads (a sweep runs one simulation per thread).
class ForwardInterrupts {
 public:
  explicit ForwardInterrupts(std::atomic<bool>& flag);
  ~ForwardInterrupts();
  ForwardInterrupts(const ForwardInterrupts&) = delete;
  ForwardInterrupts& operator=(const ForwardInterrupts&) = delete;

 private:
  std::size_t slot_ = static_cast<std::size_t>(-1);  // none when every slot was taken
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
