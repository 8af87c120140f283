#include "sim/time.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/error.hpp"

namespace dcsim::sim {

namespace {

constexpr std::int64_t kMaxNs = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinNs = std::numeric_limits<std::int64_t>::min();
// 2^63 as a double: the first value that no longer fits an int64.
constexpr double kTwoPow63 = 9223372036854775808.0;

__extension__ typedef __int128 Int128;  // GCC/Clang: exact 19-digit x unit products

struct Unit {
  std::string_view name;
  std::int64_t ns;
};

// Matched against the whole unit word, so no spelling shadows another. Case matters: "Ms" or
// "S" are more likely typos for something else than a duration.
constexpr std::array<Unit, 11> kUnits{{
    {"ns", 1},
    {"us", 1'000},
    {"\xC2\xB5s", 1'000},  // µs, MICRO SIGN
    {"\xCE\xBCs", 1'000},  // μs, GREEK SMALL LETTER MU: looks the same, so accept it too
    {"ms", 1'000'000},
    {"s", 1'000'000'000},
    {"sec", 1'000'000'000},
    {"min", 60'000'000'000},
    {"h", 3'600'000'000'000},
    {"d", 86'400'000'000'000},
    {"w", 604'800'000'000'000},
}};

std::int64_t saturate(double ns) {
  if (std::isnan(ns)) throw InternalError("Time from NaN seconds (this is a bug)");
  if (ns >= kTwoPow63) return kMaxNs;
  if (ns <= -kTwoPow63) return kMinNs;
  return static_cast<std::int64_t>(ns);
}

[[noreturn]] void bad_duration(std::string_view text) {
  throw ParseError("expected a duration such as \"1.5 us\" or \"10 min\", got \"" +
                   std::string(text) + "\"");
}

[[noreturn]] void out_of_range(std::string_view text) {
  throw ParseError("duration \"" + std::string(text) +
                   "\" is out of range (at most about 292 years)");
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A number as written: value = digits * 10^exponent, exactly.
struct Decimal {
  std::string digits;  // significant digits, no leading zeros (empty means zero)
  std::int64_t exponent = 0;
};

// Reads [digits][.digits][e[+-]digits] at pos. Returns false when no digit is present.
bool read_decimal(std::string_view s, std::size_t& pos, Decimal& out) {
  std::string all;
  std::int64_t exponent = 0;
  bool any = false;
  while (pos < s.size() && is_digit(s[pos])) {
    all += s[pos++];
    any = true;
  }
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && is_digit(s[pos])) {
      all += s[pos++];
      --exponent;
      any = true;
    }
  }
  if (!any) return false;
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    std::size_t p = pos + 1;
    bool negative = false;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) negative = s[p++] == '-';
    if (p >= s.size() || !is_digit(s[p])) return false;  // "1e" or "1e+" is not a number
    std::int64_t e = 0;
    while (p < s.size() && is_digit(s[p])) {
      // Clamp: any exponent past a few hundred already over- or underflows every duration.
      if (e < 100'000) e = e * 10 + (s[p] - '0');
      ++p;
    }
    exponent += negative ? -e : e;
    pos = p;
  }
  const std::size_t first = all.find_first_not_of('0');
  if (first == std::string::npos) {
    out.digits.clear();
    out.exponent = 0;
    return true;
  }
  std::size_t last = all.find_last_not_of('0');
  exponent += static_cast<std::int64_t>(all.size() - 1 - last);  // trailing zeros
  out.digits = all.substr(first, last - first + 1);
  out.exponent = exponent;
  return true;
}

// digits * 10^exponent * unit_ns rounded to the nearest ns (halves away from zero). Exact
// integer arithmetic whenever the significand fits 19 digits; otherwise long double, which is
// still correct to the nanosecond for any value a person would write.
bool decimal_to_ns(const Decimal& d, std::int64_t unit_ns, Int128& out) {
  if (d.digits.empty()) {
    out = 0;
    return true;
  }
  constexpr Int128 kLimit = static_cast<Int128>(kMaxNs) + 1;  // allow INT64_MIN after negation
  if (d.digits.size() > 19) {
    // The value is at least 10^(digits - 1 + exponent) ns: from 10^20 on it is out of range
    // whatever the unit, and long double (to about 10^4932) would not even hold 5,000 digits.
    const auto magnitude = static_cast<std::int64_t>(d.digits.size()) - 1 + d.exponent;
    if (magnitude >= 20) return false;
    // 30 significant digits are more than a nanosecond of 292 years needs (19).
    constexpr std::size_t kKept = 30;
    const std::size_t kept = std::min(d.digits.size(), kKept);
    long double v = std::stold(d.digits.substr(0, kept));
    const auto exponent = d.exponent + static_cast<std::int64_t>(d.digits.size() - kept);
    v *= std::pow(10.0L, static_cast<long double>(exponent)) * static_cast<long double>(unit_ns);
    v = std::round(v);
    if (!(v < static_cast<long double>(kLimit) + 0.5L)) return false;
    out = static_cast<Int128>(v);
    return out <= kLimit;
  }
  std::uint64_t m = 0;
  for (char c : d.digits) m = m * 10 + static_cast<std::uint64_t>(c - '0');
  Int128 value = static_cast<Int128>(m) * unit_ns;  // < 10^19 * 2^50 < 2^114: fits
  if (d.exponent >= 0) {
    for (std::int64_t i = 0; i < d.exponent; ++i) {
      value *= 10;
      if (value > kLimit) return false;
    }
    if (value > kLimit) return false;
    out = value;
    return true;
  }
  // value < 2^114 < 10^35, so dividing by 10^36 or more rounds to zero.
  if (d.exponent < -36) {
    out = 0;
    return true;
  }
  Int128 divisor = 1;
  for (std::int64_t i = 0; i < -d.exponent; ++i) divisor *= 10;
  Int128 q = value / divisor;
  const Int128 r = value % divisor;
  if (2 * r >= divisor) ++q;
  if (q > kLimit) return false;
  out = q;
  return true;
}

const Unit* match_unit(std::string_view word) {
  for (const Unit& u : kUnits) {
    if (u.name == word) return &u;
  }
  return nullptr;
}

// Exact decimal rendering of value / divisor (divisor a power of ten), trailing zeros trimmed.
std::string decimal_fraction(std::uint64_t value, std::uint64_t divisor) {
  std::string out = std::to_string(value / divisor);
  std::uint64_t rest = value % divisor;
  if (rest != 0) {
    std::string frac;
    for (std::uint64_t d = divisor / 10; d > 0; d /= 10) {
      frac += static_cast<char>('0' + (rest / d) % 10);
    }
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += '.';
    out += frac;
  }
  return out;
}

// Below one minute: one number in the largest unit not above it ("1.5 us", "250 ns").
std::string format_sub_minute(std::uint64_t ns) {
  if (ns >= 1'000'000'000) return decimal_fraction(ns, 1'000'000'000) + " s";
  if (ns >= 1'000'000) return decimal_fraction(ns, 1'000'000) + " ms";
  if (ns >= 1'000) return decimal_fraction(ns, 1'000) + " us";
  return std::to_string(ns) + " ns";
}

}  // namespace

Time Time::from_seconds(double seconds) {
  if (std::isnan(seconds)) throw InternalError("Time::from_seconds(NaN) (this is a bug)");
  return Time(saturate(std::round(seconds * 1e9)));
}

Time Time::ceil_from_seconds(double seconds) {
  if (std::isnan(seconds)) throw InternalError("Time::ceil_from_seconds(NaN) (this is a bug)");
  // The product is rounded to double first, so 0.1 s gives 100000000 ns rather than the ceiling
  // of the binary value just above 0.1 (100000001 ns), which nobody means.
  return Time(saturate(std::ceil(seconds * 1e9)));
}

Time parse_duration(std::string_view text, bool allow_negative) {
  const std::string_view s = text;
  std::size_t pos = 0;
  auto skip_space = [&] {
    while (pos < s.size() && is_space(s[pos])) ++pos;
  };
  skip_space();
  bool negative = false;
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) {
    negative = s[pos] == '-';
    ++pos;
    skip_space();
  }
  // One or more "<number> <unit>" terms, summed ("2 h 3 min", as format_duration writes).
  Int128 total = 0;
  int terms = 0;
  while (true) {
    skip_space();
    if (pos >= s.size()) break;
    Decimal number;
    if (!read_decimal(s, pos, number)) bad_duration(text);
    skip_space();
    const std::size_t unit_start = pos;
    while (pos < s.size() && !is_space(s[pos]) && !is_digit(s[pos]) && s[pos] != '.') ++pos;
    const std::string_view word = s.substr(unit_start, pos - unit_start);
    ++terms;
    if (word.empty()) {
      // Only "0" may go without a unit, and only on its own.
      skip_space();
      if (!number.digits.empty() || terms != 1 || pos != s.size()) bad_duration(text);
      break;
    }
    const Unit* unit = match_unit(word);
    if (unit == nullptr) bad_duration(text);
    Int128 ns = 0;
    if (!decimal_to_ns(number, unit->ns, ns)) out_of_range(text);
    total += ns;
    if (total > static_cast<Int128>(kMaxNs) + 1) out_of_range(text);
  }
  if (terms == 0) bad_duration(text);
  if (negative && total != 0) {
    if (!allow_negative) {
      throw ParseError("expected a non-negative duration such as \"1.5 us\" or \"10 min\", got \"" +
                       std::string(text) + "\"");
    }
    return Time::from_ns(static_cast<std::int64_t>(-total));
  }
  if (total > kMaxNs) out_of_range(text);
  return Time::from_ns(static_cast<std::int64_t>(total));
}

std::string format_duration(Time t) {
  const std::int64_t ns = t.ns();
  if (ns == 0) return "0 s";
  // Magnitude as unsigned so that INT64_MIN formats too.
  const std::uint64_t mag = ns < 0 ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(ns)
                                   : static_cast<std::uint64_t>(ns);
  std::string out = ns < 0 ? "-" : "";
  constexpr std::uint64_t kMinute = 60'000'000'000;
  if (mag < kMinute) return out + format_sub_minute(mag);
  // From a minute up: days, hours, minutes and the sub-minute rest, zero parts left out
  // ("2 h 3 min", "7 d", "1 min 30 s"). Weeks are not used: "14 d" reads better than "2 w".
  constexpr std::uint64_t kHour = 60 * kMinute;
  constexpr std::uint64_t kDay = 24 * kHour;
  const std::uint64_t days = mag / kDay;
  const std::uint64_t hours = mag % kDay / kHour;
  const std::uint64_t minutes = mag % kHour / kMinute;
  const std::uint64_t rest = mag % kMinute;
  std::string body;
  auto part = [&body](const std::string& p) {
    if (!body.empty()) body += ' ';
    body += p;
  };
  if (days != 0) part(std::to_string(days) + " d");
  if (hours != 0) part(std::to_string(hours) + " h");
  if (minutes != 0) part(std::to_string(minutes) + " min");
  if (rest != 0) part(format_sub_minute(rest));
  return out + body;
}

}  // namespace dcsim::sim
