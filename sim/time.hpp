#pragma once
// Simulated time: a strong type over int64 nanoseconds.
//
// One type serves for instants (time since the start of a run) and for durations, as in ns-3:
// both are exact integer nanoseconds, so sub-microsecond network latencies add up without drift
// and event order never depends on a floating-point epsilon. int64 ns covers +-292 years.
// Conversions from seconds (double) round to the nearest nanosecond; `ceil_from_seconds` rounds
// up, which is what a completion time needs (progress never finishes early).

#include <compare>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace dcsim::sim {

class Time {
 public:
  constexpr Time() = default;

  static constexpr Time from_ns(std::int64_t ns) { return Time(ns); }
  static constexpr Time from_us(std::int64_t us) { return Time(us * 1'000); }
  static constexpr Time from_ms(std::int64_t ms) { return Time(ms * 1'000'000); }
  static constexpr Time from_s(std::int64_t s) { return Time(s * 1'000'000'000); }
  // Nearest nanosecond; saturates at max() for values beyond the range (or +inf).
  static Time from_seconds(double seconds);
  // Smallest whole nanosecond count not below `seconds` (saturating).
  static Time ceil_from_seconds(double seconds);
  static constexpr Time zero() { return Time(0); }
  // "Never": a sentinel later than any reachable instant.
  static constexpr Time max() { return Time(std::numeric_limits<std::int64_t>::max()); }

  constexpr std::int64_t ns() const { return ns_; }
  // Division, not * 1e-9: correctly rounded, so 250 ns gives exactly the double nearest 250e-9.
  constexpr double seconds() const { return static_cast<double>(ns_) / 1e9; }
  constexpr bool is_max() const { return ns_ == std::numeric_limits<std::int64_t>::max(); }

  constexpr auto operator<=>(const Time&) const = default;
  // Sums saturate at the ends of the range instead of wrapping (signed overflow is undefined,
  // and a wrapped time runs an event before the present): "now + a duration beyond 292 years"
  // is Time::max(), the time that never comes.
  constexpr Time operator+(Time o) const { return Time(saturating_add(ns_, o.ns_)); }
  constexpr Time operator-(Time o) const { return Time(saturating_sub(ns_, o.ns_)); }
  constexpr Time& operator+=(Time o) { ns_ = saturating_add(ns_, o.ns_); return *this; }
  constexpr Time& operator-=(Time o) { ns_ = saturating_sub(ns_, o.ns_); return *this; }
  constexpr Time operator*(std::int64_t k) const { return Time(ns_ * k); }
  constexpr Time operator-() const { return Time(-ns_); }

 private:
  constexpr explicit Time(std::int64_t ns) : ns_(ns) {}
  static constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return r;
  }
  static constexpr std::int64_t saturating_sub(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return r;
  }
  std::int64_t ns_ = 0;
};

// Parses "250 ns", "1.5 us", "10 min", "7 d", "2h", "0". Units: ns, us (or µs), ms, s, min, h, d,
// w. A bare number is accepted only when it is 0. Throws ParseError (sim/error.hpp) naming the
// text and what was expected. Results are rounded to the nearest nanosecond; negative durations
// are rejected unless allow_negative.
Time parse_duration(std::string_view text, bool allow_negative = false);

// Human-readable rendering with the largest unit that keeps the value readable, e.g. "1.5 us",
// "2 h 3 min". Round-trips through parse_duration only for values that format exactly.
std::string format_duration(Time t);

}  // namespace dcsim::sim
