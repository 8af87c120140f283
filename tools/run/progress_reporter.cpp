#include "tools/run/progress_reporter.hpp"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

namespace dcsim::tools::run {

ProgressReporter::ProgressReporter(std::ostream& out, std::chrono::milliseconds min_interval)
    : out_(out), min_interval_(min_interval), start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

namespace {

// Two significant units ("3 d 4 h", "12 min 5 s"): the line is read at a glance, not parsed.
std::string compact_duration(sim::Time t) {
  const double s = t.seconds();
  const auto whole = static_cast<long long>(s);
  if (s >= 86400) return fmt::format("{} d {} h", whole / 86400, (whole % 86400) / 3600);
  if (s >= 3600) return fmt::format("{} h {} min", whole / 3600, (whole % 3600) / 60);
  if (s >= 60) return fmt::format("{} min {} s", whole / 60, whole % 60);
  if (s >= 1) return fmt::format("{:.3f} s", s);
  return sim::format_duration(t);
}

}  // namespace

std::string ProgressReporter::format_line(sim::Time now, double fraction, double events_per_s, double eta_s) {
  std::string eta = "--";
  if (eta_s >= 0) {
    const auto s = static_cast<long long>(eta_s + 0.5);
    eta = s >= 3600 ? fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60)
                    : fmt::format("{}m{:02}s", s / 60, s % 60);
  }
  return fmt::format("sim {} | {:5.1f}% | {:.2f} M events/s | ETA {}", compact_duration(now),
                     100.0 * std::clamp(fraction, 0.0, 1.0), events_per_s / 1e6, eta);
}

void ProgressReporter::update(sim::Time now, double fraction, std::uint64_t events) {
  const auto wall = std::chrono::steady_clock::now();
  if (wall - last_draw_ < min_interval_) return;
  last_draw_ = wall;
  const double elapsed = std::chrono::duration<double>(wall - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(events) / elapsed : 0.0;
  const double eta = fraction > 0.001 ? elapsed * (1.0 - fraction) / fraction : -1.0;
  out_ << '\r' << format_line(now, fraction, rate, eta) << "\x1b[K" << std::flush;
  drawn_ = true;
}

void ProgressReporter::phase(const std::string& what) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  out_ << '\r' << fmt::format("{} ({:.1f} s)", what, elapsed) << "\x1b[K" << std::flush;
  drawn_ = true;
}

void ProgressReporter::done() {
  if (drawn_) out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace dcsim::tools::run
