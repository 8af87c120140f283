#include "models/network/bill_of_materials.hpp"

#include <map>
#include <tuple>

#include "models/network/switch_presets.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

BillOfMaterials bill_of_materials(const Topology& t, const BomOptions& o) {
  if (!(o.dac_max_m >= 0) || !(o.aoc_max_m >= o.dac_max_m)) {
    throw sim::ConfigError("bom", "need 0 <= dac_max_m <= aoc_max_m");
  }
  if (!(o.sr_max_m <= o.dr_max_m) || !(o.dr_max_m <= o.fr_max_m)) {
    throw sim::ConfigError("bom", "need sr_max_m <= dr_max_m <= fr_max_m");
  }
  BillOfMaterials bom;
  bom.hosts = static_cast<std::int64_t>(t.host_count());
  // Ordered maps: the lines come out in a deterministic, documented order.
  std::vector<double> wired_bps(t.node_count(), 0.0);  // per switch, for the preset's power
  for (const LinkInfo& link : t.links())
    if (t.node(link.src).kind == NodeKind::kSwitch) wired_bps[link.src] += link.bandwidth_bps;
  std::map<std::tuple<int, std::string, int>, SwitchBomLine> sw;
  for (NodeId n = 0; n < t.node_count(); ++n) {
    const NodeInfo& info = t.node(n);
    if (info.kind != NodeKind::kSwitch) continue;
    SwitchBomLine& line = sw[{info.tier, t.switch_model(n), info.radix}];
    line.tier = info.tier;
    line.radix = info.radix;
    line.model = t.switch_model(n);
    ++line.count;
    line.ports_used += info.ports;
    line.ports_total += info.radix;
    if (const SwitchPreset* preset = find_switch_preset(line.model)) {
      line.price_key = preset->price_key;
      const double native = preset->port_speeds_bps.front();
      line.power_w += preset->power_base_w + preset->power_per_port_w * wired_bps[n] / native;
    }
  }
  for (auto& [key, line] : sw) {
    bom.switch_count += line.count;
    bom.switch_ports_used += line.ports_used;
    bom.switch_ports_total += line.ports_total;
    bom.switch_power_w += line.power_w;
    bom.switches.push_back(line);
  }

  auto media = [&](double m) -> int { return m <= o.dac_max_m ? 0 : m <= o.aoc_max_m ? 1 : 2; };
  static const char* const kMedia[] = {"DAC", "AOC", "optics"};
  std::map<std::tuple<int, double, int>, CableBomLine> cables;
  std::map<double, NicBomLine> nics;
  static const char* const kReach[] = {"SR", "DR", "FR", "LR"};
  auto reach = [&](double m) -> int { return m <= o.sr_max_m ? 0 : m <= o.dr_max_m ? 1 : m <= o.fr_max_m ? 2 : 3; };
  std::map<std::pair<double, int>, TransceiverBomLine> optics;
  for (LinkId l = 0; l < t.link_count(); ++l) {
    const LinkInfo& link = t.link(l);
    const double per_cable = link.bandwidth_bps / link.cables;
    // Each directed link leaving a host is that host's end of link.cables cables.
    if (t.node(link.src).kind == NodeKind::kHost) {
      NicBomLine& nic = nics[per_cable];
      nic.speed_bps = per_cable;
      nic.ports += link.cables;
    }
    if (link.reverse < l) continue;  // one cable (bundle) per direction pair
    const int m = media(link.cable_m);
    CableBomLine& line = cables[{link.tier, per_cable, m}];
    line.tier = link.tier;
    line.speed_bps = per_cable;
    line.media = kMedia[m];
    line.count += link.cables;
    line.total_length_m += link.cable_m * link.cables;
    if (m == 2) {
      const int r = reach(link.cable_m);
      TransceiverBomLine& x = optics[{per_cable, r}];
      x.speed_bps = per_cable;
      x.reach = kReach[r];
      x.count += 2 * link.cables;
    }
  }
  for (auto& [key, line] : optics) bom.transceivers.push_back(line);
  for (auto& [key, line] : cables) {
    bom.cable_count += line.count;
    bom.cable_length_m += line.total_length_m;
    if (line.media == "optics") bom.transceiver_count += 2 * line.count;
    bom.cables.push_back(line);
  }
  for (auto& [speed, line] : nics) {
    bom.nic_ports += line.ports;
    bom.nics.push_back(line);
  }
  return bom;
}

void emit_bill_of_materials(const BillOfMaterials& bom, sim::TraceSink& sink, const std::string& prefix) {
  using sim::ColumnType;
  const sim::TableId table = sink.declare_table(
      prefix + "/bom",
      {{"item", ColumnType::kString, "", "switch, cable or nic_port"},
       {"tier", ColumnType::kInt64, "", "switch tier, or link tier of a cable (0: host links); -1 for NIC ports"},
       {"radix", ColumnType::kInt64, "", "switch ports (0 for cables and NIC ports)"},
       {"speed_bps", ColumnType::kFloat64, "bit/s", "per cable or NIC port (0 for switches)"},
       {"media", ColumnType::kString, "", "DAC, AOC or optics (cables only)"},
       {"count", ColumnType::kInt64, "", "switches, cables or NIC ports"},
       {"ports_used", ColumnType::kInt64, "", "switch ports wired (switches only)"},
       {"ports_total", ColumnType::kInt64, "", "switch ports available (switches only)"},
       {"length_m", ColumnType::kFloat64, "m", "total cable length (cables only)"}});
  for (const auto& s : bom.switches) {
    sink.append_row(table, {std::string("switch"), std::int64_t{s.tier}, std::int64_t{s.radix}, 0.0, std::string(),
                            s.count, s.ports_used, s.ports_total, 0.0});
  }
  for (const auto& c : bom.cables) {
    sink.append_row(table, {std::string("cable"), std::int64_t{c.tier}, std::int64_t{0}, c.speed_bps, c.media, c.count,
                            std::int64_t{0}, std::int64_t{0}, c.total_length_m});
  }
  for (const auto& n : bom.nics) {
    sink.append_row(table, {std::string("nic_port"), std::int64_t{-1}, std::int64_t{0}, n.speed_bps, std::string(),
                            n.ports, std::int64_t{0}, std::int64_t{0}, 0.0});
  }
  auto put = [&](const std::string& k, auto v, const std::string& unit, const std::string& d) {
    sink.set_summary(prefix + "/" + k, sim::SummaryValue{v, unit, d});
  };
  put("hosts", bom.hosts, "", "hosts the fabric is built for (cluster nodes use the first)");
  put("switches", bom.switch_count, "", "switches in the fabric");
  put("switch_ports_used", bom.switch_ports_used, "", "switch ports wired");
  put("switch_ports_total", bom.switch_ports_total, "", "switch ports available (sum of radices)");
  put("cables", bom.cable_count, "", "physical cables (DAC, AOC and optical)");
  put("transceivers", bom.transceiver_count, "", "pluggable optical transceivers (two per optical cable)");
  put("nic_ports", bom.nic_ports, "", "host NIC ports wired");
  put("cable_length_m", bom.cable_length_m, "m", "total cable length");
}

}  // namespace dcsim::models::network
