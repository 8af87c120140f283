#pragma once
// Electricity prices over time: flat, a daily time-of-use profile, or a price schedule.
//
// The tariff is a step function p(t) in USD/kWh given by points (at_s, usd_per_kwh): the price
// of a point holds from its time until the next point's.
//  - period_s = 86,400 (daily): at_s is the time of day in seconds (hour h is h x 3600), the
//    profile repeats every day; the run starts at time of day start_time_of_day_s.
//  - period_s = 0 (schedule): at_s is the time since the run's start; the last price holds on.
// A flat tariff is one point at 0.
//
// Energy reported over an interval is taken as drawn at constant power over it, so its cost is
//   cost = E_kWh / (t1 - t0) x integral_{t0}^{t1} p(t) dt,
// evaluated exactly from a precomputed prefix integral: O(log points) per interval however long
// (full periods contribute their precomputed integral). A zero-length interval costs E x p(t0).

#include <string>
#include <utility>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::economics {

inline constexpr double kJoulesPerKwh = 3.6e6;
inline constexpr double kSecondsPerDay = 86'400.0;

struct TariffPoint {
  double at_s = 0.0;
  double usd_per_kwh = 0.0;
};

struct ElectricityTariffConfig {
  std::vector<TariffPoint> points;  // at_s strictly increasing, the first at 0
  double period_s = 0.0;            // 0: a schedule from the run's start; > 0: repeats (86,400: daily)
  double start_time_of_day_s = 0.0;  // periodic tariffs: where in the period the run starts
};

ElectricityTariffConfig flat_tariff(double usd_per_kwh);
// A daily profile from (hour of day, USD/kWh) points, hours in [0, 24) strictly increasing, the
// first at hour 0.
ElectricityTariffConfig daily_tariff(const std::vector<std::pair<double, double>>& hour_usd_per_kwh);

class ElectricityTariff {
 public:
  // sim::ConfigError naming the field ("points[2].at_s", "points[0].usd_per_kwh", "period_s",
  // "start_time_of_day_s") for no points, a first point not at 0, times that do not strictly
  // increase or lie beyond the period, negative prices.
  explicit ElectricityTariff(ElectricityTariffConfig config, const std::string& prefix = "");

  // USD of `energy_j` drawn uniformly over [start, end).
  double cost_usd(sim::Time start, sim::Time end, double energy_j) const;
  // p(t), USD per kWh.
  double price_usd_per_kwh(sim::Time t) const;
  // A copy with every price multiplied by `factor` (what-if studies; the tests' doubling).
  ElectricityTariff scaled(double factor) const;

  const ElectricityTariffConfig& config() const { return config_; }

 private:
  // integral_0^t p, in USD/kWh x s, for t >= 0 measured from the run's start.
  double integral(double t_s) const;
  // Within one period (or the schedule), from its origin: integral_0^x p.
  double integral_in_period(double x_s) const;
  double price_at(double x_s) const;

  ElectricityTariffConfig config_;
  std::vector<double> prefix_;  // integral_0^{points[i].at_s} p
  double period_integral_ = 0.0;
};

}  // namespace dcsim::models::economics
