#pragma once
// Capital expenditure: what buying the cluster costs, line by line.
//
//   servers  = nodes x (usd_per_node + itemised parts)                  (node_price.hpp)
//   fabric   = switches by tier: a preset's by its price key (the box as sold), others by radix
//              and port speed; cables by media: DAC and AOC each, optics
//              2 transceivers each plus fibre by the metre; NIC ports unless the node price
//              includes them                                             (fabric_prices.hpp);
//              the backend's lines, then the front-end network's ("frontend switch ...")
//   facility = per-kW gear x the kW it serves                            (site_prices.hpp)
//   spares   = spares_fraction x (servers + fabric)
//
// Every line also has a category (CapexCategory), the breakdown a planner compares sites and
// fabrics by: servers, switches, cables and optics, NIC ports (when the node price leaves them
// out), cooling gear, power gear, the building (own building), spares. The total is the sum of
// the categories in that order, so the categories add up to it exactly.
//
// A switch's port speed is the fastest cable it terminates: its tier's downlinks (link tier
// tier - 1) and uplinks (link tier tier). O(BOM lines).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/economics/fabric_prices.hpp"
#include "models/economics/node_price.hpp"
#include "models/economics/site_prices.hpp"
#include "models/network/bill_of_materials.hpp"

namespace dcsim::models::economics {

// kW each piece of facility gear serves; 0 kW buys none of it.
struct FacilityGear {
  double building_kw = 0.0;    // own data hall, power and cooling plant included
  double cold_plate_kw = 0.0;  // heat captured by liquid
  double cdu_kw = 0.0;
  double rear_door_kw = 0.0;  // heat the doors take from the air
  double chiller_kw = 0.0;
  double dry_cooler_kw = 0.0;
  double ups_kw = 0.0;
  double pdu_kw = 0.0;
};

enum class SiteKind {
  kColocation,   // the colocation fee covers the hall, UPS and heat rejection
  kOwnBuilding,  // the building's per-kW price covers them
};

// The gear a site of `it_kw` needs with `liquid_fraction` of the heat captured by D2C cold plates
// (0 for air only) and the rest by rear doors if `rear_doors`: cold plates and CDUs for the
// liquid share, rear doors for the air share, rack PDUs for all of it, and for an own building
// the building itself.
FacilityGear facility_gear(SiteKind site, double it_kw, double liquid_fraction, bool rear_doors);

struct CapexConfig {
  std::int64_t nodes = 0;
  NodePrice node_price;
  std::optional<network::BillOfMaterials> fabric;  // none: a cluster without a priced fabric
  std::optional<network::BillOfMaterials> frontend;  // the nodes' front-end network, when modelled
  FabricPrices fabric_prices;
  SitePrices site_prices;
  FacilityGear gear;
  // Spare parts bought up front. Sesterce README (2025, public-figures.md): "8-15% [maintenance]
  // plus 5-10% spares" (B): the low end.
  double spares_fraction = 0.05;
};

// In the order the total sums them (capex_category_name gives each its output name).
enum class CapexCategory {
  kServers,       // node price and itemised parts
  kSwitches,      // every network's switches (backend and front-end)
  kCablesOptics,  // DAC and AOC cables, transceivers, fibre
  kNics,          // NIC ports priced apart from the node
  kCooling,       // cold plates, CDUs, rear doors, chillers, dry coolers
  kPower,         // UPS, rack PDUs
  kBuilding,      // an own data hall (its power and cooling plant included)
  kSpares,
};
inline constexpr std::size_t kCapexCategories = 8;

// "servers", "switches", "cables_optics", "nics", "cooling", "power", "building", "spares".
const char* capex_category_name(CapexCategory category);
// What tables call it ("cables and optics", "NIC ports", "cooling gear").
const char* capex_category_label(CapexCategory category);
// What a category holds, in words ("DAC and AOC cables, transceivers and fibre").
const char* capex_category_description(CapexCategory category);

struct CapexLine {
  CapexCategory category = CapexCategory::kServers;
  std::string group;  // "servers", "fabric", "facility", "spares"
  std::string item;   // "hgx-h100 node", "switch 64-port 400G tier 1", "cdu", ...
  double quantity = 0.0;
  std::string unit;  // "node", "switch", "cable", "kW", "m", ...
  double usd_each = 0.0;
  double usd = 0.0;
};

struct Capex {
  std::vector<CapexLine> lines;
  std::array<double, kCapexCategories> by_category{};  // indexed by CapexCategory
  double category_usd(CapexCategory c) const { return by_category[static_cast<std::size_t>(c)]; }
  // By group: fabric = switches + cables_optics + nics, facility = cooling + power + building.
  double servers_usd = 0.0;
  double fabric_usd = 0.0;
  double facility_usd = 0.0;
  double spares_usd = 0.0;
  double total_usd = 0.0;  // the categories summed in their order
};

// sim::ConfigError naming the field ("nodes", "gear.cdu_kw",
// "node_price.usd_per_node", "fabric_prices.switches", ...) for bad counts, fractions, kW or
// prices, and for a BOM item the price lists have no price for.
Capex capex(const CapexConfig& config);

}  // namespace dcsim::models::economics
