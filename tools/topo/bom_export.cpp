#include "tools/topo/bom_export.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <ostream>

#include <fmt/format.h>

#include "tools/report/headline.hpp"

namespace dcsim::tools::topo {

namespace net = models::network;
namespace econ = models::economics;

namespace {

std::string gbps(double bps) { return fmt::format("{:g} Gb/s", bps / 1e9); }

}  // namespace

void write_bom_table(const net::BillOfMaterials& bom, std::ostream& out) {
  // Fixed-width columns: the table is read by eye, and diffed between two topologies.
  const auto row = [&](const std::string& item, const std::string& tier, const std::string& radix,
                       const std::string& speed, const std::string& media, std::int64_t count,
                       const std::string& ports, const std::string& length) {
    out << fmt::format("{:<11} {:>4} {:>5} {:>10} {:<18} {:>7} {:>13} {:>10}\n", item, tier, radix, speed, media,
                       count, ports, length);
  };
  out << fmt::format("{:<11} {:>4} {:>5} {:>10} {:<18} {:>7} {:>13} {:>10}\n", "item", "tier", "radix", "speed",
                     "media", "count", "ports used", "length/W");
  for (const auto& s : bom.switches) {
    row("switch", std::to_string(s.tier), std::to_string(s.radix), "-", s.model.empty() ? "-" : s.model, s.count,
        fmt::format("{}/{}", s.ports_used, s.ports_total), s.power_w > 0 ? fmt::format("{:.0f} W", s.power_w) : "-");
  }
  for (const auto& c : bom.cables) {
    row("cable", std::to_string(c.tier), "-", gbps(c.speed_bps), c.media, c.count, "-",
        fmt::format("{:g} m", c.total_length_m));
  }
  for (const auto& x : bom.transceivers) row("optic", "-", "-", gbps(x.speed_bps), x.reach, x.count, "-", "-");
  for (const auto& n : bom.nics) row("nic_port", "-", "-", gbps(n.speed_bps), "-", n.ports, "-", "-");
  out << fmt::format(
      "total: {} hosts, {} switches ({}/{} ports used), {} cables ({:g} m), {} transceivers, {} NIC ports\n",
      bom.hosts, bom.switch_count, bom.switch_ports_used, bom.switch_ports_total, bom.cable_count, bom.cable_length_m,
      bom.transceiver_count, bom.nic_ports);
  if (bom.switch_power_w > 0) out << fmt::format("switch power: {:.1f} kW (presets' base + per port wired)\n", bom.switch_power_w / 1e3);
}

nlohmann::json bom_json(const net::BillOfMaterials& bom) {
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& s : bom.switches) {
    lines.push_back({{"item", "switch"}, {"tier", s.tier}, {"radix", s.radix}, {"speed_bps", 0.0}, {"media", ""},
                     {"count", s.count}, {"ports_used", s.ports_used}, {"ports_total", s.ports_total},
                     {"length_m", 0.0}, {"model", s.model}, {"price_key", s.price_key}, {"power_w", s.power_w}});
  }
  for (const auto& c : bom.cables) {
    lines.push_back({{"item", "cable"}, {"tier", c.tier}, {"radix", 0}, {"speed_bps", c.speed_bps},
                     {"media", c.media}, {"count", c.count}, {"ports_used", 0}, {"ports_total", 0},
                     {"length_m", c.total_length_m}});
  }
  for (const auto& x : bom.transceivers) {
    lines.push_back({{"item", "transceiver"}, {"tier", -1}, {"radix", 0}, {"speed_bps", x.speed_bps},
                     {"media", x.reach}, {"count", x.count}, {"ports_used", 0}, {"ports_total", 0},
                     {"length_m", 0.0}});
  }
  for (const auto& n : bom.nics) {
    lines.push_back({{"item", "nic_port"}, {"tier", -1}, {"radix", 0}, {"speed_bps", n.speed_bps}, {"media", ""},
                     {"count", n.ports}, {"ports_used", 0}, {"ports_total", 0}, {"length_m", 0.0}});
  }
  return {{"hosts", bom.hosts},
          {"switches", bom.switch_count},
          {"switch_ports_used", bom.switch_ports_used},
          {"switch_ports_total", bom.switch_ports_total},
          {"cables", bom.cable_count},
          {"transceivers", bom.transceiver_count},
          {"nic_ports", bom.nic_ports},
          {"cable_length_m", bom.cable_length_m},
          {"switch_power_w", bom.switch_power_w},
          {"lines", std::move(lines)}};
}

namespace {

std::string categories_text(const econ::Capex& c, std::initializer_list<econ::CapexCategory> which) {
  std::string out;
  for (const econ::CapexCategory category : which) {
    if (c.category_usd(category) == 0.0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", econ::capex_category_label(category),
                       report::usd_text(c.category_usd(category)));
  }
  return out;
}

std::string quantity_text(double q) {
  return q == std::floor(q) ? report::grouped(q, 0) : report::grouped(q, 2);
}

}  // namespace

void write_price_table(const econ::Capex& network, const econ::Capex& site, const std::string& price_preset,
                       std::ostream& out) {
  out << fmt::format("\nprices (fabric prices '{}'):\n", price_preset);
  out << fmt::format("{:<44} {:>12} {:<7} {:>12} {:>14}\n", "item", "quantity", "unit", "USD each", "USD");
  for (const econ::CapexLine& line : network.lines) {
    out << fmt::format("{:<44} {:>12} {:<7} {:>12} {:>14}\n", line.item, quantity_text(line.quantity), line.unit,
                       quantity_text(line.usd_each), report::grouped(line.usd, 0));
  }
  using C = econ::CapexCategory;
  out << fmt::format("network: {} ({})\n", report::usd_text(network.total_usd),
                     categories_text(network, {C::kSwitches, C::kCablesOptics, C::kNics}));
  out << fmt::format("site capex: {} ({}; every network, as `run` prices it in cost/capex/*)\n",
                     report::usd_text(site.total_usd),
                     categories_text(site, {C::kServers, C::kSwitches, C::kCablesOptics, C::kNics, C::kCooling,
                                            C::kPower, C::kBuilding, C::kSpares}));
}

nlohmann::json price_json(const econ::Capex& network, const econ::Capex& site, const std::string& price_preset) {
  nlohmann::json lines = nlohmann::json::array();
  for (const econ::CapexLine& line : network.lines) {
    lines.push_back({{"category", econ::capex_category_name(line.category)},
                     {"item", line.item},
                     {"quantity", line.quantity},
                     {"unit", line.unit},
                     {"usd_each", line.usd_each},
                     {"usd", line.usd}});
  }
  using C = econ::CapexCategory;
  nlohmann::json prices = {{"preset", price_preset},
                           {"lines", std::move(lines)},
                           {"switches_usd", network.category_usd(C::kSwitches)},
                           {"cables_optics_usd", network.category_usd(C::kCablesOptics)},
                           {"nics_usd", network.category_usd(C::kNics)},
                           {"total_usd", network.total_usd}};
  nlohmann::json capex = nlohmann::json::object();
  for (std::size_t i = 0; i < econ::kCapexCategories; ++i) {
    capex[std::string(econ::capex_category_name(static_cast<C>(i))) + "_usd"] = site.by_category[i];
  }
  capex["total_usd"] = site.total_usd;
  return {{"prices", std::move(prices)}, {"capex", std::move(capex)}};
}

}  // namespace dcsim::tools::topo
