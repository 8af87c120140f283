#pragma once
// Recurring costs of owning that do not depend on what the simulation does: colocation, unmetered
// ports, support, staff and licences, per billing month (billing_month.hpp); and repair prices
// per fault class, charged per fault the simulation reports (cost_ledger.hpp).
//
//   colocation = contracted_kw x colocation_usd_per_kw_month          (colocation sites only)
//   ports      = sum over port groups of count x port_usd_per_month(speed)
//   support    = nodes x support_usd_per_node_year / 12
//   staff      = (contracted_kw / 1000 x staff_usd_per_mw_year + nodes x staff_usd_per_node_year) / 12
//   licences   = nodes x gpus_per_node x licence_usd_per_gpu_year / 12
// Electricity depends on the simulated energy: electricity_tariff.hpp.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/economics/capex.hpp"
#include "models/economics/site_prices.hpp"
#include "models/network/uplink_config.hpp"

namespace dcsim::models::economics {

using PortGroup = network::PortGroup;  // the uplink's ports (network/uplink_config.hpp)

struct OpexConfig {
  SiteKind site = SiteKind::kColocation;
  double contracted_kw = 0.0;  // IT power contracted (colocation fee) or built (staff basis)
  std::int64_t nodes = 0;
  std::int64_t gpus_per_node = 0;
  std::vector<PortGroup> ports;  // unmetered internet uplinks
};

struct MonthlyFees {
  double colocation_usd = 0.0;
  double ports_usd = 0.0;
  double support_usd = 0.0;
  double staff_usd = 0.0;
  double licences_usd = 0.0;
  double total_usd() const { return colocation_usd + ports_usd + support_usd + staff_usd + licences_usd; }
};

// sim::ConfigError naming the field ("contracted_kw", "nodes", "gpus_per_node", "ports[0].count",
// "site_prices.ports" for a port speed without a price).
void validate(const OpexConfig& config, const SitePrices& prices, const std::string& prefix);

// The fees of one full billing month.
MonthlyFees monthly_fees(const OpexConfig& config, const SitePrices& prices);

// Bytes the unmetered ports can carry out in one billing month at full speed.
double port_capacity_bytes_per_month(const OpexConfig& config);

// Part cost charged per fault, by fault class name (the reliability model's class names).
struct RepairPrices {
  std::map<std::string, double> usd_per_fault;
};

// sim::ConfigError naming prefix + "usd_per_fault.<class>" for a negative price.
void validate(const RepairPrices& prices, const std::string& prefix);

}  // namespace dcsim::models::economics
