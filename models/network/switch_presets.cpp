#include "models/network/switch_presets.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dcsim::models::network {

namespace {

// Figures not in ../shared/reference/public-figures.md, with their sources:
//  - Spectrum-4: 51.2 Tb/s, 64x800G, 128x400G or 256x200G ports (TechInsights, "Nvidia Reveals
//    51Tbps Ethernet Switch", 2022; convergedigest 2022-03: "up to 128 ports of 400G or 64 ports
//    of 800G"), S. SN5600 = Spectrum-4 in 2U, 64 OSFP 800G (NVIDIA SN5000 hardware manual), P.
//  - Tomahawk 5 (BCM78900): 51.2 Tb/s, 64x800G / 128x400G / 256x200G (Broadcom release,
//    convergedigest 2022-08-21; TechInsights "Tomahawk 5 Switches at 51.2Tbps"), S.
//  - A 64x800G Tomahawk 5 box draws 913 W typical without transceivers (UfiSpace S9321-64E
//    datasheet, as listed on ipinfusion.com/technology/tomahawk-5), B.
//  - Quantum-2 QM9700: 64 ports of 400 Gb/s NDR (128x200G split), 51.2 Tb/s bidirectional, about
//    330 ns port-to-port (yobitel.com knowledge base "NVIDIA Quantum-2"), S/B.
//  - Tomahawk 4: 25.6 Tb/s, 64x400G (Broadcom BCM56990 release, 2019), S. Tomahawk 3: 12.8 Tb/s,
//    32x400G (Broadcom BCM56980 release, 2017; Arista 7060X4 32x400G), S.
// ASSUMPTIONS (no public figure found):
//  - Power split: a third of the 913 W scales with the ports wired (SerDes, cages, their share of
//    fans), two thirds is base: 608.7 W + 4.76 W per 800G port. Spectrum-4 boxes take the same
//    figures (same capacity, process class and form factor); 25.6T and 12.8T boxes half and a
//    quarter of the base with the same per-lane share (per port at their native speed).
//  - Ethernet port-to-port latency 600 ns, inside the 250-850 ns range public-figures.md gives
//    ("switch latency ... 2012-era 250-850 ns port-to-port", ipspace, B); no current datasheet
//    states one.
constexpr double k51TBaseW = 913.0 * 2.0 / 3.0;
constexpr double k51TPer800gPortW = 913.0 / 3.0 / 64.0;
constexpr std::int64_t kEthernetLatencyNs = 600;
constexpr std::int64_t kQuantum2LatencyNs = 330;

std::vector<SwitchPreset> make_presets() {
  return {
      {"nvidia_sn5600", "NVIDIA Spectrum-4 SN5600, 51.2 Tb/s Ethernet, 64 OSFP 800G (2x400G breakout)", 51.2e12,
       {800e9, 400e9, 200e9}, kEthernetLatencyNs, k51TBaseW, k51TPer800gPortW, "switch_800g_64_port_usd",
       "TechInsights 2022, NVIDIA SN5000 manual; power: UfiSpace S9321-64E (same class), split assumed"},
      {"broadcom_tomahawk5", "Broadcom Tomahawk 5 (BCM78900) 64x800G box, 51.2 Tb/s Ethernet", 51.2e12,
       {800e9, 400e9, 200e9}, kEthernetLatencyNs, k51TBaseW, k51TPer800gPortW, "switch_800g_64_port_usd",
       "Broadcom 2022 release; power: UfiSpace S9321-64E datasheet (913 W typical), split assumed"},
      {"nvidia_qm9700", "NVIDIA Quantum-2 QM9700, 64 ports of 400 Gb/s NDR InfiniBand (128x200G split)", 25.6e12,
       {400e9, 200e9}, kQuantum2LatencyNs, k51TBaseW / 2, k51TPer800gPortW / 2, "switch_400g_64_port_usd",
       "NVIDIA QM9700 (yobitel knowledge base); power assumed"},
      {"broadcom_tomahawk4", "Broadcom Tomahawk 4 (BCM56990) 64x400G box, 25.6 Tb/s Ethernet", 25.6e12,
       {400e9, 200e9, 100e9}, kEthernetLatencyNs, k51TBaseW / 2, k51TPer800gPortW / 2, "switch_400g_64_port_usd",
       "Broadcom 2019 release; power assumed"},
      {"broadcom_tomahawk3", "Broadcom Tomahawk 3 (BCM56980) 32x400G box, 12.8 Tb/s Ethernet", 12.8e12,
       {400e9, 200e9, 100e9}, kEthernetLatencyNs, k51TBaseW / 4, k51TPer800gPortW / 2, "switch_400g_64_port_usd",
       "Broadcom 2017 release, Arista 7060X4; power assumed; priced per port from the 64-port 400G entry"},
  };
}

}  // namespace

int SwitchPreset::radix_at(double speed_bps) const {
  for (double s : port_speeds_bps) {
    if (std::abs(s - speed_bps) <= 1e-9 * s) return static_cast<int>(std::llround(capacity_bps / s));
  }
  return 0;
}

double SwitchPreset::power_w(std::int64_t ports_used, double speed_bps) const {
  const double native = port_speeds_bps.empty() ? speed_bps : port_speeds_bps.front();
  return power_base_w + power_per_port_w * static_cast<double>(ports_used) * speed_bps / native;
}

std::string SwitchPreset::breakouts() const {
  std::ostringstream out;
  for (std::size_t i = 0; i < port_speeds_bps.size(); ++i) {
    out << (i ? ", " : "") << radix_at(port_speeds_bps[i]) << "x" << port_speeds_bps[i] / 1e9 << "G";
  }
  return out.str();
}

const std::vector<SwitchPreset>& switch_presets() {
  static const std::vector<SwitchPreset> presets = make_presets();
  return presets;
}

const SwitchPreset* find_switch_preset(const std::string& name) {
  const auto& all = switch_presets();
  const auto it = std::find_if(all.begin(), all.end(), [&](const SwitchPreset& p) { return p.name == name; });
  return it == all.end() ? nullptr : &*it;
}

std::vector<std::string> switch_preset_names() {
  std::vector<std::string> names;
  for (const auto& p : switch_presets()) names.push_back(p.name);
  return names;
}

const SwitchPreset* largest_switch_preset_at(double speed_bps) {
  const SwitchPreset* best = nullptr;
  for (const SwitchPreset& p : switch_presets()) {
    if (p.radix_at(speed_bps) > (best ? best->radix_at(speed_bps) : 0)) best = &p;
  }
  return best;
}

void register_switch_presets(sim::Registry<SwitchPresetFactory>& registry) {
  for (const SwitchPreset& p : switch_presets()) {
    std::ostringstream d;
    d << p.description << "; ports " << p.breakouts() << ", " << p.latency_ns << " ns port-to-port, "
      << std::llround(p.power_w(p.radix_at(p.port_speeds_bps.front()), p.port_speeds_bps.front()))
      << " W with every port wired, priced as " << p.price_key << " (sources: " << p.source << ")";
    registry.add({p.name, d.str(), {}, [p] { return p; }});
  }
}

}  // namespace dcsim::models::network
