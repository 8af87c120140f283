// Quantity parsing (sim/units). Expected values are written as the decimal the text means, so
// `==` holds whenever the parser rounds once (it folds the prefix into the decimal exponent);
// Wh-based units multiply by 3600 and get a named tolerance instead.

#include <catch2/catch.hpp>

#include "sim/error.hpp"
#include "sim/units.hpp"

using namespace dcsim::sim;

namespace {
constexpr double kTol = 1e-15;
}

TEST_CASE("data sizes: decimal and binary prefixes, bits", "[sim][units]") {
  CHECK(parse_data_size_bytes("1 B") == 1.0);
  CHECK(parse_data_size_bytes("80 GB") == 80e9);
  CHECK(parse_data_size_bytes("80GB") == 80e9);
  CHECK(parse_data_size_bytes("  1.5 kB ") == 1500.0);
  CHECK(parse_data_size_bytes("1.5 KB") == 1500.0);
  CHECK(parse_data_size_bytes("3 MB") == 3e6);
  CHECK(parse_data_size_bytes("10 TB") == 10e12);
  CHECK(parse_data_size_bytes("2 PB") == 2e15);
  CHECK(parse_data_size_bytes("1 KiB") == 1024.0);
  CHECK(parse_data_size_bytes("1.5 KiB") == 1536.0);
  CHECK(parse_data_size_bytes("16 GiB") == 16.0 * 1024 * 1024 * 1024);
  CHECK(parse_data_size_bytes("1 MiB") == 1048576.0);
  CHECK(parse_data_size_bytes("1 TiB") == 1099511627776.0);
  CHECK(parse_data_size_bytes("1 PiB") == 1125899906842624.0);
  CHECK(parse_data_size_bytes("8 b") == 1.0);
  CHECK(parse_data_size_bytes("8 bit") == 1.0);
  CHECK(parse_data_size_bytes("40 Gb") == 5e9);
  CHECK(parse_data_size_bytes("1e3 B") == 1000.0);
  CHECK(parse_data_size_bytes("0 B") == 0.0);
}

TEST_CASE("data rates: bits per second, bytes per second times 8", "[sim][units]") {
  CHECK(parse_data_rate_bps("400 Gbps") == 400e9);
  CHECK(parse_data_rate_bps("400Gbps") == 400e9);
  CHECK(parse_data_rate_bps("400 Gb/s") == 400e9);
  CHECK(parse_data_rate_bps("100 Mbps") == 100e6);
  CHECK(parse_data_rate_bps("1.6 Tbps") == 1.6e12);
  CHECK(parse_data_rate_bps("10 kbps") == 10e3);
  CHECK(parse_data_rate_bps("10 Kbps") == 10e3);
  CHECK(parse_data_rate_bps("1 bps") == 1.0);
  CHECK(parse_data_rate_bps("1 b/s") == 1.0);
  CHECK(parse_data_rate_bps("1 B/s") == 8.0);
  CHECK(parse_data_rate_bps("3.35 TB/s") == 3.35e12 * 8);  // 3.35e12 rounded once, then x8 exact
  CHECK(parse_data_rate_bps("900 GB/s") == 900e9 * 8);
  CHECK(parse_data_rate_bps("25 GBps") == 25e9 * 8);
  CHECK(parse_data_rate_bps("1 MB/s") == 8e6);
  CHECK(parse_data_rate_bps("1 KB/s") == 8e3);
  CHECK(parse_data_rate_bps("1 GiB/s") == 8.0 * 1073741824.0);
}

TEST_CASE("power, energy, length", "[sim][units]") {
  CHECK(parse_power_w("700 W") == 700.0);
  CHECK(parse_power_w("10.2 kW") == 10200.0);
  CHECK(parse_power_w("0.65 kW") == 650.0);
  CHECK(parse_power_w("1.5 MW") == 1.5e6);
  CHECK(parse_power_w("500 mW") == 0.5);
  CHECK(parse_energy_j("5 MJ") == 5e6);
  CHECK(parse_energy_j("1 J") == 1.0);
  CHECK(parse_energy_j("3 kJ") == 3000.0);
  CHECK(parse_energy_j("1 Wh") == 3600.0);
  CHECK(parse_energy_j("1 kWh") == 3.6e6);
  CHECK(parse_energy_j("12 kWh") == Approx(12 * 3.6e6).epsilon(kTol));
  CHECK(parse_energy_j("2.5 MWh") == Approx(2.5 * 3.6e9).epsilon(kTol));
  CHECK(parse_length_m("3 m") == 3.0);
  CHECK(parse_length_m("150 cm") == 1.5);
  CHECK(parse_length_m("5 mm") == 0.005);
  CHECK(parse_length_m("2.5 km") == 2500.0);
}

TEST_CASE("temperatures convert to Celsius and may be negative", "[sim][units]") {
  CHECK(parse_temperature_c("65 C") == 65.0);
  CHECK(parse_temperature_c("65C") == 65.0);
  CHECK(parse_temperature_c("65 °C") == 65.0);
  CHECK(parse_temperature_c("-10 C") == -10.0);
  CHECK(parse_temperature_c("300 K") == Approx(26.85).epsilon(kTol));
  CHECK(parse_temperature_c("273.15 K") == 0.0);
  CHECK(parse_temperature_c("212 F") == 100.0);
  CHECK(parse_temperature_c("-40 F") == -40.0);  // where the scales meet
  CHECK_THROWS_AS(parse_temperature_c("-300 C"), ParseError);  // below absolute zero
  CHECK_THROWS_AS(parse_temperature_c("-1 K"), ParseError);
}

TEST_CASE("money and prices", "[sim][units]") {
  CHECK(parse_money_usd("1200 USD") == 1200.0);
  CHECK(parse_money_usd("$1200") == 1200.0);
  CHECK(parse_money_usd("$ 1200.50") == 1200.5);
  CHECK(parse_money_usd("1200 $") == 1200.0);
  CHECK(parse_money_usd("-5 USD") == -5.0);
  CHECK(parse_money_usd("-$5") == -5.0);
  CHECK(parse_energy_price_usd_per_j("0.08 USD/kWh") == Approx(0.08 / 3.6e6).epsilon(kTol));
  CHECK(parse_energy_price_usd_per_j("80 USD/MWh") == Approx(0.08 / 3.6e6).epsilon(kTol));
  CHECK(parse_energy_price_usd_per_j("$0.08/kWh") == Approx(0.08 / 3.6e6).epsilon(kTol));
  CHECK(parse_energy_price_usd_per_j("1 USD/J") == 1.0);
  CHECK(parse_data_price_usd_per_byte("0.09 USD/GB") == 0.09e-9);
  CHECK(parse_data_price_usd_per_byte("20 USD/TB") == 20e-12);
  CHECK(parse_data_price_usd_per_byte("1 USD/GiB") == 1.0 / 1073741824.0);
  CHECK(parse_data_price_usd_per_byte("$0.09/GB") == 0.09e-9);
  CHECK_THROWS_WITH(parse_data_price_usd_per_byte("$0.09/parsec"),
                    "expected a data price such as \"0.09 USD/GB\", got \"$0.09/parsec\"");
  CHECK_THROWS_AS(parse_data_price_usd_per_byte("$-0.09/GB"), ParseError);
  CHECK_THROWS_AS(parse_data_price_usd_per_byte("$0.09"), ParseError);
}

TEST_CASE("parse_quantity dispatches on the kind; durations come back in seconds",
          "[sim][units]") {
  CHECK(parse_quantity(QuantityKind::kDuration, "1.5 h") == 5400.0);
  // Time::seconds() multiplies by 1e-9, one rounding away from the decimal 250e-9.
  CHECK(parse_quantity(QuantityKind::kDuration, "250 ns") == Approx(250e-9).epsilon(kTol));
  CHECK(parse_quantity(QuantityKind::kDataRate, "400 Gbps") == 400e9);
  CHECK(parse_quantity(QuantityKind::kPower, "700 W") == 700.0);
  CHECK(parse_quantity(QuantityKind::kTemperature, "-5 C") == -5.0);
  CHECK(parse_quantity(QuantityKind::kMoney, "$3") == 3.0);
  CHECK(parse_quantity(QuantityKind::kLength, "1 km") == 1000.0);
  CHECK_THROWS_AS(parse_quantity(QuantityKind::kDuration, "-5 s"), ParseError);
  CHECK_THROWS_AS(parse_quantity(QuantityKind::kDataSize, "5 s"), ParseError);
}

TEST_CASE("bad quantities say what was expected and quote the text", "[sim][units]") {
  CHECK_THROWS_WITH(parse_data_rate_bps("40 Gb"),
                    "expected a data rate such as \"400 Gbps\" or \"3.35 TB/s\", got \"40 Gb\"");
  CHECK_THROWS_WITH(parse_data_size_bytes("40 Gbps"),
                    "expected a data size such as \"80 GB\" or \"16 GiB\", got \"40 Gbps\"");
  CHECK_THROWS_WITH(parse_power_w("700"),
                    "expected a power such as \"700 W\" or \"10.2 kW\", got \"700\"");
  CHECK_THROWS_WITH(parse_power_w("-5 W"),
                    "expected a non-negative power such as \"700 W\" or \"10.2 kW\", got \"-5 W\"");
  CHECK_THROWS_WITH(parse_energy_price_usd_per_j("0.08"),
                    "expected an energy price such as \"0.08 USD/kWh\" or \"80 USD/MWh\", got "
                    "\"0.08\"");
  // Not accepted: missing or unknown units, case-changed units, words, non-finite numbers,
  // trailing junk, empty text.
  for (const char* text : {"", " ", "W", "700", "700 w", "700 Watts", "seven W", "inf W",
                           "nan W", "1e999 W", "7 0 W", "700 W W", "0x10 W", "--5 W", ".W",
                           "1e W"}) {
    INFO(text);
    CHECK_THROWS_AS(parse_power_w(text), ParseError);
  }
  CHECK_THROWS_AS(parse_data_size_bytes("5 mb"), ParseError);  // milli-bits: never meant
  CHECK_THROWS_AS(parse_data_size_bytes("-1 GB"), ParseError);
  CHECK_THROWS_AS(parse_data_rate_bps("-1 Gbps"), ParseError);
  CHECK_THROWS_AS(parse_energy_j("-1 kWh"), ParseError);
  CHECK_THROWS_AS(parse_length_m("-1 m"), ParseError);
  CHECK_THROWS_AS(parse_data_price_usd_per_byte("-1 USD/GB"), ParseError);
  CHECK_THROWS_AS(parse_money_usd("$-5"), ParseError);
  CHECK_THROWS_AS(parse_money_usd("5 EUR"), ParseError);
  CHECK_THROWS_AS(parse_temperature_c("65"), ParseError);
  // ParseError is an InputError: the CLI maps it to exit code 2.
  CHECK_THROWS_AS(parse_power_w("x"), InputError);
  CHECK_THROWS_WITH(parse_money_usd("5 EUR"),
                    "expected an amount of money such as \"1200 USD\" or \"$1200\", got \"5 EUR\"; EUR is not the "
                    "scenario's currency, USD (dcsim's presets and *_usd outputs are in US dollars): convert at your "
                    "rate");
  // Only a currency code or sign gets the note: a typo of the unit does not.
  CHECK_THROWS_WITH(parse_energy_price_usd_per_j("0.1 GBP/kWh"), Catch::Contains("GBP is not the scenario's currency"));
  CHECK_THROWS_WITH(parse_money_usd("\u20ac5"), Catch::Contains("the scenario's currency is USD"));
  CHECK_THROWS_WITH(parse_energy_price_usd_per_j("0.1 USD/kwh"), !Catch::Contains("currency"));
}

TEST_CASE("zero and negative zero", "[sim][units]") {
  CHECK(parse_power_w("0 W") == 0.0);
  CHECK(parse_power_w("-0 W") == 0.0);
  CHECK_FALSE(std::signbit(parse_power_w("-0 W")));
  CHECK(parse_power_w("+5 W") == 5.0);
}

TEST_CASE("names and examples of every kind", "[sim][units]") {
  CHECK(quantity_kind_name(QuantityKind::kDataRate) == "data rate");
  CHECK(quantity_example(QuantityKind::kDataRate) == "\"400 Gbps\" or \"3.35 TB/s\"");
  for (auto k : {QuantityKind::kDuration, QuantityKind::kDataSize, QuantityKind::kDataRate,
                 QuantityKind::kPower, QuantityKind::kEnergy, QuantityKind::kTemperature,
                 QuantityKind::kMoney, QuantityKind::kEnergyPrice, QuantityKind::kDataPrice,
                 QuantityKind::kLength}) {
    CHECK_FALSE(quantity_kind_name(k).empty());
    CHECK_FALSE(quantity_example(k).empty());
  }
}

// Found by tests/fuzz/quantity_fuzz.cpp (tests/fuzz/regressions/quantity/): the number alone is a
// finite double, but the unit's factor (or the Fahrenheit conversion) pushed it to infinity, which
// the parsers returned as if it were a quantity.
TEST_CASE("quantities that overflow a double in their unit are rejected, not returned as infinity",
          "[sim][units]") {
  CHECK_THROWS_AS(parse_temperature_c("1e308 F"), ParseError);  // (1e308 - 32) * 5 overflows
  CHECK_THROWS_AS(parse_data_size_bytes("1e308 TiB"), ParseError);
  CHECK_THROWS_AS(parse_data_rate_bps("1e308 B/s"), ParseError);  // bytes times 8
  CHECK_THROWS_AS(parse_energy_j("1e308 Wh"), ParseError);        // times 3600
  CHECK_THROWS_AS(parse_quantity(QuantityKind::kDataSize, "1.7e308 GiB"), ParseError);
  CHECK_THROWS_WITH(parse_temperature_c("1e308 F"),
                    "expected a temperature such as \"65 C\" or \"300 K\", got \"1e308 F\"");
  // The largest values that stay finite still parse.
  CHECK(parse_data_size_bytes("1e290 TiB") == 1e290 * 1099511627776.0);
  CHECK(parse_temperature_c("1e300 F") > 0);
}
