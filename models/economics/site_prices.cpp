#include "models/economics/site_prices.hpp"

#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

std::string gbps_label(double bps) { return format_number(bps / 1e9) + "g"; }

// public-figures.md, Costs (each row cited where used below).
constexpr double kEiaUsIndustrial2023UsdPerKwh = 0.0806;  // EIA Electric Power Annual 2023 | P
constexpr double kCbreColoUsdPerKwMonth = 184.0;          // CBRE, North America H2 2024 | P
// "facility build cost | $11.7M per MW on average (range $9.3-15.0M); power and cooling about 53%
// | Cushman & Wakefield Data Center Development Cost Guide 2025 | P".
constexpr double kBuildUsdPerKw = 11.7e6 / 1e3;
// "UPS / PDU / liquid cooling gear | about $150-200 / $50-100 / $300-500 per kW | Sesterce
// calculator README (2025) | B": midpoints.
constexpr double kUpsUsdPerKw = (150.0 + 200.0) / 2;
constexpr double kPduUsdPerKw = (50.0 + 100.0) / 2;
constexpr double kLiquidGearUsdPerKw = (300.0 + 500.0) / 2;
// ASSUMPTION (the reference lists CDU, rear-door and cold-plate cost per kW as not found; a search
// of stored public pages found no per-kW figure either): Sesterce's liquid cooling gear midpoint
// split between cold plates with manifolds (150) and CDUs (250), since a CDU carries the pumps,
// heat exchanger and controls; a rear door (coil, fans, controls at the rack) at the same $400/kW
// as the whole liquid set.
constexpr double kColdPlateUsdPerKw = 150.0;
constexpr double kCduUsdPerKw = kLiquidGearUsdPerKw - kColdPlateUsdPerKw;
constexpr double kRearDoorUsdPerKw = kLiquidGearUsdPerKw;
// ASSUMPTION (no public per-kW figure in the reference or found): a chiller plant at the liquid
// gear's $400/kW of heat rejected, a dry cooler (no compressor) at $250/kW.
constexpr double kChillerUsdPerKw = 400.0;
constexpr double kDryCoolerUsdPerKw = 250.0;
// ASSUMPTION derived from TeleGeography's IP transit pricing (the reference lists 100G unmetered
// port prices as not found): median 10 GigE port $1.20 per Mbps per month in Los Angeles in Q2
// 2015, falling 14% a year (their 2012-2015 rate; telecomnewsroom.com, 2015-09-09), carried on
// for 10 years: 1.20 x 0.86^10 = $0.266 per Mbps per month, at any port speed (the volume discount
// of a 100G port over a 10G one is not public either).
const double kPortUsdPerMbpsMonth = 1.20 * std::pow(0.86, 10);
// "maintenance | about 5% of capex per year (mlsysim default) | harvard-edge mlsysim pricing.py
// | B": 5% of the hgx-h100 node price (node_price.cpp, $313,500) per node-year.
constexpr double kSupportUsdPerNodeYear = 0.05 * 313'500.0;
// ASSUMPTION (no public staffing ratio found): two full-time engineers per MW of contracted IT
// power (about 100 HGX nodes) at a fully loaded $150k a year each.
constexpr double kStaffUsdPerMwYear = 2 * 150'000.0;

}  // namespace

double port_capacity_bytes_per_day(double speed_bps) { return speed_bps / 8.0 * 86'400.0; }

double port_usd_per_month(const SitePrices& p, double speed_bps, const std::string& prefix) {
  for (const PortPrice& port : p.ports) {
    if (port.speed_bps == speed_bps) return port.usd_per_month;
  }
  throw sim::ConfigError(prefix + "ports", "no unmetered port price for " + format_number(speed_bps / 1e9) +
                                               " Gb/s: add an entry of that speed");
}

void validate(const SitePrices& p, const std::string& prefix) {
  SitePrices copy = p;  // price_fields takes a mutable preset; validation reads only
  for (const PriceField& f : price_fields(copy)) {
    if (f.name.rfind("port_", 0) != 0) require_non_negative(*f.value, prefix + f.name);
  }
  for (std::size_t i = 0; i < p.ports.size(); ++i) {
    const std::string f = prefix + "ports[" + std::to_string(i) + "].";
    require_positive(p.ports[i].speed_bps, f + "speed_bps", "speed in bit/s");
    require_non_negative(p.ports[i].usd_per_month, f + "usd_per_month");
    for (std::size_t j = 0; j < i; ++j) {
      if (p.ports[j].speed_bps == p.ports[i].speed_bps) {
        throw sim::ConfigError(f + "speed_bps", "expected one entry per speed, got " + gbps_label(p.ports[i].speed_bps) + " twice");
      }
    }
  }
}

std::vector<PriceField> price_fields(SitePrices& p) {
  std::vector<PriceField> fields{
      {"electricity_usd_per_kwh", &p.electricity_usd_per_kwh, "flat electricity tariff, USD per kWh"},
      {"colocation_usd_per_kw_month", &p.colocation_usd_per_kw_month, "colocation, per kW of contracted power a month"},
      {"building_usd_per_kw", &p.building_usd_per_kw, "own data hall with its power and cooling plant, per kW of IT"},
      {"cold_plate_usd_per_kw", &p.cold_plate_usd_per_kw, "D2C cold plates and manifolds, per kW captured by liquid"},
      {"cdu_usd_per_kw", &p.cdu_usd_per_kw, "coolant distribution units, per kW captured by liquid"},
      {"rear_door_usd_per_kw", &p.rear_door_usd_per_kw, "rear-door heat exchangers, per kW they remove"},
      {"chiller_usd_per_kw", &p.chiller_usd_per_kw, "chiller plant, per kW of heat rejected"},
      {"dry_cooler_usd_per_kw", &p.dry_cooler_usd_per_kw, "dry coolers, per kW of heat rejected"},
      {"ups_usd_per_kw", &p.ups_usd_per_kw, "UPS, per kW of IT power"},
      {"pdu_usd_per_kw", &p.pdu_usd_per_kw, "PDUs, per kW of IT power"},
      {"support_usd_per_node_year", &p.support_usd_per_node_year, "hardware support contract, per node a year"},
      {"staff_usd_per_mw_year", &p.staff_usd_per_mw_year, "operations staff, per MW of contracted IT power a year"},
      {"staff_usd_per_node_year", &p.staff_usd_per_node_year, "operations staff, per node a year (adds to the per-MW figure)"},
      {"licence_usd_per_gpu_year", &p.licence_usd_per_gpu_year, "software licences, per GPU a year"}};
  for (PortPrice& port : p.ports) {
    fields.push_back({"port_" + gbps_label(port.speed_bps) + "_usd_per_month", &port.usd_per_month,
                      "one unmetered " + gbps_label(port.speed_bps) + " internet port, flat monthly fee"});
  }
  return fields;
}

SitePrices us_site_prices() {
  SitePrices p;
  p.name = "us";
  p.source = "EIA 2023 industrial electricity, CBRE H2 2024 colocation, Cushman & Wakefield 2025 build cost, "
             "Sesterce 2025 power gear (public-figures.md); cooling gear, ports and staff: assumptions";
  p.as_of = "2025";
  p.electricity_usd_per_kwh = kEiaUsIndustrial2023UsdPerKwh;
  p.colocation_usd_per_kw_month = kCbreColoUsdPerKwMonth;
  p.building_usd_per_kw = kBuildUsdPerKw;
  p.cold_plate_usd_per_kw = kColdPlateUsdPerKw;
  p.cdu_usd_per_kw = kCduUsdPerKw;
  p.rear_door_usd_per_kw = kRearDoorUsdPerKw;
  p.chiller_usd_per_kw = kChillerUsdPerKw;
  p.dry_cooler_usd_per_kw = kDryCoolerUsdPerKw;
  p.ups_usd_per_kw = kUpsUsdPerKw;
  p.pdu_usd_per_kw = kPduUsdPerKw;
  p.ports = {{10e9, kPortUsdPerMbpsMonth * 10'000}, {100e9, kPortUsdPerMbpsMonth * 100'000}};
  p.support_usd_per_node_year = kSupportUsdPerNodeYear;
  p.staff_usd_per_mw_year = kStaffUsdPerMwYear;
  p.staff_usd_per_node_year = 0.0;  // staff are priced per MW in this preset
  // No licence by default: the stack dcsim models (Linux, Slurm-like scheduling, NCCL) is free.
  // Set licence_usd_per_gpu_year for a commercial stack such as NVIDIA AI Enterprise.
  p.licence_usd_per_gpu_year = 0.0;
  return p;
}

void register_site_prices(sim::Registry<PricePresetFactory<SitePrices>>& registry) {
  register_price_preset(registry, &us_site_prices,
                        "US site: $0.0806/kWh, colocation $184/kW-month, UPS $175/kW, PDU $75/kW, "
                        "D2C gear $400/kW, 100G unmetered port $26,556/month");
}

}  // namespace dcsim::models::economics
