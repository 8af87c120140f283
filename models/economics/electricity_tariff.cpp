#include "models/economics/electricity_tariff.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "models/economics/price_preset.hpp"
#include "sim/error.hpp"

namespace dcsim::models::economics {

ElectricityTariffConfig flat_tariff(double usd_per_kwh) { return {{{0.0, usd_per_kwh}}, 0.0, 0.0}; }

ElectricityTariffConfig daily_tariff(const std::vector<std::pair<double, double>>& hour_usd_per_kwh) {
  ElectricityTariffConfig c;
  c.period_s = kSecondsPerDay;
  for (const auto& [hour, usd] : hour_usd_per_kwh) c.points.push_back({hour * 3600.0, usd});
  return c;
}

ElectricityTariff::ElectricityTariff(ElectricityTariffConfig config, const std::string& prefix)
    : config_(std::move(config)) {
  const auto& pts = config_.points;
  if (pts.empty()) throw sim::ConfigError(prefix + "points", "expected at least one (time, USD/kWh) point");
  require_non_negative(config_.period_s, prefix + "period_s", "period in seconds");
  if (config_.period_s > 0.0) {
    if (!(config_.start_time_of_day_s >= 0.0 && config_.start_time_of_day_s < config_.period_s)) {
      throw sim::ConfigError(prefix + "start_time_of_day_s", "expected a time in [0, period_s), got " +
                                                                 format_number(config_.start_time_of_day_s));
    }
  }
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const std::string field = prefix + "points[" + std::to_string(i) + "].";
    require_non_negative(pts[i].usd_per_kwh, field + "usd_per_kwh");
    if (i == 0 && pts[0].at_s != 0.0) {
      throw sim::ConfigError(field + "at_s", "the first point must be at 0 (the price from the start), got " +
                                                 format_number(pts[0].at_s));
    }
    if (i > 0 && !(pts[i].at_s > pts[i - 1].at_s)) {
      throw sim::ConfigError(field + "at_s", "expected times that strictly increase, got " + format_number(pts[i].at_s) +
                                                 " after " + format_number(pts[i - 1].at_s));
    }
    if (config_.period_s > 0.0 && !(pts[i].at_s < config_.period_s)) {
      throw sim::ConfigError(field + "at_s", "expected a time within the period of " + format_number(config_.period_s) +
                                                 " s, got " + format_number(pts[i].at_s));
    }
    if (!std::isfinite(pts[i].at_s)) throw sim::ConfigError(field + "at_s", "expected a finite time");
  }
  prefix_.assign(pts.size(), 0.0);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    prefix_[i] = prefix_[i - 1] + pts[i - 1].usd_per_kwh * (pts[i].at_s - pts[i - 1].at_s);
  }
  if (config_.period_s > 0.0) period_integral_ = integral_in_period(config_.period_s);
}

double ElectricityTariff::price_at(double x_s) const {
  const auto& pts = config_.points;
  const auto it = std::upper_bound(pts.begin(), pts.end(), x_s, [](double x, const TariffPoint& p) { return x < p.at_s; });
  return std::prev(it)->usd_per_kwh;  // the first point is at 0 <= x
}

double ElectricityTariff::integral_in_period(double x_s) const {
  const auto& pts = config_.points;
  const auto it = std::upper_bound(pts.begin(), pts.end(), x_s, [](double x, const TariffPoint& p) { return x < p.at_s; });
  const std::size_t i = static_cast<std::size_t>(std::prev(it) - pts.begin());
  return prefix_[i] + pts[i].usd_per_kwh * (x_s - pts[i].at_s);
}

double ElectricityTariff::integral(double t_s) const {
  if (config_.period_s <= 0.0) return integral_in_period(t_s);
  const double period = config_.period_s;
  const auto from_origin = [&](double x) {
    const double periods = std::floor(x / period);
    return periods * period_integral_ + integral_in_period(x - periods * period);
  };
  return from_origin(t_s + config_.start_time_of_day_s) - from_origin(config_.start_time_of_day_s);
}

double ElectricityTariff::price_usd_per_kwh(sim::Time t) const {
  double x = t.seconds();
  if (config_.period_s > 0.0) x = std::fmod(x + config_.start_time_of_day_s, config_.period_s);
  return price_at(x);
}

double ElectricityTariff::cost_usd(sim::Time start, sim::Time end, double energy_j) const {
  if (end < start || start.ns() < 0) throw sim::InternalError("economics: a bad energy interval (this is a bug)");
  const double kwh = energy_j / kJoulesPerKwh;
  if (end == start) return kwh * price_usd_per_kwh(start);
  const double t0 = start.seconds();
  const double t1 = end.seconds();
  return kwh * (integral(t1) - integral(t0)) / (t1 - t0);
}

ElectricityTariff ElectricityTariff::scaled(double factor) const {
  ElectricityTariffConfig c = config_;
  for (TariffPoint& p : c.points) p.usd_per_kwh *= factor;
  return ElectricityTariff(std::move(c));
}

}  // namespace dcsim::models::economics
