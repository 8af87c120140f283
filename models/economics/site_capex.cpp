#include "models/economics/site_capex.hpp"

namespace dcsim::models::economics {

double contracted_kw(const EconomicsConfig& e, const SiteShape& site) {
  return e.contracted_kw.value_or(site.nodes * site.node_max_power_w / 1e3);
}

CapexConfig site_capex_config(const EconomicsConfig& e, const SiteShape& site,
                              std::optional<network::BillOfMaterials> fabric,
                              std::optional<network::BillOfMaterials> frontend) {
  CapexConfig c = e.ledger.capex;
  c.nodes = site.nodes;
  c.fabric = std::move(fabric);
  c.frontend = std::move(frontend);
  c.gear = facility_gear(e.site, contracted_kw(e, site), site.liquid_fraction, site.rear_doors);
  return c;
}

Capex network_capex(const CapexConfig& site, const network::BillOfMaterials& bom) {
  CapexConfig c;
  c.node_price = site.node_price;  // whether NICs come with the node
  c.fabric_prices = site.fabric_prices;
  c.site_prices = site.site_prices;
  c.fabric = bom;
  c.spares_fraction = 0.0;
  return capex(c);
}

}  // namespace dcsim::models::economics
