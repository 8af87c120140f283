#include "tools/scenario/electricity_tariff_mapping.hpp"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/flow_csv.hpp"

namespace dcsim::tools::scenario {

namespace econ = models::economics;

namespace {

constexpr double kSecondsPerHour = 3600.0;

// Where each point came from, for messages: "tariff.csv:7" or "<source>:/economics/.../points/2".
struct PointOrigin {
  std::string hour_where;   // prefix of a message about its hour
  std::string price_where;  // ... about its price
};

bool parse_number(const std::string& text, double& out) {
  std::size_t used = 0;
  try {
    out = std::stod(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size() && std::isfinite(out);
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// Rows of the CSV as points (hour -> seconds, USD/kWh); format problems go to `errors`.
void read_tariff_csv(const std::string& path, const std::string& display, const std::string& named_at,
                     std::vector<econ::TariffPoint>& points, std::vector<PointOrigin>& origins,
                     std::vector<std::string>& errors) {
  std::ifstream in = open_data_file(path, display, named_at);
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const std::string at = display + ":" + std::to_string(number);
    if (!header) {
      if (line != "hour,usd_per_kwh") {
        errors.push_back(at + ": expected the header `hour,usd_per_kwh`, got \"" + line + "\"");
        return;
      }
      header = true;
      continue;
    }
    const auto comma = line.find(',');
    double hour = 0.0;
    double price = 0.0;
    if (comma == std::string::npos || line.find(',', comma + 1) != std::string::npos) {
      errors.push_back(at + ": expected two columns `hour,usd_per_kwh`, got \"" + line + "\"");
      continue;
    }
    const std::string hour_text = trim(line.substr(0, comma));
    const std::string price_text = trim(line.substr(comma + 1));
    if (!parse_number(hour_text, hour) || hour < 0) {
      errors.push_back(at + ": column hour: expected a number of hours >= 0, got \"" + hour_text + "\"");
      continue;
    }
    if (!parse_number(price_text, price) || price < 0) {
      errors.push_back(at + ": column usd_per_kwh: expected a price >= 0, got \"" + price_text + "\"");
      continue;
    }
    points.push_back({hour * kSecondsPerHour, price});
    origins.push_back({at + ": column hour: ", at + ": column usd_per_kwh: "});
  }
  if (!header) errors.push_back(display + ": empty; expected the header `hour,usd_per_kwh` and at least one row");
  if (header && points.empty() && errors.empty()) errors.push_back(display + ": no prices after the header");
}

// The model's own checks (order, first point at 0, within the period), with their field names
// ("points[3].at_s", "start_time_of_day_s") turned back into where the user wrote them.
void check_tariff(const econ::ElectricityTariffConfig& config, const std::vector<PointOrigin>& origins,
                  const std::string& section_where, std::vector<std::string>& errors) {
  try {
    econ::ElectricityTariff tariff(config);
  } catch (const sim::ConfigError& e) {
    static const std::regex kPoint(R"(^points\[(\d+)\]\.(at_s|usd_per_kwh)$)");
    std::smatch m;
    const std::string field = e.field();
    if (std::regex_match(field, m, kPoint)) {
      const std::size_t i = std::stoul(m[1].str());
      const auto& o = origins.at(i);
      if (m[2].str() == "at_s") {
        // The model speaks in seconds; the user wrote hours.
        std::ostringstream message;
        message << o.hour_where << "expected hours that start at 0, strictly increase and lie within the period ("
                << (config.period_s > 0 ? std::to_string(static_cast<int>(config.period_s / kSecondsPerHour)) + " h"
                                        : std::string("none: a schedule"))
                << "), got " << config.points[i].at_s / kSecondsPerHour;
        if (i > 0) message << " after " << config.points[i - 1].at_s / kSecondsPerHour;
        errors.push_back(message.str());
      } else {
        errors.push_back(o.price_where + e.detail());
      }
    } else if (field == "start_time_of_day_s") {
      errors.push_back(section_where + "/start_offset: expected an offset within the period; " + e.detail());
    } else {  // "points": none
      errors.push_back(section_where + "/points: " + e.detail());
    }
  }
}

}  // namespace

econ::ElectricityTariffConfig map_electricity_tariff(const nlohmann::json& t, const std::string& pointer,
                                                     const std::string& source) {
  econ::ElectricityTariffConfig config;
  std::vector<PointOrigin> origins;
  std::vector<std::string> errors;
  const std::string repeat = t.at("repeat").get<std::string>();
  config.period_s = repeat == "daily" ? econ::kSecondsPerDay : repeat == "weekly" ? 7 * econ::kSecondsPerDay : 0.0;
  const bool has_file = t.contains("file");
  const bool has_points = t.contains("points");
  if (has_file == has_points) {
    errors.push_back(source + ":" + pointer + ": expected exactly one of `file` (a CSV) and `points`, got " +
                     (has_file ? "both" : "neither"));
  } else if (has_file) {
    const std::string file = t.at("file").get<std::string>();
    read_tariff_csv(beside(source, file), file, source + ":" + pointer + "/file", config.points, origins, errors);
  } else {
    const auto& points = t.at("points");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string at = source + ":" + pointer + "/points/" + std::to_string(i);
      // Prices are USD/J once resolved (the quantity parser's unit); the model takes USD/kWh.
      config.points.push_back(
          {points[i].at("hour").get<double>() * kSecondsPerHour, points[i].at("price").get<double>() * econ::kJoulesPerKwh});
      origins.push_back({at + "/hour: ", at + "/price: "});
    }
  }
  const std::string offset_where = source + ":" + pointer + "/start_offset: ";
  if (t.contains("start_offset")) {
    const double offset_s = t.at("start_offset").get<double>();
    if (config.period_s == 0 && offset_s != 0) {
      errors.push_back(offset_where + "only for a repeating tariff (repeat daily or weekly); a schedule starts at "
                                      "the run's start");
    }
    config.start_time_of_day_s = offset_s;
  }
  if (errors.empty()) check_tariff(config, origins, source + ":" + pointer, errors);
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return config;
}

}  // namespace dcsim::tools::scenario
