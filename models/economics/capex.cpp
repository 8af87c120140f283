#include "models/economics/capex.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

std::string gbps(double bps) { return format_number(bps / 1e9) + "G"; }

using Cat = CapexCategory;

void add(Capex& c, Cat category, std::string group, std::string item, double quantity, std::string unit,
         double usd_each) {
  if (quantity == 0.0) return;
  c.lines.push_back(
      {category, std::move(group), std::move(item), quantity, std::move(unit), usd_each, quantity * usd_each});
}

// One network's bill of materials; `network` names the front-end's lines ("frontend ") apart
// from the backend's ("").
void price_fabric(const CapexConfig& config, const network::BillOfMaterials& bom, const std::string& network,
                  Capex& c) {
  const FabricPrices& prices = config.fabric_prices;
  for (const network::SwitchBomLine& s : bom.switches) {
    double speed = 0.0;
    for (const network::CableBomLine& cable : bom.cables) {
      if (cable.tier == s.tier - 1 || cable.tier == s.tier) speed = std::max(speed, cable.speed_bps);
    }
    if (speed <= 0.0) {
      throw sim::ConfigError("fabric", network + "tier-" + std::to_string(s.tier) +
                                           " switches terminate no cables, so their port speed is unknown");
    }
    // A preset's switch is priced as the box it is (its price key); others by speed and radix.
    if (!s.price_key.empty()) {
      add(c, Cat::kSwitches, "fabric",
          network + "switch " + s.model + " (" + std::to_string(s.radix) + "-port " + gbps(speed) + ") tier " +
              std::to_string(s.tier),
          static_cast<double>(s.count), "switch", switch_usd_by_key(prices, s.price_key, s.model, "fabric_prices."));
      continue;
    }
    add(c, Cat::kSwitches, "fabric", network + "switch " + std::to_string(s.radix) + "-port " + gbps(speed) + " tier " + std::to_string(s.tier),
        static_cast<double>(s.count), "switch", switch_usd(prices, speed, s.radix, "fabric_prices."));
  }
  for (const network::CableBomLine& cable : bom.cables) {
    const LinkPrice& p = link_price(prices, cable.speed_bps, "fabric_prices.");
    const std::string what = gbps(cable.speed_bps) + " tier " + std::to_string(cable.tier);
    const double n = static_cast<double>(cable.count);
    if (cable.media == "DAC") {
      add(c, Cat::kCablesOptics, "fabric", network + "DAC " + what, n, "cable", p.dac_usd);
    } else if (cable.media == "AOC") {
      add(c, Cat::kCablesOptics, "fabric", network + "AOC " + what, n, "cable", p.aoc_usd);
    } else if (cable.media == "optics") {
      add(c, Cat::kCablesOptics, "fabric", network + "transceiver " + what, 2 * n, "module", p.transceiver_usd);
      add(c, Cat::kCablesOptics, "fabric", network + "fibre " + what, cable.total_length_m, "m", prices.fibre_usd_per_m);
    } else {
      throw sim::InternalError("economics: unknown cable media '" + cable.media + "' (this is a bug)");
    }
  }
  if (!config.node_price.includes_nics) {
    for (const network::NicBomLine& nic : bom.nics) {
      add(c, Cat::kNics, "fabric", network + "NIC port " + gbps(nic.speed_bps), static_cast<double>(nic.ports), "port",
          link_price(prices, nic.speed_bps, "fabric_prices.").nic_port_usd);
    }
  }
}

void price_facility(const CapexConfig& config, Capex& c) {
  const FacilityGear& g = config.gear;
  const SitePrices& p = config.site_prices;
  struct Gear {
    const char* name;
    Cat category;
    double kw;
    double usd_per_kw;
  };
  const Gear gear[] = {{"building", Cat::kBuilding, g.building_kw, p.building_usd_per_kw},
                       {"cold_plate", Cat::kCooling, g.cold_plate_kw, p.cold_plate_usd_per_kw},
                       {"cdu", Cat::kCooling, g.cdu_kw, p.cdu_usd_per_kw},
                       {"rear_door", Cat::kCooling, g.rear_door_kw, p.rear_door_usd_per_kw},
                       {"chiller", Cat::kCooling, g.chiller_kw, p.chiller_usd_per_kw},
                       {"dry_cooler", Cat::kCooling, g.dry_cooler_kw, p.dry_cooler_usd_per_kw},
                       {"ups", Cat::kPower, g.ups_kw, p.ups_usd_per_kw},
                       {"pdu", Cat::kPower, g.pdu_kw, p.pdu_usd_per_kw}};
  for (const Gear& item : gear) {
    require_non_negative(item.kw, std::string("gear.") + item.name + "_kw", "capacity in kW");
    add(c, item.category, "facility", item.name, item.kw, "kW", item.usd_per_kw);
  }
}

}  // namespace

namespace {

struct CategoryText {
  const char* name;
  const char* label;
  const char* description;
};

// In CapexCategory's order.
constexpr CategoryText kCategoryText[kCapexCategories] = {
    {"servers", "servers", "servers: the node price and its itemised parts"},
    {"switches", "switches", "switches of every network (backend and front-end)"},
    {"cables_optics", "cables and optics", "DAC and AOC cables, transceivers and fibre"},
    {"nics", "NIC ports", "NIC ports priced apart from the node (0 when the node price includes them)"},
    {"cooling", "cooling gear", "cooling gear: cold plates, CDUs, rear doors, chillers, dry coolers"},
    {"power", "power gear", "power gear: UPS and rack PDUs"},
    {"building", "building", "an own building (its hall, power and cooling plant), per kW"},
    {"spares", "spares", "spare parts: spares_fraction x (servers + network)"},
};

const CategoryText& text_of(CapexCategory category) { return kCategoryText[static_cast<std::size_t>(category)]; }

}  // namespace

const char* capex_category_name(CapexCategory category) { return text_of(category).name; }
const char* capex_category_label(CapexCategory category) { return text_of(category).label; }
const char* capex_category_description(CapexCategory category) { return text_of(category).description; }

FacilityGear facility_gear(SiteKind site, double it_kw, double liquid_fraction, bool rear_doors) {
  require_non_negative(it_kw, "it_kw", "IT capacity in kW");
  if (!(liquid_fraction >= 0.0 && liquid_fraction <= 1.0)) {
    throw sim::ConfigError("liquid_fraction", "expected a fraction in [0, 1], got " + format_number(liquid_fraction));
  }
  FacilityGear g;
  g.cold_plate_kw = it_kw * liquid_fraction;
  g.cdu_kw = it_kw * liquid_fraction;
  g.rear_door_kw = rear_doors ? it_kw * (1.0 - liquid_fraction) : 0.0;
  g.pdu_kw = it_kw;
  if (site == SiteKind::kOwnBuilding) g.building_kw = it_kw;
  return g;
}

Capex capex(const CapexConfig& config) {
  if (config.nodes < 0) throw sim::ConfigError("nodes", "expected a non-negative node count, got " + std::to_string(config.nodes));
  validate(config.node_price, "node_price.");
  validate(config.fabric_prices, "fabric_prices.");
  validate(config.site_prices, "site_prices.");

  Capex c;
  const double nodes = static_cast<double>(config.nodes);
  const NodePrice& np = config.node_price;
  add(c, Cat::kServers, "servers", np.name + " node", nodes, "node", np.usd_per_node);
  for (const NodePart& part : np.parts) {
    add(c, Cat::kServers, "servers", part.name, nodes * part.count_per_node, part.name, part.usd_each);
  }
  if (config.fabric) price_fabric(config, *config.fabric, "", c);
  if (config.frontend) price_fabric(config, *config.frontend, "frontend ", c);
  price_facility(config, c);

  for (const CapexLine& line : c.lines) c.by_category[static_cast<std::size_t>(line.category)] += line.usd;
  c.servers_usd = c.category_usd(Cat::kServers);
  c.fabric_usd = c.category_usd(Cat::kSwitches) + c.category_usd(Cat::kCablesOptics) + c.category_usd(Cat::kNics);
  c.facility_usd = c.category_usd(Cat::kCooling) + c.category_usd(Cat::kPower) + c.category_usd(Cat::kBuilding);
  const double spared = c.servers_usd + c.fabric_usd;
  add(c, Cat::kSpares, "spares", "spares", config.spares_fraction, "fraction of servers and fabric", spared);
  c.spares_usd = config.spares_fraction * spared;
  c.by_category[static_cast<std::size_t>(Cat::kSpares)] = c.spares_usd;
  // The categories in their order, so that they sum to the total exactly.
  for (const double usd : c.by_category) c.total_usd += usd;
  return c;
}

}  // namespace dcsim::models::economics
