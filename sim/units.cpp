#include "sim/units.hpp"

#include <charconv>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

#include "sim/error.hpp"

namespace dcsim::sim {

namespace {

// A unit's value relative to the canonical unit: 10^exp10 * factor. The decimal exponent is kept
// apart from the factor so that "3.35 TB/s" is read as the decimal text "3.35e12" times 8 and
// rounds once (to the double nearest the exact value), instead of twice as 3.35 * 1e12 * 8 would.
// Factors are powers of two (exact) or, for Wh and USD/kWh, unavoidably inexact.
struct UnitDef {
  std::string_view symbol;
  int exp10;
  double factor;
};

// Sizes are bytes; bits are allowed because link buffers and flash pages are sometimes quoted in
// them (1 b = 1/8 B).
constexpr UnitDef kDataSizeUnits[] = {
    {"B", 0, 1.0},        {"kB", 3, 1.0},        {"KB", 3, 1.0},        {"MB", 6, 1.0},
    {"GB", 9, 1.0},       {"TB", 12, 1.0},       {"PB", 15, 1.0},       {"KiB", 0, 1024.0},
    {"MiB", 0, 1048576.0}, {"GiB", 0, 1073741824.0}, {"TiB", 0, 1099511627776.0},
    {"PiB", 0, 1125899906842624.0},
    {"b", 0, 0.125},      {"bit", 0, 0.125},     {"kb", 3, 0.125},      {"Kb", 3, 0.125},
    {"Mb", 6, 0.125},     {"Gb", 9, 0.125},      {"Tb", 12, 0.125},     {"Pb", 15, 0.125},
};

constexpr UnitDef kDataRateUnits[] = {
    // bits per second
    {"bps", 0, 1.0},   {"kbps", 3, 1.0},  {"Kbps", 3, 1.0},  {"Mbps", 6, 1.0},  {"Gbps", 9, 1.0},
    {"Tbps", 12, 1.0}, {"Pbps", 15, 1.0}, {"b/s", 0, 1.0},   {"bit/s", 0, 1.0}, {"kb/s", 3, 1.0},
    {"Kb/s", 3, 1.0},  {"Mb/s", 6, 1.0},  {"Gb/s", 9, 1.0},  {"Tb/s", 12, 1.0}, {"Pb/s", 15, 1.0},
    // bytes per second
    {"B/s", 0, 8.0},   {"kB/s", 3, 8.0},  {"KB/s", 3, 8.0},  {"MB/s", 6, 8.0},  {"GB/s", 9, 8.0},
    {"TB/s", 12, 8.0}, {"PB/s", 15, 8.0}, {"Bps", 0, 8.0},   {"kBps", 3, 8.0},  {"KBps", 3, 8.0},
    {"MBps", 6, 8.0},  {"GBps", 9, 8.0},  {"TBps", 12, 8.0}, {"KiB/s", 0, 8.0 * 1024.0},
    {"MiB/s", 0, 8.0 * 1048576.0}, {"GiB/s", 0, 8.0 * 1073741824.0},
    {"TiB/s", 0, 8.0 * 1099511627776.0},
};

constexpr UnitDef kPowerUnits[] = {
    {"mW", -3, 1.0}, {"W", 0, 1.0}, {"kW", 3, 1.0}, {"MW", 6, 1.0}, {"GW", 9, 1.0},
};

constexpr UnitDef kEnergyUnits[] = {
    {"J", 0, 1.0},        {"kJ", 3, 1.0},       {"MJ", 6, 1.0},       {"GJ", 9, 1.0},
    {"TJ", 12, 1.0},      {"Wh", 0, 3600.0},    {"kWh", 3, 3600.0},   {"MWh", 6, 3600.0},
    {"GWh", 9, 3600.0},
};

constexpr UnitDef kLengthUnits[] = {
    {"mm", -3, 1.0}, {"cm", -2, 1.0}, {"m", 0, 1.0}, {"km", 3, 1.0},
};

// Per-byte prices: "USD/GB" is USD per 10^9 bytes.
constexpr UnitDef kDataPriceUnits[] = {
    {"USD/B", 0, 1.0},       {"USD/kB", -3, 1.0},     {"USD/KB", -3, 1.0},
    {"USD/MB", -6, 1.0},     {"USD/GB", -9, 1.0},     {"USD/TB", -12, 1.0},
    {"USD/PB", -15, 1.0},    {"USD/GiB", 0, 1.0 / 1073741824.0},
    {"USD/TiB", 0, 1.0 / 1099511627776.0},
    {"$/GB", -9, 1.0},       {"$/TB", -12, 1.0},      {"$/GiB", 0, 1.0 / 1073741824.0},
};

// Per-joule prices: "USD/kWh" is USD per 3.6e6 J.
constexpr UnitDef kEnergyPriceUnits[] = {
    {"USD/J", 0, 1.0},           {"USD/kJ", -3, 1.0},         {"USD/MJ", -6, 1.0},
    {"USD/GJ", -9, 1.0},         {"USD/Wh", 0, 1.0 / 3600.0}, {"USD/kWh", -3, 1.0 / 3600.0},
    {"USD/MWh", -6, 1.0 / 3600.0}, {"$/kWh", -3, 1.0 / 3600.0}, {"$/MWh", -6, 1.0 / 3600.0},
};

constexpr std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A number as written: sign, digits with at most one '.', optional exponent. Kept as text so
// the unit's decimal exponent can be folded in before conversion. No "inf"/"nan"/hex.
struct NumberText {
  std::string mantissa;  // sign, digits and '.'
  long exponent = 0;
  bool negative = false;
};

// Splits "3.35 TB/s" into the number and "TB/s". Returns nullopt when the text does not start
// with a number.
std::optional<std::pair<NumberText, std::string_view>> split_number(std::string_view text) {
  std::size_t i = 0;
  NumberText n;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    n.negative = text[i] == '-';
    if (n.negative) n.mantissa += '-';
    ++i;
  }
  std::size_t digits = 0;
  bool dot = false;
  while (i < text.size() && (is_digit(text[i]) || (text[i] == '.' && !dot))) {
    if (text[i] == '.') {
      dot = true;
    } else {
      ++digits;
    }
    n.mantissa += text[i];
    ++i;
  }
  if (digits == 0) return std::nullopt;
  // An exponent needs digits after it, so a unit starting with 'e'/'E' is never swallowed.
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    bool neg_exp = false;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) {
      neg_exp = text[j] == '-';
      ++j;
    }
    if (j < text.size() && is_digit(text[j])) {
      long e = 0;
      while (j < text.size() && is_digit(text[j])) {
        if (e < 100000) e = e * 10 + (text[j] - '0');
        ++j;
      }
      n.exponent = neg_exp ? -e : e;
      i = j;
    }
  }
  return std::make_pair(n, trim(text.substr(i)));
}

// Correctly rounded value of mantissa * 10^(exponent + extra_exp10).
std::optional<double> to_double(const NumberText& n, int extra_exp10) {
  const std::string s = n.mantissa + "e" + std::to_string(n.exponent + extra_exp10);
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

// A price in another currency is not a typo of ours to guess at: every price is in US dollars, the
// currency of the presets and of the *_usd outputs, and converting would need a rate the file does
// not give.
std::string other_currency_note(std::string_view text) {
  for (const std::string_view sign : {"\u20ac", "\u00a3", "\u00a5"}) {  // euro, pound, yen signs
    if (text.find(sign) != std::string_view::npos) {
      return "; the scenario's currency is USD (dcsim's presets and *_usd outputs are in US dollars): convert at "
             "your rate";
    }
  }
  std::size_t i = 0;
  while (i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
  std::size_t n = 0;
  while (i + n < text.size() && std::isupper(static_cast<unsigned char>(text[i + n]))) ++n;
  const std::string_view code = text.substr(i, n);
  const bool ends = i + n == text.size() || text[i + n] == '/' || text[i + n] == ' ';
  if (n == 3 && ends && code != "USD") {
    return "; " + std::string(code) + " is not the scenario's currency, USD (dcsim's presets and *_usd outputs are "
           "in US dollars): convert at your rate";
  }
  return "";
}

namespace {

[[noreturn]] void fail(QuantityKind kind, std::string_view text, bool negative = false) {
  const std::string_view name = quantity_kind_name(kind);
  std::string msg = "expected ";
  if (negative) {
    msg += "a non-negative ";
  } else {
    msg += name.front() == 'a' || name.front() == 'e' ? "an " : "a ";
  }
  msg += name;
  msg += " such as ";
  msg += quantity_example(kind);
  msg += ", got \"";
  msg += text;
  msg += '"';
  if (kind == QuantityKind::kMoney || kind == QuantityKind::kEnergyPrice || kind == QuantityKind::kDataPrice) {
    msg += other_currency_note(text);
  }
  throw ParseError(msg);
}

template <std::size_t N>
double parse_with_units(QuantityKind kind, std::string_view text, const UnitDef (&units)[N],
                        bool allow_negative = false) {
  const auto split = split_number(trim(text));
  if (!split) fail(kind, text);
  const auto& [number, unit] = *split;
  for (const auto& u : units) {
    if (u.symbol != unit) continue;
    const auto v = to_double(number, u.exp10);
    if (!v) fail(kind, text);
    if (number.negative && !allow_negative && *v != 0.0) fail(kind, text, true);
    // "1e308 TiB" is a finite number times a factor above one: infinite, not a quantity.
    const double value = *v * u.factor;
    if (!std::isfinite(value)) fail(kind, text);
    // Normalise -0 so that "-0 W" compares and prints as 0.
    return value + 0.0;
  }
  fail(kind, text);
}

}  // namespace

std::string_view quantity_kind_name(QuantityKind kind) {
  switch (kind) {
    case QuantityKind::kDuration: return "duration";
    case QuantityKind::kDataSize: return "data size";
    case QuantityKind::kDataRate: return "data rate";
    case QuantityKind::kPower: return "power";
    case QuantityKind::kEnergy: return "energy";
    case QuantityKind::kTemperature: return "temperature";
    case QuantityKind::kMoney: return "amount of money";
    case QuantityKind::kEnergyPrice: return "energy price";
    case QuantityKind::kDataPrice: return "data price";
    case QuantityKind::kLength: return "length";
  }
  return "quantity";
}

std::string_view quantity_example(QuantityKind kind) {
  switch (kind) {
    case QuantityKind::kDuration: return "\"10 s\" or \"1.5 h\"";
    case QuantityKind::kDataSize: return "\"80 GB\" or \"16 GiB\"";
    case QuantityKind::kDataRate: return "\"400 Gbps\" or \"3.35 TB/s\"";
    case QuantityKind::kPower: return "\"700 W\" or \"10.2 kW\"";
    case QuantityKind::kEnergy: return "\"5 MJ\" or \"12 kWh\"";
    case QuantityKind::kTemperature: return "\"65 C\" or \"300 K\"";
    case QuantityKind::kMoney: return "\"1200 USD\" or \"$1200\"";
    case QuantityKind::kEnergyPrice: return "\"0.08 USD/kWh\" or \"80 USD/MWh\"";
    case QuantityKind::kDataPrice: return "\"0.09 USD/GB\"";
    case QuantityKind::kLength: return "\"3 m\" or \"150 cm\"";
  }
  return "";
}

double parse_data_size_bytes(std::string_view text) {
  return parse_with_units(QuantityKind::kDataSize, text, kDataSizeUnits);
}

double parse_data_rate_bps(std::string_view text) {
  return parse_with_units(QuantityKind::kDataRate, text, kDataRateUnits);
}

double parse_power_w(std::string_view text) {
  return parse_with_units(QuantityKind::kPower, text, kPowerUnits);
}

double parse_energy_j(std::string_view text) {
  return parse_with_units(QuantityKind::kEnergy, text, kEnergyUnits);
}

double parse_length_m(std::string_view text) {
  return parse_with_units(QuantityKind::kLength, text, kLengthUnits);
}

namespace {

// Prices may also put the currency sign first, as people write them: "$0.08/kWh" is read as
// "0.08 USD/kWh".
template <std::size_t N>
double parse_price(QuantityKind kind, std::string_view text, const UnitDef (&units)[N]) {
  const std::string_view t = trim(text);
  if (t.empty() || t.front() != '$') return parse_with_units(kind, text, units);
  const auto split = split_number(trim(t.substr(1)));
  if (!split || split->first.negative || split->second.empty() || split->second.front() != '/') {
    fail(kind, text);
  }
  const std::string rewritten = split->first.mantissa + "e" +
                                std::to_string(split->first.exponent) + " USD" +
                                std::string(split->second);
  try {
    return parse_with_units(kind, rewritten, units);
  } catch (const ParseError&) {
    fail(kind, text);  // quote what the user wrote, not our rewrite
  }
}

}  // namespace

double parse_data_price_usd_per_byte(std::string_view text) {
  return parse_price(QuantityKind::kDataPrice, text, kDataPriceUnits);
}

double parse_energy_price_usd_per_j(std::string_view text) {
  return parse_price(QuantityKind::kEnergyPrice, text, kEnergyPriceUnits);
}

double parse_temperature_c(std::string_view text) {
  constexpr auto kind = QuantityKind::kTemperature;
  const auto split = split_number(trim(text));
  if (!split) fail(kind, text);
  const auto& [number, unit] = *split;
  const auto v = to_double(number, 0);
  if (!v) fail(kind, text);
  double c = 0.0;
  if (unit == "C" || unit == "°C" || unit == "degC") {
    c = *v;
  } else if (unit == "K") {
    c = *v - 273.15;
  } else if (unit == "F" || unit == "°F" || unit == "degF") {
    c = (*v - 32.0) * 5.0 / 9.0;
  } else {
    fail(kind, text);
  }
  // Below absolute zero is a typo, not a temperature; "1e308 F" overflows the conversion.
  if (c < -273.15 || !std::isfinite(c)) fail(kind, text);
  return c + 0.0;
}

double parse_money_usd(std::string_view text) {
  constexpr auto kind = QuantityKind::kMoney;
  std::string_view t = trim(text);
  // "$1200" and "-$5": the currency sign before the number (after an optional minus).
  bool negative = false;
  if (!t.empty() && t.front() == '-' && t.size() > 1 && t[1] == '$') {
    negative = true;
    t.remove_prefix(1);
  }
  if (!t.empty() && t.front() == '$') {
    t.remove_prefix(1);
    const auto split = split_number(trim(t));
    if (!split || !split->second.empty() || split->first.negative) fail(kind, text);
    const auto v = to_double(split->first, 0);
    if (!v) fail(kind, text);
    return (negative ? -*v : *v) + 0.0;
  }
  const auto split = split_number(t);
  if (!split || (split->second != "USD" && split->second != "$")) fail(kind, text);
  const auto v = to_double(split->first, 0);
  if (!v) fail(kind, text);
  return *v + 0.0;
}

double parse_quantity(QuantityKind kind, std::string_view text) {
  switch (kind) {
    case QuantityKind::kDuration: return parse_duration(text).seconds();
    case QuantityKind::kDataSize: return parse_data_size_bytes(text);
    case QuantityKind::kDataRate: return parse_data_rate_bps(text);
    case QuantityKind::kPower: return parse_power_w(text);
    case QuantityKind::kEnergy: return parse_energy_j(text);
    case QuantityKind::kTemperature: return parse_temperature_c(text);
    case QuantityKind::kMoney: return parse_money_usd(text);
    case QuantityKind::kEnergyPrice: return parse_energy_price_usd_per_j(text);
    case QuantityKind::kDataPrice: return parse_data_price_usd_per_byte(text);
    case QuantityKind::kLength: return parse_length_m(text);
  }
  throw InternalError("parse_quantity: unknown QuantityKind (this is a bug)");
}

}  // namespace dcsim::sim
