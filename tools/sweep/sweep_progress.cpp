#include "tools/sweep/sweep_progress.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace dcsim::tools::sweep {

namespace {
// Redraws on a terminal: often enough to look alive, rarely enough to cost nothing.
constexpr std::chrono::milliseconds kTerminalInterval{200};
}  // namespace

SweepProgress::SweepProgress(std::ostream& out, std::string label, std::size_t total, bool enabled, bool terminal,
                             std::chrono::milliseconds log_interval)
    : out_(out),
      label_(std::move(label)),
      total_(total),
      enabled_(enabled),
      terminal_(terminal),
      interval_(terminal ? kTerminalInterval : log_interval),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

std::string SweepProgress::format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
}

std::string SweepProgress::format_line(const std::string& label, std::size_t done, std::size_t total,
                                       std::size_t failed, double eta_s, const std::string& kind) {
  return fmt::format("{} {}: {}/{} done, {} failed, ETA {}", kind, label, done, total, failed,
                     eta_s < 0 ? std::string("--") : format_duration(eta_s));
}

void SweepProgress::set_total(std::size_t total) {
  const std::lock_guard lock(mutex_);
  total_ = total;
}

void SweepProgress::variant_done(bool failed, bool reused) {
  const std::lock_guard lock(mutex_);
  ++done_;
  failed_ += failed ? 1 : 0;
  reused_ += reused ? 1 : 0;
  draw(false);
}

void SweepProgress::note(const std::string& message) {
  const std::lock_guard lock(mutex_);
  if (terminal_ && drawn_) out_ << "\r\x1b[K";
  out_ << message << '\n';
  if (terminal_ && drawn_) draw(true);
  out_ << std::flush;
}

void SweepProgress::draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < interval_ && done_ != total_) return;
  last_draw_ = now;
  // The rate of the variants run now: reused ones took no time and would make the ETA too short.
  const std::size_t ran = done_ - reused_;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // A total not known yet (a search that decides as it goes) reads as what is done so far.
  const std::size_t total = std::max(total_, done_);
  const double eta = ran > 0 ? elapsed / static_cast<double>(ran) * static_cast<double>(total - done_) : -1.0;
  const std::string line = format_line(label_, done_, total, failed_, done_ == total ? 0.0 : eta, kind_);
  if (terminal_) {
    out_ << '\r' << line << "\x1b[K" << std::flush;
  } else {
    out_ << line << '\n' << std::flush;
  }
  drawn_ = true;
}

void SweepProgress::finish() {
  const std::lock_guard lock(mutex_);
  if (!enabled_) return;
  if (terminal_ && drawn_) {
    out_ << "\r\x1b[K" << std::flush;
  }
  drawn_ = false;
}

}  // namespace dcsim::tools::sweep
