// The headline's cost lines from a summary: the period priced, break-even per cloud offer, the
// capex and the owned TCO by category, money with thousands separators; and what each energy
// figure counts.

#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "tools/report/headline.hpp"

namespace report = dcsim::tools::report;

namespace {

std::string line(const std::vector<report::HeadlineLine>& lines, const std::string& label) {
  std::string out;
  for (const auto& l : lines) {
    if (l.label == label) out += (out.empty() ? "" : "\n") + l.text;
  }
  return out;
}

// Two cloud offers that break even in different months, a horizon 1% of which was simulated.
nlohmann::json cost_summary() {
  return nlohmann::json::parse(R"({"cost": {
    "owned": {"tco_usd": 12340000, "usd_per_gpu_hour": 502353.126,
              "breakdown": {"capex_usd": 11490000, "interest_usd": 0, "book_value_credit_usd": -4600000,
                            "energy_usd": 1250000.4, "colocation_usd": 3000000, "ports_usd": 0, "support_usd": 1000000,
                            "staff_usd": 200000, "licences_usd": 0, "repairs_usd": 0, "metered_egress_usd": 0}},
    "aws-p5-on-demand": {"tco_usd": 37430000, "usd_per_gpu_hour": 6.94, "break_even_month": 13},
    "aws-p5-reserved-3y": {"tco_usd": 17000000, "usd_per_gpu_hour": 3.15, "break_even_month": "never"},
    "capex_usd": 11490000,
    "capex": {"servers_usd": 10032000, "switches_usd": 688000, "cables_optics_usd": 120000, "nics_usd": 0,
              "cooling_usd": 90000, "power_usd": 12000, "building_usd": 0, "spares_usd": 548000},
    "delivered_gpu_hours": 5390000, "months": 36,
    "priced_period_s": 94672800, "priced_period_basis": "horizon", "simulated_s": 3600,
    "simulated_fraction": 3.8e-5, "energy_after_run_kwh": 1870000,
    "warning": "the run simulated 1 h, 0.0038% of the 1095 d 18 h horizon priced"}})");
}

report::HeadlineFacts cost_facts() {
  report::HeadlineFacts f;
  f.has_economics = true;
  f.cloud_options = {"aws-p5-on-demand", "aws-p5-reserved-3y"};
  return f;
}

}  // namespace

TEST_CASE("money and counts carry thousands separators", "[tools][report][headline]") {
  CHECK(report::grouped(1'234'567.891, 1) == "1,234,567.9");
  CHECK(report::grouped(999, 0) == "999");
  CHECK(report::grouped(1000, 0) == "1,000");
  CHECK(report::grouped(-4'600'000, 0) == "-4,600,000");
  CHECK(report::grouped(-0.001, 0) == "0");
  CHECK(report::usd_text(502'353.126, 2) == "$502,353.13");
  CHECK(report::usd_text(11'490'000) == "$11,490,000");
  CHECK(report::usd_text(-4'600'000) == "-$4,600,000");
  CHECK(report::usd_text(999.5) == "$999.50");
}

TEST_CASE("the headline gives the break-even against every cloud offer", "[tools][report][headline]") {
  const auto lines = report::headline_lines(cost_facts(), cost_summary());
  // Before: "month 13 (owned vs aws-p5-on-demand)" and nothing about the reserved offer; then
  // "month 13 vs aws-p5-on-demand, never vs aws-p5-reserved-3y (owned)", which left who catches up unclear.
  CHECK(line(lines, "break-even") ==
        "owning catches up with aws-p5-on-demand in month 13, aws-p5-reserved-3y never; 5,390,000 GPU-hours delivered");
}

TEST_CASE("the headline says what period is priced and warns when the run covers little of it",
          "[tools][report][headline]") {
  const auto lines = report::headline_lines(cost_facts(), cost_summary());
  CHECK(line(lines, "priced") ==
        "1,095.75 d (36 billing months), the horizon asked for; the run simulated 1.00 h of it (0.0038%), "
        "1,870,000 kWh of energy priced after it at its last power");
  CHECK(line(lines, "WARNING") == "the run simulated 1 h, 0.0038% of the 1095 d 18 h horizon priced");
  CHECK_THAT(line(lines, "cost"), Catch::Contains("owned $12.340M ($502,353.13/GPU-h)"));
  auto own = cost_summary();
  own["cost"]["priced_period_basis"] = "run";
  own["cost"].erase("warning");
  const auto run_lines = report::headline_lines(cost_facts(), own);
  CHECK(line(run_lines, "priced") == "1,095.75 d (36 billing months), the run's own span");
  CHECK(line(run_lines, "WARNING").empty());
}

TEST_CASE("the headline breaks capex and the owned TCO into categories, zero ones left out",
          "[tools][report][headline]") {
  const auto lines = report::headline_lines(cost_facts(), cost_summary());
  CHECK(line(lines, "capex") ==
        "$11,490,000: servers $10,032,000, switches $688,000, cables and optics $120,000, cooling gear $90,000, "
        "power gear $12,000, spares $548,000");
  CHECK(line(lines, "owned TCO") ==
        "capex $11,490,000, book value left -$4,600,000, electricity $1,250,000, colocation $3,000,000, "
        "support $1,000,000, staff $200,000");
}

TEST_CASE("the two IT energy figures say what each counts", "[tools][report][headline]") {
  report::HeadlineFacts f;
  f.has_cluster = true;
  f.has_facility = true;
  const auto s = nlohmann::json::parse(R"({"energy": {"it_kwh": 104.12},
    "facility": {"pue": 1.114, "total_energy_kwh": 143.2, "it_energy_kwh": 128.57, "energy": {"network_kwh": 24.45}}})");
  const auto lines = report::headline_lines(f, s);
  CHECK(line(lines, "IT energy") == "104.1 kWh, compute nodes");
  CHECK(line(lines, "facility") ==
        "PUE 1.114 (energy-weighted); 143.2 kWh total for 128.6 kWh IT (compute nodes and 24.4 kWh of network "
        "switches)");
}
