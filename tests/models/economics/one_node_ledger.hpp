#pragma once
// A one-node owned cluster with round prices and its cloud alternative, fed a year of steady use:
// the hand-computed case of cost_ledger_test.cpp and the base of the other ledger tests.

#include <cstdint>

#include "models/economics/cost_ledger.hpp"

namespace dcsim::test {

namespace econ = models::economics;

inline constexpr double kOneNodeItKw = 10.0;
inline constexpr double kOneNodeUtilisation = 0.5;
inline constexpr double kMonthlyEgressBytes = 10e12;  // 10 TB
inline constexpr double kStoredBytes = 1e12;          // 1 TB, the whole time

inline sim::Time month_start(std::int64_t m) { return sim::Time::from_ns(m * econ::kBillingMonthNs); }

inline econ::CostLedgerConfig one_node_config() {
  econ::CostLedgerConfig c;
  c.capex.nodes = 1;
  c.capex.node_price = {"hgx-h100", "test", "test", 300'000.0, {}, true};
  c.capex.spares_fraction = 0.05;
  econ::SitePrices& p = c.capex.site_prices;
  p = econ::us_site_prices();
  p.electricity_usd_per_kwh = 0.10;
  p.colocation_usd_per_kw_month = 200.0;
  p.pdu_usd_per_kw = 100.0;
  p.ports = {{10e9, 1'000.0}};
  p.support_usd_per_node_year = 12'000.0;
  p.staff_usd_per_mw_year = 120'000.0;
  p.staff_usd_per_node_year = 0.0;
  p.licence_usd_per_gpu_year = 1'000.0;
  c.capex.gear.pdu_kw = kOneNodeItKw;
  c.depreciation = {econ::DepreciationMethod::kStraightLine, 5.0, 0.0, 2.0};
  c.opex = {econ::SiteKind::kColocation, kOneNodeItKw, 1, 8, {{10e9, 1}}};
  c.repairs.usd_per_fault = {{"gpu", 5'000.0}};

  econ::CloudOption on_demand;
  on_demand.offer = econ::aws_p5_on_demand();
  on_demand.offer.name = "cloud-4usd";
  on_demand.offer.usd_per_gpu_hour = 4.0;
  on_demand.offer.storage_usd_per_gb_month = 0.02;
  on_demand.egress = econ::aws_internet_egress();
  c.cloud.push_back(on_demand);
  return c;
}

// `months` months of: 10 kW drawn, 8 GPUs busy half the time, 10 TB sent off-site mid-month,
// 1 TB stored throughout; two GPU faults in month 3; 1e9 tokens and 1e20 FLOPs in month 1.
inline void feed_steady_use(econ::CostLedger& ledger, std::int64_t months) {
  const double month_hours = econ::kBillingMonthHours;
  ledger.set_stored_bytes(sim::Time::zero(), kStoredBytes);
  for (std::int64_t m = 0; m < months; ++m) {
    const sim::Time start = month_start(m);
    const sim::Time end = month_start(m + 1);
    ledger.add_energy(start, end, kOneNodeItKw * 1e3 * month_hours * 3600.0);
    ledger.add_gpu_time(start, end, 8 * kOneNodeUtilisation * month_hours * 3600.0);
    ledger.add_egress(start + sim::Time::from_s(std::int64_t{86'400} * 15), kMonthlyEgressBytes);
  }
  const std::size_t gpu = ledger.fault_class("gpu");
  ledger.add_fault(month_start(2) + sim::Time::from_s(3600), gpu);
  ledger.add_fault(month_start(2) + sim::Time::from_s(7200), gpu);
  ledger.add_tokens(sim::Time::from_s(10), 1e9);
  ledger.add_flops(sim::Time::from_s(10), 1e20);
}

}  // namespace dcsim::test
