#include "models/economics/fabric_prices.hpp"

#include <cmath>
#include <cstdlib>

#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

std::string gbps_label(double bps) { return format_number(bps / 1e9) + "g"; }

// public-figures.md, Costs: "64-port 400G switch $36-50k | SemiAnalysis via epoch-research;
// Thinkmate quote | S/B" (midpoint) and "800G switching | Spectrum-4 64x800G about $120k; optics
// $400-900 each | Sesterce README (2025) | B" (midpoint for the optics).
constexpr double k400gSwitch64Usd = (36'000.0 + 50'000.0) / 2;
constexpr double k800gSwitch64Usd = 120'000.0;
constexpr double k800gTransceiverUsd = (400.0 + 900.0) / 2;

// ASSUMPTIONS (no public figure in the reference, none found by search), all at 400G and scaled
// linearly with speed to 100G and 200G (a per-bit price held constant across speeds):
//  - 400G transceiver $400: no more than the low end of Sesterce's 800G range;
//  - AOC: twice a transceiver of its speed (it replaces two modules and their fibre);
//  - DAC 400G $150: passive copper, a fraction of an AOC;
//  - NIC port 400G $2,000 (one ConnectX-7-class port); only used for nodes priced without NICs;
//  - 100G and 200G switches: the 400G per-port price scaled by speed;
//  - fibre $2 per metre (structured multi-fibre trunk).
constexpr double k400gTransceiverUsd = 400.0;
constexpr double k400gDacUsd = 150.0;
constexpr double k400gNicPortUsd = 2'000.0;
constexpr double kFibreUsdPerM = 2.0;

LinkPrice scaled_from_400g(double speed_bps) {
  const double f = speed_bps / 400e9;
  return {speed_bps, k400gDacUsd * f, 2 * k400gTransceiverUsd * f, k400gTransceiverUsd * f, k400gNicPortUsd * f};
}

}  // namespace

void validate(const FabricPrices& p, const std::string& prefix) {
  for (std::size_t i = 0; i < p.switches.size(); ++i) {
    const std::string f = prefix + "switches[" + std::to_string(i) + "].";
    require_positive(p.switches[i].port_speed_bps, f + "port_speed_bps", "port speed in bit/s");
    if (p.switches[i].radix <= 0) {
      throw sim::ConfigError(f + "radix", "expected a positive port count, got " + std::to_string(p.switches[i].radix));
    }
    require_non_negative(p.switches[i].usd_each, f + "usd_each");
  }
  for (std::size_t i = 0; i < p.links.size(); ++i) {
    const LinkPrice& l = p.links[i];
    const std::string f = prefix + "links[" + std::to_string(i) + "].";
    require_positive(l.speed_bps, f + "speed_bps", "speed in bit/s");
    for (std::size_t j = 0; j < i; ++j) {
      if (p.links[j].speed_bps == l.speed_bps) {
        throw sim::ConfigError(f + "speed_bps", "expected one entry per speed, got " + gbps_label(l.speed_bps) + " twice");
      }
    }
    require_non_negative(l.dac_usd, f + "dac_usd");
    require_non_negative(l.aoc_usd, f + "aoc_usd");
    require_non_negative(l.transceiver_usd, f + "transceiver_usd");
    require_non_negative(l.nic_port_usd, f + "nic_port_usd");
  }
  require_non_negative(p.fibre_usd_per_m, prefix + "fibre_usd_per_m");
}

double switch_usd(const FabricPrices& p, double port_speed_bps, int radix, const std::string& prefix) {
  const SwitchPrice* best = nullptr;
  for (const SwitchPrice& s : p.switches) {
    if (s.port_speed_bps != port_speed_bps) continue;
    if (best == nullptr || std::abs(s.radix - radix) < std::abs(best->radix - radix)) best = &s;
  }
  if (best == nullptr) {
    throw sim::ConfigError(prefix + "switches", "no price for a " + std::to_string(radix) + "-port " +
                                                    format_number(port_speed_bps / 1e9) +
                                                    " Gb/s switch: add an entry of that port speed");
  }
  return best->usd_each * radix / best->radix;
}

double switch_usd_by_key(const FabricPrices& prices, const std::string& price_key, const std::string& model,
                         const std::string& prefix) {
  FabricPrices copy = prices;  // price_fields hands out pointers into what it is given
  std::string known;
  for (const PriceField& f : price_fields(copy)) {
    if (f.name.rfind("switch_", 0) != 0) continue;
    if (f.name == price_key) return *f.value;
    known += (known.empty() ? "" : ", ") + f.name;
  }
  throw sim::ConfigError(prefix + price_key, "switch preset " + model + " is priced by " + price_key +
                                                 ", which these fabric prices lack (they have: " + known + ")");
}

const LinkPrice& link_price(const FabricPrices& p, double speed_bps, const std::string& prefix) {
  for (const LinkPrice& l : p.links) {
    if (l.speed_bps == speed_bps) return l;
  }
  throw sim::ConfigError(prefix + "links", "no cable, optics or NIC prices for " + format_number(speed_bps / 1e9) +
                                               " Gb/s links: add an entry of that speed");
}

std::vector<PriceField> price_fields(FabricPrices& p) {
  std::vector<PriceField> fields;
  for (SwitchPrice& s : p.switches) {
    fields.push_back({"switch_" + gbps_label(s.port_speed_bps) + "_" + std::to_string(s.radix) + "_port_usd", &s.usd_each,
                      "one " + std::to_string(s.radix) + "-port " + gbps_label(s.port_speed_bps) + " switch"});
  }
  for (LinkPrice& l : p.links) {
    const std::string g = gbps_label(l.speed_bps);
    fields.push_back({"dac_" + g + "_usd", &l.dac_usd, "one " + g + " passive copper cable"});
    fields.push_back({"aoc_" + g + "_usd", &l.aoc_usd, "one " + g + " active optical cable"});
    fields.push_back({"transceiver_" + g + "_usd", &l.transceiver_usd, "one " + g + " pluggable optical module"});
    fields.push_back({"nic_port_" + g + "_usd", &l.nic_port_usd, "one " + g + " NIC port (nodes priced without NICs)"});
  }
  fields.push_back({"fibre_usd_per_m", &p.fibre_usd_per_m, "fibre of an optical link, per metre"});
  return fields;
}

FabricPrices ethernet_fabric_prices() {
  FabricPrices p;
  p.name = "ethernet";
  p.source = "400G switch: SemiAnalysis/Thinkmate; 800G switch and optics: Sesterce README (public-figures.md); "
             "DAC, AOC, 400G optics, NIC ports, fibre and 100-200G prices: assumptions";
  p.as_of = "2025";
  p.switches = {{100e9, 64, k400gSwitch64Usd * 100e9 / 400e9},
                {200e9, 64, k400gSwitch64Usd * 200e9 / 400e9},
                {400e9, 64, k400gSwitch64Usd},
                {800e9, 64, k800gSwitch64Usd}};
  p.links = {scaled_from_400g(100e9), scaled_from_400g(200e9), scaled_from_400g(400e9), scaled_from_400g(800e9)};
  p.links[3].transceiver_usd = k800gTransceiverUsd;  // the one public optics figure
  p.links[3].aoc_usd = 2 * k800gTransceiverUsd;
  p.fibre_usd_per_m = kFibreUsdPerM;
  return p;
}

void register_fabric_prices(sim::Registry<PricePresetFactory<FabricPrices>>& registry) {
  register_price_preset(registry, &ethernet_fabric_prices,
                        "Ethernet 100G-800G: 64-port switches ($43,000 at 400G, $120,000 at 800G), DAC, AOC, optics, NIC ports");
}

}  // namespace dcsim::models::economics
