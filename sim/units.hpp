#pragma once
// Physical quantities as they appear in scenario files, and their parsing.
//
// Scenario files write quantities as strings with units ("400 Gbps", "10 TB", "3.35 TB/s",
// "700 W", "65 C", "0.08 USD/kWh"). Each parser returns the value in one canonical SI unit
// (named in the function) and throws ParseError with a message saying what was expected, e.g.
// `expected a data rate such as "400 Gbps" or "3.35 TB/s", got "40 Gb"`.
//
// Conventions (documented in scenarios/README.md):
//  - decimal prefixes k M G T P are powers of 1000, binary Ki Mi Gi Ti Pi powers of 1024;
//  - B is bytes, b (and "bit") is bits; rates take "bps"/"b/s" (bits) or "B/s"/"Bps" (bytes);
//  - a space between number and unit is optional; a bare number is rejected (units are required)
//    except where the parser says so.

#include <string>
#include <string_view>

#include "sim/time.hpp"

namespace dcsim::sim {

enum class QuantityKind {
  kDuration,     // seconds (as Time)
  kDataSize,     // bytes
  kDataRate,     // bits per second
  kPower,        // watts
  kEnergy,       // joules ("J", "kWh", "MWh")
  kTemperature,  // degrees Celsius ("C", "K", "F")
  kMoney,        // US dollars ("USD", "$")
  kEnergyPrice,  // USD per joule ("0.08 USD/kWh")
  kDataPrice,    // USD per byte ("0.09 USD/GB")
  kLength,       // metres ("m", "cm", "km")
};

// "duration", "data size", ... (used in error messages and the schema).
std::string_view quantity_kind_name(QuantityKind kind);
// An example of the format, e.g. "\"400 Gbps\"".
std::string_view quantity_example(QuantityKind kind);

double parse_data_size_bytes(std::string_view text);
double parse_data_rate_bps(std::string_view text);
double parse_power_w(std::string_view text);
double parse_energy_j(std::string_view text);
double parse_temperature_c(std::string_view text);
// For a price written in another currency ("100 EUR", "0.1 GBP/kWh", "\u20ac100"): a note saying
// prices are in USD, to append to the parse error; "" otherwise.
std::string other_currency_note(std::string_view text);
double parse_money_usd(std::string_view text);
double parse_energy_price_usd_per_j(std::string_view text);
double parse_data_price_usd_per_byte(std::string_view text);
double parse_length_m(std::string_view text);

// Dispatches on kind; durations are returned in seconds. Negative values are rejected except
// for temperatures and money.
double parse_quantity(QuantityKind kind, std::string_view text);

}  // namespace dcsim::sim
