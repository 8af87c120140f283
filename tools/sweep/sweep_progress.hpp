#pragma once
// The progress line of a sweep, on stderr: "sweep NAME: 37/100 done, 1 failed, ETA 1 min 20 s".
// On a terminal it is redrawn in place at most a few times a second; elsewhere (a CI log) a line
// is printed at most every `log_interval`, so a 10,000-variant sweep does not flood the log.
// Thread-safe: the workers report finished variants from their threads.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>

namespace dcsim::tools::sweep {

class SweepProgress {
 public:
  // `total`: the variants this process handles; `enabled` false prints nothing (--quiet).
  SweepProgress(std::ostream& out, std::string label, std::size_t total, bool enabled, bool terminal,
                std::chrono::milliseconds log_interval = std::chrono::seconds(10));
  // A variant finished: run now (its time counts for the ETA) or reused from an earlier run.
  void variant_done(bool failed, bool reused);
  // Prints a message on its own line (the progress line is redrawn after it).
  void note(const std::string& message);
  // The final line (on a terminal: replacing the progress line).
  void finish();

  // "sweep NAME: 37/100 done, 1 failed, ETA 1 min 20 s" (ETA "--" while unknown, i.e. < 0).
  static std::string format_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                                 double eta_s, const std::string& kind = "sweep");
  // What is counted, first on the line ("sweep", "design").
  void set_kind(std::string kind) { kind_ = std::move(kind); }
  // The work planned, when it becomes known (a search learns it from its strategy).
  void set_total(std::size_t total);
  // "45 s", "1 min 20 s", "2 h 05 min".
  static std::string format_duration(double seconds);

 private:
  void draw(bool force);

  std::ostream& out_;
  std::string label_;
  std::size_t total_;
  std::string kind_ = "sweep";
  bool enabled_;
  bool terminal_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  std::size_t done_ = 0, failed_ = 0, reused_ = 0;
  bool drawn_ = false;
};

}  // namespace dcsim::tools::sweep
