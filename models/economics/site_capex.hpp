#pragma once
// The capex of a site as the scenario describes it, from what the assembly knows: the node count
// and the nodes' nameplate power, the networks' bills of materials, the cooling gear the facility
// has (D2C cold plates and CDUs for the captured share, rear doors for the rest when it has them;
// air only without a facility). The economics model prices a run with it and `dcsim topo --bom`
// prints it, so both give the same figures. O(1) plus the configs' copies.

#include <optional>

#include "models/economics/capex.hpp"
#include "models/economics/economics_config.hpp"
#include "models/network/bill_of_materials.hpp"

namespace dcsim::models::economics {

// What capex prices of a site beside its networks: its nodes and its cooling gear (the assembly
// derives it from the cluster and the facility: models/datacenter/economics_site.hpp).
struct SiteShape {
  int nodes = 0;
  double node_max_power_w = 0.0;  // nameplate: the contracted power when the config gives none
  double liquid_fraction = 0.0;   // of the heat, captured by D2C cold plates (CDUs); 0: air
  bool rear_doors = false;        // rear-door heat exchangers for the rest
};

// The IT power contracted: the config's, else the nodes' nameplate maximum, in kW.
double contracted_kw(const EconomicsConfig& economics, const SiteShape& site);

// The capex config of `economics` completed for this site (nodes, fabric, frontend, gear).
CapexConfig site_capex_config(const EconomicsConfig& economics, const SiteShape& site,
                              std::optional<network::BillOfMaterials> fabric,
                              std::optional<network::BillOfMaterials> frontend);

// One network's capex alone at the site's fabric prices: its switches, cables, optics and NIC ports
// (the NICs as the node price says), no servers, gear or spares.
Capex network_capex(const CapexConfig& site, const network::BillOfMaterials& bom);

}  // namespace dcsim::models::economics
