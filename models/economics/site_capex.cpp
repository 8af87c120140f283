#include "models/economics/site_capex.hpp"

namespace dcsim::models::economics {

double contracted_kw(const EconomicsConfig& e, const datacenter::ClusterConfig& cluster) {
  return e.contracted_kw.value_or(cluster.nodes * cluster.node.max_power_w() / 1e3);
}

CapexConfig site_capex_config(const EconomicsConfig& e, const datacenter::ClusterConfig& cluster,
                              const std::optional<facility::FacilityConfig>& facility,
                              std::optional<network::BillOfMaterials> fabric,
                              std::optional<network::BillOfMaterials> frontend) {
  CapexConfig c = e.ledger.capex;
  c.nodes = cluster.nodes;
  c.fabric = std::move(fabric);
  c.frontend = std::move(frontend);
  double liquid_fraction = 0.0;
  bool rear_doors = false;
  if (facility) {
    liquid_fraction = facility->mode == facility::FacilityConfig::Mode::kD2c ? facility->d2c_capture : 0.0;
    rear_doors = facility->rdhx;
  }
  c.gear = facility_gear(e.site, contracted_kw(e, cluster), liquid_fraction, rear_doors);
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
