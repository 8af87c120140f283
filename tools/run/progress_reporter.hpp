#pragma once
// The progress line of a long run on a terminal: simulated time reached, percent, events/s, ETA.
// Redrawn in place (carriage return) at most a few times a second, on stderr, so stdout stays
// clean for results and pipes.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include "sim/time.hpp"

namespace dcsim::tools::run {

class ProgressReporter {
 public:
  explicit ProgressReporter(std::ostream& out, std::chrono::milliseconds min_interval = std::chrono::milliseconds(200));
  // fraction in [0, 1]: of the simulated duration, or of the work (jobs) in open-ended runs.
  void update(sim::Time now, double fraction, std::uint64_t events);
  // Shows what the run does where there are no events to count ("writing out/trace.h5"), at
  // once, until the next update.
  void phase(const std::string& what);
  // Clears the line.
  void done();

  // The text of one progress line (no carriage return); exposed for tests.
  static std::string format_line(sim::Time now, double fraction, double events_per_s, double eta_s);

 private:
  std::ostream& out_;
  std::chrono::milliseconds min_interval_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

// True when stderr is a terminal (the progress line is for people, not logs).
bool stderr_is_terminal();

}  // namespace dcsim::tools::run
