// The cost ledger end to end: a hand-computed one-node TCO, break-even, and what an electricity
// price change does and does not touch.

#include <catch2/catch.hpp>

#include "models/economics/cost_ledger.hpp"
#include "one_node_ledger.hpp"

using namespace dcsim::models::economics;
using namespace dcsim::test;

namespace {

constexpr double kUsdTol = 1e-12;

double item(const OptionResult& r, const std::string& name) {
  for (const CostItem& i : r.items) {
    if (i.name == name) return i.usd;
  }
  FAIL("no cost item " << name);
  return 0.0;
}

}  // namespace

TEST_CASE("one node for a year: the TCO computed by hand", "[models][economics][ledger]") {
  CostLedger ledger(one_node_config());
  feed_steady_use(ledger, 12);
  const EconomicsResult r = ledger.finish(month_start(12));
  const OptionResult& own = r.owned;

  // Capex: node 300,000 + spares 5% of servers 15,000 + PDUs 10 kW x $100 = 316,000, paid in month 1.
  CHECK(r.capex.total_usd == Approx(316'000.0).epsilon(kUsdTol));
  // Straight line over 60 months: after 12 the book value is 316,000 x 48/60 = 252,800, credited.
  CHECK(item(own, "book_value_credit") == Approx(-252'800.0).epsilon(kUsdTol));
  // Energy: 10 kW x 12 months x 730.5 h = 87,660 kWh at $0.10 = $8,766.
  CHECK(own.energy_usd == Approx(8'766.0).epsilon(kUsdTol));
  // Colocation 10 kW x $200 x 12 = 24,000; one 10G port $1,000 x 12 = 12,000; support 12,000;
  // staff 0.01 MW x $120,000 = 1,200; licences 8 GPUs x $1,000 = 8,000; repairs 2 x $5,000 = 10,000.
  CHECK(item(own, "colocation") == Approx(24'000.0).epsilon(kUsdTol));
  CHECK(item(own, "ports") == Approx(12'000.0).epsilon(kUsdTol));
  CHECK(item(own, "support") == Approx(12'000.0).epsilon(kUsdTol));
  CHECK(item(own, "staff") == Approx(1'200.0).epsilon(kUsdTol));
  CHECK(item(own, "licences") == Approx(8'000.0).epsilon(kUsdTol));
  CHECK(item(own, "repairs") == Approx(10'000.0).epsilon(kUsdTol));
  CHECK(item(own, "interest") == 0.0);
  // TCO = 316,000 - 252,800 + 8,766 + 24,000 + 12,000 + 12,000 + 1,200 + 8,000 + 10,000 = 139,166.
  CHECK(own.tco_usd == Approx(139'166.0).epsilon(kUsdTol));
  double items = 0.0;
  for (const CostItem& i : own.items) items += i.usd;
  CHECK(items == Approx(own.tco_usd).epsilon(kUsdTol));
  // The unmetered port carries the egress: its fee is owning's egress cost.
  CHECK(own.egress_usd == Approx(12'000.0).epsilon(kUsdTol));

  // Delivered: 8 GPUs x 50% x 8,766 h = 35,064 GPU-hours; 1e9 tokens; 1e20 FLOPs = 1e5 PFLOP.
  CHECK(r.delivered_gpu_hours == Approx(35'064.0).epsilon(kUsdTol));
  CHECK(*own.unit.usd_per_gpu_hour == Approx(139'166.0 / 35'064.0).epsilon(kUsdTol));
  CHECK(*own.unit.usd_per_million_tokens == Approx(139.166).epsilon(kUsdTol));
  CHECK(*own.unit.usd_per_pflop == Approx(1.39166).epsilon(kUsdTol));

  // The same GPU-hours rented at $4: 140,256; 10 TB a month of AWS egress: 12 x $891 = 10,692;
  // 1 TB stored: 1,000 GB-months x $0.02 x 12 = 240. Total 151,188.
  REQUIRE(r.cloud.size() == 1);
  const OptionResult& cloud = r.cloud[0];
  CHECK(item(cloud, "gpu_hours") == Approx(140'256.0).epsilon(kUsdTol));
  CHECK(item(cloud, "egress") == Approx(10'692.0).epsilon(kUsdTol));
  CHECK(item(cloud, "storage") == Approx(240.0).epsilon(kUsdTol));
  CHECK(cloud.tco_usd == Approx(151'188.0).epsilon(kUsdTol));
  CHECK(cloud.energy_usd == 0.0);  // in the price

  // A 10 Gb/s port moves 10e9 / 8 x 2,629,800 s = 3.28725e15 bytes a month; 10 TB uses 0.304% of it.
  CHECK(r.port_capacity_bytes_per_month == Approx(3.28725e15).epsilon(kUsdTol));
  CHECK(r.peak_port_utilisation == Approx(1e13 / 3.28725e15).epsilon(kUsdTol));
  // Cash out: owning's month 1 carries the whole capex, so within a year it never catches up.
  CHECK_FALSE(r.break_even_month[0].has_value());
}

TEST_CASE("break-even is the first month owning's cumulative cost falls below renting's",
          "[models][economics][ledger][break_even]") {
  CostLedger ledger(one_node_config());
  feed_steady_use(ledger, 60);
  const EconomicsResult r = ledger.finish(month_start(60));
  // Owning: 316,000 in month 1, 10,000 of repairs in month 3, then 730.5 energy + 57,200 / 12 fees
  // = 5,497.17 a month. Renting: 11,688 GPU-hours + 891 egress + 20 storage = 12,599 a month.
  // 326,000 + 5,497.17 m < 12,599 m from m > 45.9: month 46.
  REQUIRE(r.break_even_month[0].has_value());
  const std::size_t be = *r.break_even_month[0];
  CHECK(be == 46);
  const auto& own = r.owned.cumulative_usd;
  const auto& rent = r.cloud[0].cumulative_usd;
  CHECK(own[be - 1] < rent[be - 1]);
  for (std::size_t m = 0; m + 1 < be; ++m) CHECK(own[m] >= rent[m]);
  CHECK(rent[59] == Approx(60 * 12'599.0).epsilon(kUsdTol));
}

TEST_CASE("break-even reads 'never' when renting stays cheaper", "[models][economics][ledger][break_even]") {
  CHECK_FALSE(break_even_month({10, 12, 14}, {1, 2, 3}).has_value());
  CHECK(*break_even_month({10, 12, 14}, {5, 12, 15}) == 3);  // equal is not below
}

TEST_CASE("doubling the electricity price doubles the energy cost and nothing else", "[models][economics][ledger]") {
  CostLedgerConfig base = one_node_config();
  base.electricity = daily_tariff({{0.0, 0.06}, {7.5, 0.14}, {21.0, 0.06}});
  CostLedgerConfig doubled = base;
  for (TariffPoint& p : doubled.electricity->points) p.usd_per_kwh *= 2;

  CostLedger a(base);
  CostLedger b(doubled);
  for (CostLedger* l : {&a, &b}) {
    feed_steady_use(*l, 12);
    // Intervals that start and end off the hour and cross a month boundary.
    l->add_energy(month_start(3) - dcsim::sim::Time::from_s(5'000), month_start(3) + dcsim::sim::Time::from_s(77'777), 4.2e9);
  }
  const EconomicsResult ra = a.finish(month_start(12));
  const EconomicsResult rb = b.finish(month_start(12));
  CHECK(rb.owned.energy_usd == Approx(2 * ra.owned.energy_usd).epsilon(kUsdTol));
  CHECK(rb.energy_j == ra.energy_j);
  for (std::size_t i = 0; i < ra.owned.items.size(); ++i) {
    INFO(ra.owned.items[i].name);
    if (ra.owned.items[i].name == "energy") continue;
    CHECK(rb.owned.items[i].usd == ra.owned.items[i].usd);
  }
  CHECK(rb.owned.tco_usd - ra.owned.tco_usd == Approx(ra.owned.energy_usd).epsilon(1e-9));
  CHECK(rb.cloud[0].monthly_usd == ra.cloud[0].monthly_usd);  // the cloud's energy is in its price
}

TEST_CASE("a financed capex is paid month by month and costs its interest", "[models][economics][ledger]") {
  CostLedgerConfig c = one_node_config();
  c.financing = FinancingConfig{0.06, 3.0};
  CostLedger ledger(c);
  feed_steady_use(ledger, 12);
  const EconomicsResult r = ledger.finish(month_start(12));
  const double payment = annuity_payment_usd(316'000.0, *c.financing);
  // Month 1 carries one payment instead of the whole capex.
  CHECK(r.owned.monthly_usd[0] < 316'000.0);
  CHECK(r.owned.monthly_usd[0] > payment);
  // Interest paid in the first year: 12 payments less the principal they repaid.
  const double repaid = 316'000.0 - loan_balance_usd(316'000.0, *c.financing, 12);
  CHECK(r.owned.items[1].name == "interest");
  CHECK(r.owned.items[1].usd == Approx(12 * payment - repaid).epsilon(1e-9));
  CHECK(r.owned.items[1].usd > 0.0);
  // The TCO differs from the unfinanced one by exactly that interest.
  CostLedger cash(one_node_config());
  feed_steady_use(cash, 12);
  CHECK(r.owned.tco_usd - cash.finish(month_start(12)).owned.tco_usd == Approx(r.owned.items[1].usd).epsilon(1e-9));
}

TEST_CASE("a partial last month bills its flat fees pro rata", "[models][economics][ledger]") {
  CostLedger ledger(one_node_config());
  // Half a month of nothing but the fees: colocation 2,000 + port 1,000 + support 1,000 + staff
  // 100 + licences 666.67 = 4,766.67 a month, half of it.
  const EconomicsResult r = ledger.finish(dcsim::sim::Time::from_ns(kBillingMonthNs / 2));
  CHECK(r.months == 1);
  CHECK(r.owned.monthly_usd[0] - r.capex.total_usd == Approx(57'200.0 / 12 / 2).epsilon(kUsdTol));
}
