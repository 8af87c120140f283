#pragma once
// Bill of materials of a fabric: what the economics model prices. A pure function of the
// Topology (no simulation), plus a helper that emits it through sim::TraceSink.
//
// What is counted, and how:
//  - switches, grouped by (tier, radix): count, ports wired (cables attached) and ports the model
//    has (radix). A bundled link of n cables uses n ports at each end.
//  - cables, grouped by (per-cable speed, media class, tier): one cable per physical cable, i.e.
//    per full-duplex pair of directed links times LinkInfo::cables. Media class from the length:
//    "DAC" (passive copper, <= dac_max_m), "AOC" (active optical cable, <= aoc_max_m), "optics"
//    (two pluggable transceivers plus fibre, beyond). Transceivers are counted separately
//    (two per "optics" cable; DAC and AOC have their ends built in).
//  - transceivers, grouped by speed and reach class (two per "optics" cable): "SR" multimode to
//    sr_max_m, "DR" single-mode to dr_max_m, "FR" to fr_max_m, "LR" beyond (IEEE 802.3 names).
//  - switches built from a preset (switch_presets.hpp) carry its name, price key and power:
//    base + per port for the bandwidth wired (SwitchPreset::power_w).
//  - NIC ports, grouped by speed: cable ends at hosts (links_per_node x nics_per_node per host in
//    a switched fabric; every neighbour port in a direct topology).
// Complexity O(nodes + links log groups). Units: bits/s, metres.

#include <cstdint>
#include <string>
#include <vector>

#include "models/network/topology.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::network {

struct BomOptions {
  // Typical reach at 100-400 Gb/s: passive DAC to ~3 m, AOC to ~30 m (vendor data sheets, B).
  double dac_max_m = 3.0;
  double aoc_max_m = 30.0;
  // Optical reach classes (IEEE 802.3bs/cm/cu: 400GBASE-SR8 100 m multimode, -DR4 500 m, -FR4
  // 2 km single-mode; P).
  double sr_max_m = 100.0;
  double dr_max_m = 500.0;
  double fr_max_m = 2000.0;
};

struct SwitchBomLine {
  int tier = 0;
  int radix = 0;
  std::string model;      // preset name ("" when the fabric names none)
  std::string price_key;  // the preset's economics price key ("" none)
  double power_w = 0.0;   // all switches of the line (0 without a preset)
  std::int64_t count = 0;
  std::int64_t ports_used = 0;   // over all switches of the line
  std::int64_t ports_total = 0;  // count x radix
};

struct CableBomLine {
  double speed_bps = 0.0;  // per cable
  std::string media;       // "DAC", "AOC" or "optics"
  int tier = 0;            // link tier (0: host links)
  std::int64_t count = 0;
  double total_length_m = 0.0;
};

struct TransceiverBomLine {
  double speed_bps = 0.0;
  std::string reach;  // "SR", "DR", "FR" or "LR"
  std::int64_t count = 0;
};

struct NicBomLine {
  double speed_bps = 0.0;  // per port
  std::int64_t ports = 0;
};

struct BillOfMaterials {
  std::vector<SwitchBomLine> switches;  // sorted by tier, then model, then radix
  std::vector<CableBomLine> cables;     // sorted by tier, speed, media
  std::vector<TransceiverBomLine> transceivers;  // sorted by speed, reach
  std::vector<NicBomLine> nics;         // sorted by speed
  std::int64_t hosts = 0;
  std::int64_t switch_count = 0;
  std::int64_t switch_ports_used = 0;
  std::int64_t switch_ports_total = 0;
  std::int64_t cable_count = 0;
  std::int64_t transceiver_count = 0;  // pluggable optics: two per "optics" cable
  std::int64_t nic_ports = 0;
  double cable_length_m = 0.0;
  double switch_power_w = 0.0;  // switches with a preset
};

BillOfMaterials bill_of_materials(const Topology& topology, const BomOptions& options = {});

// Emits table "<prefix>/bom" (one row per line: item "switch" | "cable" | "nic_port", tier,
// radix, speed_bps, media, count, ports_used, ports_total, length_m) and summary scalars
// <prefix>/hosts, /switches, /switch_ports_used, /switch_ports_total, /cables, /transceivers,
// /nic_ports, /cable_length_m.
void emit_bill_of_materials(const BillOfMaterials& bom, sim::TraceSink& sink, const std::string& prefix = "network");

}  // namespace dcsim::models::network
