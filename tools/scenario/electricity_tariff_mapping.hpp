#pragma once
// /economics/electricity_tariff -> models::economics::ElectricityTariffConfig: a time-of-use price,
// from a CSV file or inline points, repeating daily or weekly or as a schedule from the run's start.
//
// CSV (relative to the scenario file): header `hour,usd_per_kwh`, one row per price change; `hour`
// is the hour of the period (daily: 0-24, weekly: 0-168) or, without repeat, the hour since the
// run's start; the first row is at hour 0. Lines that are empty or start with '#' are skipped.
// Every problem is a message naming the file and line (tariff.csv:4: ...), or the JSON pointer of
// the inline point; all problems are reported together (sim::InputErrors).

#include <string>

#include <nlohmann/json.hpp>

#include "models/economics/electricity_tariff.hpp"

namespace dcsim::tools::scenario {

// `section` is the resolved /economics/electricity_tariff object; `pointer` its JSON pointer;
// `source` the scenario file (messages and relative paths).
models::economics::ElectricityTariffConfig map_electricity_tariff(const nlohmann::json& section,
                                                                  const std::string& pointer,
                                                                  const std::string& source);

}  // namespace dcsim::tools::scenario
