#pragma once
// Network switch power: a fixed part (switch ASIC core, control CPU, fans, PSU losses) plus a
// part per active (cabled) port that scales with the port's speed (the ASIC's SerDes lanes and
// the pluggable optic in the cage):
//
//   P_switch = P_base + sum over active ports of P_port,400G * speed / 400 Gb/s
//
// Figures. Per active 400G port: 8 W typical (9 W max) for a 400G OSFP optic (NVIDIA
// MMA4Z00-NS400 / MMS4X00-NS400 product specifications, docs.nvidia.com/networking) plus ~3 W of
// SerDes and port logic (estimate: 8 x 100G PAM4 lanes at a few hundred mW each) = 11 W. Base:
// 400 W (estimate: a 51.2 Tb/s 1U switch such as a 64 x 400G Quantum-2 or Spectrum-4 box ships
// with PSUs sized well above 800 W, so a fully cabled one at 400 + 64 x 11 = 1.1 kW sits inside
// that envelope; no vendor typical-power figure is in the reference). Passive copper (DAC)
// ports draw almost nothing in the cable, so a DAC-cabled rack switch is over-estimated by the
// optic's share.
//
// Ports are counted active when cabled; a port does not idle down with traffic (switch SerDes
// and optics draw nearly constant power), so the network is a constant IT load.

#include "models/network/topology.hpp"

namespace dcsim::models::power {

struct SwitchPowerConfig {
  double base_w = 400.0;          // estimate, see above
  double port_400g_w = 11.0;      // optic 8 W typical (NVIDIA OSFP spec) + SerDes ~3 W (estimate)
  double reference_speed_bps = 400e9;
};

// One switch with `active_ports` ports at `port_speed_bps`.
double switch_power_w(const SwitchPowerConfig& config, int active_ports, double port_speed_bps);

struct NetworkPower {
  int switches = 0;
  int active_ports = 0;
  double power_w = 0.0;
};

// Every switch of a fabric: its cabled ports at their link speeds (bundled cables count each).
NetworkPower fabric_switch_power(const SwitchPowerConfig& config, const network::Topology& topology);

}  // namespace dcsim::models::power
