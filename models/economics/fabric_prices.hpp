#pragma once
// Prices of the fabric's bill of materials (models/network/bill_of_materials.hpp), registered
// as "fabric prices": switches by port speed and radix, and per link speed the cable media
// (passive DAC, active optical cable, or two pluggable transceivers plus fibre by the metre) and
// a NIC port (priced only when the node price does not include the NICs, node_price.hpp).
//
// Switch lookup: a switch built from a preset is priced by the preset's price key (the entry it
// names: the box as sold). Otherwise the entry of the same port speed and radix; else the entry
// of the same speed with the nearest radix, scaled per port (usd_each x radix / entry radix): a
// list price per port is how switch families are quoted. A speed or key with no entry is an error
// naming it (no silent zero).

#include <string>
#include <vector>

#include "models/economics/price_preset.hpp"

namespace dcsim::models::economics {

struct SwitchPrice {
  double port_speed_bps = 0.0;
  int radix = 0;
  double usd_each = 0.0;
};

struct LinkPrice {
  double speed_bps = 0.0;  // per cable / port
  double dac_usd = 0.0;          // one passive copper cable
  double aoc_usd = 0.0;          // one active optical cable
  double transceiver_usd = 0.0;  // one pluggable module (an "optics" cable has two)
  double nic_port_usd = 0.0;     // one host NIC port
};

struct FabricPrices {
  std::string name;
  std::string source;
  std::string as_of;
  std::vector<SwitchPrice> switches;
  std::vector<LinkPrice> links;
  double fibre_usd_per_m = 0.0;  // the fibre of an "optics" cable
};

// sim::ConfigError naming the field (prefix + "switches[1].usd_each", "links[0].speed_bps", ...)
// for negative prices, non-positive speeds or radices, two link entries of one speed.
void validate(const FabricPrices& prices, const std::string& prefix);

// USD for one switch; sim::ConfigError("<prefix>switches", "no price for a 32-port 100 Gb/s
// switch ...") when no entry has that port speed.
double switch_usd(const FabricPrices& prices, double port_speed_bps, int radix, const std::string& prefix);
// USD for one switch of a preset whose economics price key (switch_presets.hpp, e.g.
// "switch_800g_64_port_usd") names a switch entry: the box as it is sold, whatever breakout it is
// cabled at (an SN5600 at 128 x 400G is still a 64-port 800G switch). sim::ConfigError
// ("<prefix><key>", ...) when the prices have no such entry.
double switch_usd_by_key(const FabricPrices& prices, const std::string& price_key, const std::string& model,
                         const std::string& prefix);
// The entry for a link speed; sim::ConfigError("<prefix>links", ...) when none.
const LinkPrice& link_price(const FabricPrices& prices, double speed_bps, const std::string& prefix);

std::vector<PriceField> price_fields(FabricPrices& prices);

// 100G to 800G Ethernet: public switch and optics figures, the rest assumptions (see the .cpp).
FabricPrices ethernet_fabric_prices();

void register_fabric_prices(sim::Registry<PricePresetFactory<FabricPrices>>& registry);

}  // namespace dcsim::models::economics
