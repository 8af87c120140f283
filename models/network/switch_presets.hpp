#pragma once
// Switch presets: real switch parts a fabric is built from, registered by name, so a scenario
// says `"switch": "nvidia_sn5600"` instead of inventing a radix. A preset gives the switching
// capacity and the port speeds it can be broken out to (radix at a speed = capacity / speed),
// the port-to-port latency, the power (base + per port wired) and the economics price key (a
// fabric_prices field name, models/economics/fabric_prices.hpp).
//
// The figures and their sources are beside each entry in switch_presets.cpp; grades as in
// ../shared/reference/public-figures.md (P primary datasheet, S secondary, B blog/vendor note,
// ASSUMPTION where no public figure was found).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/registry.hpp"

namespace dcsim::models::network {

struct SwitchPreset {
  std::string name;         // registry key, e.g. "nvidia_sn5600"
  std::string description;  // "NVIDIA Spectrum-4 SN5600, 51.2 Tb/s Ethernet, 64x800G OSFP"
  double capacity_bps = 0;  // one direction, all ports together
  // Port speeds the faceplate can be configured to (breakout): 800G x 64, 400G x 128, ...
  std::vector<double> port_speeds_bps;
  std::int64_t latency_ns = 0;   // port-to-port
  double power_base_w = 0;       // chassis, fans, ASIC idle
  double power_per_port_w = 0;   // per port wired at the preset's native speed (SerDes, cage)
  std::string price_key;         // economics price field of one switch, e.g. "switch_800g_64_port_usd"
  std::string source;            // where the figures come from

  // Ports at `speed_bps`, or 0 when the preset cannot run its ports at that speed.
  int radix_at(double speed_bps) const;
  // Power with `ports_used` ports wired at `speed_bps`: base + per_port x the native ports they
  // take (two 400G ports share one 800G port's SerDes).
  double power_w(std::int64_t ports_used, double speed_bps) const;
  // "64x800G, 128x400G, 256x200G"
  std::string breakouts() const;
};

// Every preset, in registration (documentation) order.
const std::vector<SwitchPreset>& switch_presets();
// The preset called `name`, or nullptr.
const SwitchPreset* find_switch_preset(const std::string& name);
std::vector<std::string> switch_preset_names();
// The largest port count any preset offers at `speed_bps`, and the preset (nullptr when none
// offers that speed).
const SwitchPreset* largest_switch_preset_at(double speed_bps);

// The presets as a registry kind ("switch preset") for `dcsim list` and the registry contract
// tests: each entry's description holds its breakouts, latency, power, price key and sources.
// The builders look presets up by name in switch_presets() (the same list).
using SwitchPresetFactory = std::function<SwitchPreset()>;
void register_switch_presets(sim::Registry<SwitchPresetFactory>& registry);

}  // namespace dcsim::models::network
