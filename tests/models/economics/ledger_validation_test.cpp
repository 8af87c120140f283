// Bad ledger inputs are refused with the field that is wrong, and a cost with no price is never
// silently zero.

#include <catch2/catch.hpp>

#include "economics_test_support.hpp"
#include "one_node_ledger.hpp"

using namespace dcsim::models::economics;
using namespace dcsim::test;
using dcsim::sim::Time;

TEST_CASE("invalid ledger inputs throw ConfigError naming the field", "[models][economics][ledger][validation]") {
  auto field_with = [](auto&& change) {
    CostLedgerConfig c = one_node_config();
    change(c);
    return config_error_field([&] { CostLedger ledger(c); });
  };
  CHECK(field_with([](CostLedgerConfig& c) { c.depreciation.years = 0; }) == "depreciation.years");
  CHECK(field_with([](CostLedgerConfig& c) { c.capex.site_prices.colocation_usd_per_kw_month = -184; }) ==
        "capex.site_prices.colocation_usd_per_kw_month");
  CHECK(field_with([](CostLedgerConfig& c) { c.capex.node_price.usd_per_node = -1; }) == "capex.node_price.usd_per_node");
  CHECK(field_with([](CostLedgerConfig& c) { c.cloud[0].offer.usd_per_gpu_hour = -4; }) ==
        "cloud[0].offer.usd_per_gpu_hour");
  CHECK(field_with([](CostLedgerConfig& c) {
          c.cloud[0].egress.tiers[1].up_to_bytes = 5e12;  // below the first tier's 10 TB
        }) == "cloud[0].egress.tiers[1].up_to_bytes");
  CHECK(field_with([](CostLedgerConfig& c) { c.electricity = flat_tariff(-0.1); }) == "electricity.points[0].usd_per_kwh");
  CHECK(field_with([](CostLedgerConfig& c) { c.repairs.usd_per_fault["gpu"] = -1; }) == "repairs.usd_per_fault.gpu");
  CHECK(field_with([](CostLedgerConfig& c) { c.financing = FinancingConfig{0.05, 0.0}; }) == "financing.years");
  CHECK(field_with([](CostLedgerConfig& c) { c.opex.contracted_kw = 0; }) == "opex.contracted_kw");
  CHECK(field_with([](CostLedgerConfig& c) { c.opex.nodes = 2; }) == "opex.nodes");
  CHECK(field_with([](CostLedgerConfig& c) { c.opex.ports = {{25e9, 1}}; }) == "site_prices.ports");
}

TEST_CASE("a fault class without a repair price is refused, not free", "[models][economics][ledger][validation]") {
  const CostLedger ledger(one_node_config());
  CHECK(config_error_field([&] { ledger.fault_class("nic"); }) == "repairs.usd_per_fault.nic");
  CHECK(ledger.fault_class("gpu") == 0);
}

TEST_CASE("traffic leaving a site with no way out is refused, not free", "[models][economics][ledger][validation]") {
  CostLedgerConfig c = one_node_config();
  c.opex.ports.clear();
  CostLedger ledger(c);
  ledger.add_egress(Time::from_s(1), 1e9);
  CHECK(config_error_field([&] { ledger.finish(month_start(1)); }) == "opex.ports");
  // A metered tariff is a way out: the bytes are billed by it instead.
  c.owned_metered_egress = gcp_premium_egress();
  CostLedger metered(c);
  metered.add_egress(Time::from_s(1), 1e12);
  CHECK(metered.finish(month_start(1)).owned.egress_usd == Approx(120.0).epsilon(1e-12));
}

TEST_CASE("costs reported after the horizon are a caller bug", "[models][economics][ledger][validation]") {
  CostLedger ledger(one_node_config());
  ledger.add_energy(month_start(0), month_start(2), 1e9);
  CHECK_THROWS_AS(ledger.finish(month_start(1)), dcsim::sim::InternalError);
  CHECK_NOTHROW(ledger.finish(month_start(2)));
}
