#pragma once
// Prices of running servers somewhere, registered as "site prices": cooling and power gear per
// kW, colocation per kW-month, the building per kW (own build instead of colocation),
// unmetered internet ports by speed, electricity, support, staff and licences.
//
// Per-kW gear prices apply to the kW the gear serves (capex.hpp, FacilityGear): cold plates and
// CDUs to the heat captured by liquid, rear doors to the heat they remove from the air, chillers
// or dry coolers to the heat rejected, UPS and PDUs to the IT power they feed.

#include <string>
#include <vector>

#include "models/economics/price_preset.hpp"

namespace dcsim::models::economics {

// A flat-fee unmetered internet port: volume is free, throughput is capped at its speed.
struct PortPrice {
  double speed_bps = 0.0;
  double usd_per_month = 0.0;
};

struct SitePrices {
  std::string name;
  std::string source;
  std::string as_of;
  double electricity_usd_per_kwh = 0.0;  // the flat tariff a scenario starts from
  double colocation_usd_per_kw_month = 0.0;
  double building_usd_per_kw = 0.0;  // an own data hall, power and cooling plant included
  double cold_plate_usd_per_kw = 0.0;  // D2C cold plates and rack manifolds
  double cdu_usd_per_kw = 0.0;
  double rear_door_usd_per_kw = 0.0;
  double chiller_usd_per_kw = 0.0;
  double dry_cooler_usd_per_kw = 0.0;
  double ups_usd_per_kw = 0.0;
  double pdu_usd_per_kw = 0.0;
  std::vector<PortPrice> ports;  // one entry per speed
  double support_usd_per_node_year = 0.0;
  double staff_usd_per_mw_year = 0.0;  // per MW of contracted IT power
  double staff_usd_per_node_year = 0.0;
  double licence_usd_per_gpu_year = 0.0;
};

// 100 Gb/s moves 1.08e15 bytes (1.08 PB) a day: speed / 8 x 86,400 s.
double port_capacity_bytes_per_day(double speed_bps);

// The monthly fee of an unmetered port of that speed; sim::ConfigError("<prefix>ports", ...)
// when the list has no such speed.
double port_usd_per_month(const SitePrices& prices, double speed_bps, const std::string& prefix);

// sim::ConfigError naming the field (prefix + "ups_usd_per_kw", "ports[0].speed_bps") for a
// negative price, a non-positive port speed, two ports of one speed.
void validate(const SitePrices& prices, const std::string& prefix);

std::vector<PriceField> price_fields(SitePrices& prices);

// US figures: EIA 2023 industrial electricity, CBRE North American colocation, Cushman &
// Wakefield build cost, Sesterce power gear; cooling gear, ports and staff are assumptions.
SitePrices us_site_prices();

void register_site_prices(sim::Registry<PricePresetFactory<SitePrices>>& registry);

}  // namespace dcsim::models::economics
