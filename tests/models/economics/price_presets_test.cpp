// Contract of every registered price preset: listed with its source and date, every price
// documented as an overridable parameter, overrides checked like the preset itself.

#include <catch2/catch.hpp>

#include "economics_test_support.hpp"
#include "models/model_registries.hpp"
#include "sim/params.hpp"

using namespace dcsim;
using namespace dcsim::models::economics;
using dcsim::test::config_error_field;

namespace {

template <class T>
void check_registry(const sim::Registry<PricePresetFactory<T>>& registry) {
  REQUIRE_FALSE(registry.entries().empty());
  for (const auto& entry : registry.entries()) {
    INFO(registry.kind() << " '" << entry.name << "'");
    T preset = entry.factory(sim::Params::defaults(entry.params));
    CHECK(preset.name == entry.name);
    CHECK_FALSE(preset.source.empty());
    CHECK_FALSE(preset.as_of.empty());
    // `dcsim list` shows the description: the source and date are in it.
    CHECK_THAT(entry.description, Catch::Contains("source: " + preset.source) && Catch::Contains("as of " + preset.as_of));

    const std::vector<PriceField> fields = price_fields(preset);
    REQUIRE(fields.size() == entry.params.size());
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const sim::ParamSpec& spec = entry.params[i];
      INFO("parameter " << spec.name);
      CHECK(spec.name == fields[i].name);
      CHECK(std::stod(spec.default_value) == *fields[i].value);  // the default is the preset's figure
      CHECK(spec.valid_range == "x >= 0");
      // Overriding one price changes that price and nothing else.
      sim::Params params = sim::Params::defaults(entry.params);
      const double changed = *fields[i].value * 2 + 1;
      params.set_number(spec.name, changed);
      T overridden = entry.factory(params);
      const std::vector<PriceField> after = price_fields(overridden);
      for (std::size_t j = 0; j < after.size(); ++j) CHECK(*after[j].value == (j == i ? changed : *fields[j].value));
      // A negative override is refused under the parameter's name.
      params.set_number(spec.name, -1.0);
      CHECK(config_error_field([&] { entry.factory(params); }) == spec.name);
    }
  }
}

}  // namespace

TEST_CASE("every price preset lists its source and date and takes overrides of every price",
          "[models][economics][presets][contract]") {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  check_registry(registries.cloud_offers);
  check_registry(registries.egress_tariffs);
  check_registry(registries.node_prices);
  check_registry(registries.fabric_prices);
  check_registry(registries.site_prices);
}

TEST_CASE("cloud presets carry the reference's prices", "[models][economics][presets]") {
  // public-figures.md, Costs: p5.48xlarge $55.04/h after June 2025 = $6.88/GPU-h; 1-year and
  // 3-year commitments 41% / 64% off (Epoch); Azure ND H100 v5 $98.32/h = $12.29/GPU-h.
  CHECK(aws_p5_on_demand().usd_per_gpu_hour == Approx(6.88));
  CHECK(aws_p5_reserved_1y().usd_per_gpu_hour == Approx(6.88 * 0.59));
  CHECK(aws_p5_reserved_3y().usd_per_gpu_hour == Approx(6.88 * 0.36));
  CHECK(azure_nd_h100_v5_on_demand().usd_per_gpu_hour == Approx(12.29));
  CHECK(azure_nd_h100_v5_reserved_3y().usd_per_gpu_hour == Approx(12.29 * 0.51));
  // Every offer names an egress tariff that is registered.
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  for (const auto& e : registries.cloud_offers.entries()) {
    INFO(e.name);
    CHECK(registries.egress_tariffs.contains(e.factory(sim::Params::defaults(e.params)).egress_tariff));
  }
}

TEST_CASE("site presets: a 100 Gb/s unmetered port moves 1.08 PB a day", "[models][economics][presets]") {
  // 100e9 bit/s / 8 x 86,400 s = 1.08e15 bytes.
  CHECK(port_capacity_bytes_per_day(100e9) == Approx(1.08e15));
  const SitePrices us = us_site_prices();
  CHECK(us.colocation_usd_per_kw_month == 184.0);       // CBRE H2 2024
  CHECK(us.electricity_usd_per_kwh == 0.0806);          // EIA 2023 US industrial
  CHECK(port_usd_per_month(us, 100e9, "") == Approx(10 * port_usd_per_month(us, 10e9, "")));
  CHECK(config_error_field([&] { port_usd_per_month(us, 400e9, "site_prices."); }) == "site_prices.ports");
}
