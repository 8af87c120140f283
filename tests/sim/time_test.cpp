// Time: conversions from seconds, duration parsing (exact decimals, units, errors) and
// formatting (round trip).

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "sim/error.hpp"
#include "sim/random.hpp"
#include "sim/time.hpp"

namespace {

using dcsim::sim::format_duration;
using dcsim::sim::InternalError;
using dcsim::sim::parse_duration;
using dcsim::sim::ParseError;
using dcsim::sim::Time;

std::int64_t parse_ns(const std::string& text, bool allow_negative = false) {
  return parse_duration(text, allow_negative).ns();
}

std::string parse_error(const std::string& text, bool allow_negative = false) {
  try {
    parse_duration(text, allow_negative);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

constexpr std::int64_t kMaxNs = std::numeric_limits<std::int64_t>::max();

}  // namespace

TEST_CASE("from_seconds rounds to the nearest ns and saturates", "[sim][time]") {
  CHECK(Time::from_seconds(1.5e-6).ns() == 1'500);
  CHECK(Time::from_seconds(0.1).ns() == 100'000'000);
  CHECK(Time::from_seconds(2.4e-9).ns() == 2);
  CHECK(Time::from_seconds(2.6e-9).ns() == 3);
  CHECK(Time::from_seconds(-1.5e-6).ns() == -1'500);
  CHECK(Time::from_seconds(1e300).is_max());
  CHECK(Time::from_seconds(INFINITY).is_max());
  CHECK(Time::from_seconds(-1e300).ns() == std::numeric_limits<std::int64_t>::min());
  CHECK_THROWS_AS(Time::from_seconds(std::nan("")), InternalError);
}

TEST_CASE("ceil_from_seconds rounds up (from the double product)", "[sim][time]") {
  CHECK(Time::ceil_from_seconds(1.5e-9).ns() == 2);
  CHECK(Time::ceil_from_seconds(1e-9).ns() == 1);
  // 0.1 in binary is slightly above 0.1, but the product 0.1 * 1e9 rounds to 1e8 exactly.
  CHECK(Time::ceil_from_seconds(0.1).ns() == 100'000'000);
  CHECK(Time::ceil_from_seconds(0.0).ns() == 0);
  CHECK(Time::ceil_from_seconds(1e300).is_max());
  CHECK_THROWS_AS(Time::ceil_from_seconds(std::nan("")), InternalError);
}

TEST_CASE("parse_duration: every unit and spacing", "[sim][time]") {
  CHECK(parse_ns("250 ns") == 250);
  CHECK(parse_ns("1.5 us") == 1'500);
  CHECK(parse_ns("1.5 \xC2\xB5s") == 1'500);  // MICRO SIGN
  CHECK(parse_ns("1.5 \xCE\xBCs") == 1'500);  // GREEK SMALL LETTER MU
  CHECK(parse_ns("2 ms") == 2'000'000);
  CHECK(parse_ns("3 s") == 3'000'000'000);
  CHECK(parse_ns("3 sec") == 3'000'000'000);
  CHECK(parse_ns("10 min") == 600'000'000'000);
  CHECK(parse_ns("2h") == 7'200'000'000'000);
  CHECK(parse_ns("7 d") == 604'800'000'000'000);
  CHECK(parse_ns("1 w") == 604'800'000'000'000);
  CHECK(parse_ns("1e3 s") == 1'000'000'000'000);
  CHECK(parse_ns("1.5E-3 s") == 1'500'000);
  CHECK(parse_ns("  5ms\t") == 5'000'000);
  CHECK(parse_ns(".5 s") == 500'000'000);
  CHECK(parse_ns("+4 ns") == 4);
  CHECK(parse_ns("0") == 0);
  CHECK(parse_ns("0.0") == 0);
  CHECK(parse_ns("0 s") == 0);
  CHECK(parse_ns("2 h 3 min") == 7'380'000'000'000);
  CHECK(parse_ns("1 d 2 h 3 min 4.5 s") == 93'784'500'000'000);
}

TEST_CASE("parse_duration: decimals are exact, not via double", "[sim][time]") {
  CHECK(parse_ns("0.1 s") == 100'000'000);
  CHECK(parse_ns("0.3 s") == 300'000'000);
  CHECK(parse_ns("123456.789 ms") == 123'456'789'000);
  CHECK(parse_ns("0.000000001 s") == 1);
  CHECK(parse_ns("1.000000001 s") == 1'000'000'001);
  CHECK(parse_ns("4.1 min") == 246'000'000'000);
  CHECK(parse_ns("1.00000000000000000000000000001 s") == 1'000'000'000);
  // Sub-ns digits round to the nearest ns, halves away from zero.
  CHECK(parse_ns("1.4 ns") == 1);
  CHECK(parse_ns("1.5 ns") == 2);
  CHECK(parse_ns("0.0000000015 s") == 2);
  CHECK(parse_ns("-1.5 ns", true) == -2);
  // The largest representable duration, to the ns: 2^63 - 1.
  CHECK(parse_ns("9223372036.854775807 s") == kMaxNs);
  CHECK(parse_ns("9223372036854775807 ns") == kMaxNs);
}

TEST_CASE("parse_duration: negatives only when allowed", "[sim][time]") {
  CHECK(parse_ns("-1.5 us", true) == -1'500);
  CHECK(parse_ns("-9223372036854775808 ns", true) == std::numeric_limits<std::int64_t>::min());
  CHECK(parse_ns("-0 s") == 0);
  CHECK(parse_error("-5 s") ==
        "expected a non-negative duration such as \"1.5 us\" or \"10 min\", got \"-5 s\"");
}

TEST_CASE("parse_duration: bad text names what was expected", "[sim][time]") {
  CHECK(parse_error("5 parsecs") ==
        "expected a duration such as \"1.5 us\" or \"10 min\", got \"5 parsecs\"");
  for (const char* bad :
       {"",       "   ",   "5",     "1.5",        "s",       "ms 5",     "1e s", "1e",
        "--1 s",  "inf s", "nan s", "1,5 s",      "1 . 5 s", "1 s s",    "5 S",  "5 Ms",
        "5 secs", "0 s 0", "1 5 s", "1 h -3 min", "40 Gbps", "\xC2\xB5s"}) {
    INFO("text: \"" << bad << "\"");
    CHECK(parse_error(bad).rfind("expected a duration such as", 0) == 0);
  }
}

TEST_CASE("parse_duration: out of range is an error, not a wrap", "[sim][time]") {
  CHECK(parse_error("9223372036.854775808 s") ==
        "duration \"9223372036.854775808 s\" is out of range (at most about 292 years)");
  CHECK_THROWS_AS(parse_duration("1e30 s"), ParseError);
  CHECK_THROWS_AS(parse_duration("1e99999999999 s"), ParseError);
  CHECK_THROWS_AS(parse_duration("20000 w"), ParseError);  // 292 years is about 15250 weeks
  CHECK_THROWS_AS(parse_duration("106751 d 23 h 47 min 16.854775808 s"), ParseError);
  CHECK_THROWS_AS(parse_duration("123456789012345678901234 ns"), ParseError);
  CHECK(parse_ns("1e-99999999999 s") == 0);
  CHECK(parse_ns("15000 w") == 9'072'000'000'000'000'000);
}

TEST_CASE("parse_duration: thousands of digits are out of range or rounded, never a crash", "[sim][time]") {
  // 5,000 digits overflowed long double in std::stold, which threw std::out_of_range (the CLI's
  // "internal error: stold"); a value from 10^20 ns on is out of range whatever its length.
  const std::string ones(5000, '1');
  const std::string error = parse_error(ones + " s");
  CHECK_THAT(error, Catch::StartsWith("duration \"11111") && Catch::EndsWith("1 s\" is out of range (at most about 292 years)"));
  CHECK(error.size() <= dcsim::sim::kMaxMessageBytes);  // clipped in the middle, the count said
  CHECK_THROWS_AS(parse_duration(ones + " ns"), ParseError);
  // As many digits after the point: only the leading ones count, to the ns.
  CHECK(parse_ns("1." + ones + " s") == 1'111'111'111);
  CHECK(parse_ns("0." + std::string(5000, '0') + ones + " s") == 0);
  CHECK(parse_ns("2." + std::string(40, '0') + "1 min") == 120'000'000'000);
}

TEST_CASE("format_duration picks readable units and stays exact", "[sim][time]") {
  CHECK(format_duration(Time::zero()) == "0 s");
  CHECK(format_duration(Time::from_ns(250)) == "250 ns");
  CHECK(format_duration(Time::from_ns(1'500)) == "1.5 us");
  CHECK(format_duration(Time::from_ns(2'000'000)) == "2 ms");
  CHECK(format_duration(Time::from_ns(1'000'000'001)) == "1.000000001 s");
  CHECK(format_duration(Time::from_s(90)) == "1 min 30 s");
  CHECK(format_duration(Time::from_s(7'380)) == "2 h 3 min");
  CHECK(format_duration(Time::from_s(7 * 86'400)) == "7 d");
  CHECK(format_duration(Time::from_s(86'400) + Time::from_ms(1'500)) == "1 d 1.5 s");
  CHECK(format_duration(Time::from_ns(-1'500)) == "-1.5 us");
  CHECK(format_duration(Time::max()) == "106751 d 23 h 47 min 16.854775807 s");
}

TEST_CASE("format_duration round-trips through parse_duration", "[sim][time]") {
  dcsim::sim::RandomStream rng(7, "tests/sim/time", "round trip");
  auto round_trip = [](Time t) {
    INFO(t.ns() << " ns formats as \"" << format_duration(t) << "\"");
    CHECK(parse_duration(format_duration(t), true) == t);
  };
  round_trip(Time::max());
  round_trip(Time::from_ns(std::numeric_limits<std::int64_t>::min()));
  round_trip(Time::from_ns(1));
  for (int i = 0; i < 10'000; ++i) {
    // Magnitudes spread over every unit: 2^0 .. 2^62 ns.
    const auto bits = static_cast<int>(rng.uniform_int(63));
    auto value = static_cast<std::int64_t>(rng.next_u64() >> (64 - std::max(bits, 1)));
    if (rng.uniform_int(2) == 0) value = -value;
    round_trip(Time::from_ns(value));
  }
}
