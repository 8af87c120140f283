// Electricity tariffs: flat, daily time-of-use and schedules, integrated exactly over intervals.

#include <catch2/catch.hpp>

#include "economics_test_support.hpp"
#include "models/economics/electricity_tariff.hpp"

using namespace dcsim::models::economics;
using dcsim::sim::Time;
using dcsim::test::config_error_field;

namespace {

constexpr double kUsdTol = 1e-12;
constexpr double kKwh = kJoulesPerKwh;
Time hours(std::int64_t h) { return Time::from_s(h * 3600); }

// 0.05 USD/kWh off-peak, 0.15 from 08:00 to 20:00.
ElectricityTariffConfig peak_profile() { return daily_tariff({{0.0, 0.05}, {8.0, 0.15}, {20.0, 0.05}}); }

}  // namespace

TEST_CASE("a flat tariff costs energy x price whatever the interval", "[models][economics][electricity]") {
  const ElectricityTariff t(flat_tariff(0.08));
  CHECK(t.cost_usd(Time::zero(), hours(1), 10 * kKwh) == Approx(0.8).epsilon(kUsdTol));
  CHECK(t.cost_usd(hours(1000), hours(3000), 10 * kKwh) == Approx(0.8).epsilon(kUsdTol));
  CHECK(t.cost_usd(hours(5), hours(5), 10 * kKwh) == Approx(0.8).epsilon(kUsdTol));  // zero length: at the price then
}

TEST_CASE("a daily time-of-use profile prices each hour at its own rate", "[models][economics][electricity]") {
  const ElectricityTariff t(peak_profile());
  // 1 kW for a day: 12 h x 0.05 + 12 h x 0.15 = 0.6 + 1.8 = 2.4 USD.
  CHECK(t.cost_usd(Time::zero(), hours(24), 24 * kKwh) == Approx(2.4).epsilon(kUsdTol));
  // Ten days: ten times that (whole periods come from the precomputed day integral).
  CHECK(t.cost_usd(Time::zero(), hours(240), 240 * kKwh) == Approx(24.0).epsilon(kUsdTol));
  // 1 kW from 07:00 to 09:00 on day 3: one off-peak hour and one peak hour, 0.05 + 0.15.
  CHECK(t.cost_usd(hours(48 + 7), hours(48 + 9), 2 * kKwh) == Approx(0.2).epsilon(kUsdTol));
  CHECK(t.price_usd_per_kwh(hours(48 + 9)) == 0.15);
}

TEST_CASE("a profile's start time of day shifts where the run starts in it", "[models][economics][electricity]") {
  ElectricityTariffConfig c = peak_profile();
  c.start_time_of_day_s = 6 * 3600.0;  // the run starts at 06:00
  const ElectricityTariff t(c);
  // Run hours 0-2 are 06:00-08:00, off-peak; hours 2-4 are 08:00-10:00, peak.
  CHECK(t.cost_usd(Time::zero(), hours(2), 2 * kKwh) == Approx(0.1).epsilon(kUsdTol));
  CHECK(t.cost_usd(hours(2), hours(4), 2 * kKwh) == Approx(0.3).epsilon(kUsdTol));
}

TEST_CASE("a price schedule holds its last price after its last point", "[models][economics][electricity]") {
  const ElectricityTariff t({{{0.0, 0.10}, {3600.0, 0.20}}, 0.0, 0.0});
  // 1 kW over the first two hours: 0.10 + 0.20.
  CHECK(t.cost_usd(Time::zero(), hours(2), 2 * kKwh) == Approx(0.3).epsilon(kUsdTol));
  CHECK(t.cost_usd(hours(100), hours(101), 1 * kKwh) == Approx(0.2).epsilon(kUsdTol));
}

TEST_CASE("scaling a tariff scales every cost by the same factor", "[models][economics][electricity]") {
  const ElectricityTariff t(peak_profile());
  const ElectricityTariff doubled = t.scaled(2.0);
  CHECK(doubled.cost_usd(hours(7), hours(31), 5 * kKwh) == Approx(2 * t.cost_usd(hours(7), hours(31), 5 * kKwh)).epsilon(kUsdTol));
}

TEST_CASE("bad tariffs name the field", "[models][economics][electricity][validation]") {
  CHECK(config_error_field([] { ElectricityTariff t(flat_tariff(-0.01)); }) == "points[0].usd_per_kwh");
  CHECK(config_error_field([] { ElectricityTariff t({{{0.0, 0.1}, {0.0, 0.2}}, 0.0, 0.0}); }) == "points[1].at_s");
  CHECK(config_error_field([] { ElectricityTariff t({{{10.0, 0.1}}, 0.0, 0.0}); }) == "points[0].at_s");
  CHECK(config_error_field([] { ElectricityTariff t(daily_tariff({{0.0, 0.1}, {25.0, 0.2}})); }) == "points[1].at_s");
  CHECK(config_error_field([] { ElectricityTariff t({{}, 0.0, 0.0}, "electricity."); }) == "electricity.points");
}
