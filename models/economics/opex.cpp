#include "models/economics/opex.hpp"

#include "models/economics/billing_month.hpp"
#include "sim/error.hpp"

namespace dcsim::models::economics {

void validate(const OpexConfig& c, const SitePrices& prices, const std::string& prefix) {
  require_non_negative(c.contracted_kw, prefix + "contracted_kw", "power in kW");
  if (c.nodes < 0) throw sim::ConfigError(prefix + "nodes", "expected a non-negative node count, got " + std::to_string(c.nodes));
  if (c.gpus_per_node < 0) {
    throw sim::ConfigError(prefix + "gpus_per_node", "expected a non-negative GPU count, got " + std::to_string(c.gpus_per_node));
  }
  if (c.site == SiteKind::kColocation && c.contracted_kw == 0.0 && c.nodes > 0) {
    // A colocated cluster pays for the power it contracts; 0 kW would make the fee vanish.
    throw sim::ConfigError(prefix + "contracted_kw", "a colocated site needs the IT power it contracts, got 0 kW");
  }
  for (std::size_t i = 0; i < c.ports.size(); ++i) {
    const std::string f = prefix + "ports[" + std::to_string(i) + "].";
    require_positive(c.ports[i].speed_bps, f + "speed_bps", "port speed in bit/s");
    if (c.ports[i].count < 0) {
      throw sim::ConfigError(f + "count", "expected a non-negative port count, got " + std::to_string(c.ports[i].count));
    }
    port_usd_per_month(prices, c.ports[i].speed_bps, "site_prices.");  // a speed without a price throws
  }
}

MonthlyFees monthly_fees(const OpexConfig& c, const SitePrices& p) {
  MonthlyFees f;
  const double nodes = static_cast<double>(c.nodes);
  if (c.site == SiteKind::kColocation) f.colocation_usd = c.contracted_kw * p.colocation_usd_per_kw_month;
  for (const PortGroup& g : c.ports) {
    f.ports_usd += static_cast<double>(g.count) * port_usd_per_month(p, g.speed_bps, "site_prices.");
  }
  f.support_usd = nodes * p.support_usd_per_node_year / kMonthsPerYear;
  f.staff_usd = (c.contracted_kw / 1000.0 * p.staff_usd_per_mw_year + nodes * p.staff_usd_per_node_year) / kMonthsPerYear;
  f.licences_usd = nodes * static_cast<double>(c.gpus_per_node) * p.licence_usd_per_gpu_year / kMonthsPerYear;
  return f;
}

double port_capacity_bytes_per_month(const OpexConfig& c) {
  double bytes = 0.0;
  for (const PortGroup& g : c.ports) {
    bytes += static_cast<double>(g.count) * port_capacity_bytes_per_day(g.speed_bps) * (kBillingMonthS / 86'400.0);
  }
  return bytes;
}

void validate(const RepairPrices& prices, const std::string& prefix) {
  const std::string field = prefix + "usd_per_fault";
  for (const auto& [name, usd] : prices.usd_per_fault) {
    if (name.empty()) throw sim::ConfigError(field, "expected fault class names, got an empty one");
    std::string class_field = field;
    class_field.append(".").append(name);
    require_non_negative(usd, class_field);
  }
}

}  // namespace dcsim::models::economics
