#include "models/network/bill_of_materials.hpp"

#include <map>
#include <tuple>

#include "sim/error.hpp"

namespace dcsim::models::network {

BillOfMaterials bill_of_materials(const Topology& t, const BomOptions& o) {
  if (!(o.dac_max_m >= 0) || !(o.aoc_max_m >= o.dac_max_m)) {
    throw sim::ConfigError("bom", "need 0 <= dac_max_m <= aoc_max_m");
  }
  BillOfMaterials bom;
  bom.hosts = static_cast<std::int64_t>(t.host_count());
  // Ordered maps: the lines come out in a deterministic, documented order.
  std::map<std::pair<int, int>, SwitchBomLine> sw;
  for (NodeId n = 0; n < t.node_count(); ++n) {
    const NodeInfo& info = t.node(n);
    if (info.kind != NodeKind::kSwitch) continue;
    SwitchBomLine& line = sw[{info.tier, info.radix}];
    line.tier = info.tier;
    line.radix = info.radix;
    ++line.count;
    line.ports_used += info.ports;
    line.ports_total += info.radix;
  }
  for (auto& [key, line] : sw) {
    bom.switch_count += line.count;
    bom.switch_ports_used += line.ports_used;
    bom.switch_ports_total += line.ports_total;
    bom.switches.push_back(line);
  }

  auto media = [&](double m) -> int { return m <= o.dac_max_m ? 0 : m <= o.aoc_max_m ? 1 : 2; };
  static const char* const kMedia[] = {"DAC", "AOC", "optics"};
  std::map<std::tuple<int, double, int>, CableBomLine> cables;
  std::map<double, NicBomLine> nics;
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
  }
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
  put("switches", bom.switch_count, "", "switches in the fabric");
  put("switch_ports_used", bom.switch_ports_used, "", "switch ports wired");
  put("switch_ports_total", bom.switch_ports_total, "", "switch ports available (sum of radices)");
  put("cables", bom.cable_count, "", "physical cables (DAC, AOC and optical)");
  put("transceivers", bom.transceiver_count, "", "pluggable optical transceivers (two per optical cable)");
  put("nic_ports", bom.nic_ports, "", "host NIC ports wired");
  put("cable_length_m", bom.cable_length_m, "m", "total cable length");
}

}  // namespace dcsim::models::network
