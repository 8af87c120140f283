// Capex: servers, the fabric's bill of materials priced item by item, facility gear per kW, spares.

#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include "economics_test_support.hpp"
#include "models/economics/capex.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models::economics;
namespace net = dcsim::models::network;
using dcsim::test::config_error_field;

namespace {

constexpr double kUsdTol = 1e-12;

// Round prices, so the expected sums can be written by hand.
FabricPrices round_fabric_prices() {
  FabricPrices p;
  p.name = "test";
  p.switches = {{100e9, 4, 1'000.0}};
  p.links = {{100e9, 50.0, 200.0, 100.0, 300.0}};  // DAC, AOC, transceiver, NIC port
  p.fibre_usd_per_m = 1.0;
  return p;
}

CapexConfig fat_tree_capex(double switch_cable_m) {
  net::TopologyConfig t;
  t.k = 4;  // 16 hosts, 20 radix-4 switches; 100 Gb/s links, host cables 2 m
  t.switch_cable_m = switch_cable_m;
  CapexConfig c;
  c.nodes = 16;
  c.node_price = {"n", "", "", 100'000.0, {}, true};
  c.fabric = net::bill_of_materials(net::build_fat_tree(t));
  c.fabric_prices = round_fabric_prices();
  c.spares_fraction = 0.0;
  return c;
}

}  // namespace

TEST_CASE("a k=4 fat-tree's bill of materials priced item by item", "[models][economics][capex]") {
  // 20 switches x $1,000 + 16 host DAC x $50 + 32 switch-to-switch AOC (20 m) x $200
  // = 20,000 + 800 + 6,400 = $27,200. NICs are in the node price.
  const Capex c = capex(fat_tree_capex(20.0));
  CHECK(c.fabric_usd == Approx(27'200.0).epsilon(kUsdTol));
  CHECK(c.servers_usd == Approx(1.6e6).epsilon(kUsdTol));
  CHECK(c.total_usd == Approx(1.6e6 + 27'200.0).epsilon(kUsdTol));
}

TEST_CASE("a front-end network is priced beside the backend in lines of its own", "[models][economics][capex]") {
  // Front-end: one leaf of 4 hosts at 100 Gb/s, non-blocking: 4 uplinks to 4 spines of 1 port.
  // Switches are priced per port from the radix-4 entry: the 8-port leaf $2,000, each spine
  // $250. Leaf $2,000 + 4 x $250 + 4 host DAC x $50 + 4 AOC (20 m) x $200
  // = 2,000 + 1,000 + 200 + 800 = $4,000, on top of the backend's $27,200.
  CapexConfig config = fat_tree_capex(20.0);
  net::TopologyConfig f;
  f.leaves = 1;
  f.hosts_per_leaf = 4;
  config.frontend = net::bill_of_materials(net::build_leaf_spine(f));
  const Capex c = capex(config);
  CHECK(c.fabric_usd == Approx(27'200.0 + 4'000.0).epsilon(kUsdTol));
  int frontend_lines = 0;
  for (const CapexLine& line : c.lines) {
    if (line.item.rfind("frontend ", 0) == 0) ++frontend_lines;
  }
  CHECK(frontend_lines == 4);  // two switch tiers, host and spine cables
}

TEST_CASE("a switch built from a preset is priced as the box its price key names", "[models][economics][capex]") {
  // Two SN5600 leaves cabled at 400G (128 ports each) and 16 host DACs at 400G. By speed and
  // radix they would be the 64-port 400G entry scaled per port ($43,000 x 2); the preset's key
  // prices the box as sold, a 64-port 800G switch: $120,000 each (public-figures.md, Sesterce).
  CapexConfig config = fat_tree_capex(20.0);
  net::BillOfMaterials bom;
  bom.switches.push_back({1, 128, "nvidia_sn5600", "switch_800g_64_port_usd", 0.0, 2, 16, 256});
  bom.cables.push_back({400e9, "DAC", 0, 16, 32.0});
  config.fabric = bom;
  config.fabric_prices = ethernet_fabric_prices();
  const Capex c = capex(config);
  const double dac_400g = config.fabric_prices.links[2].dac_usd;
  CHECK(c.fabric_usd == Approx(2 * 120'000.0 + 16 * dac_400g).epsilon(kUsdTol));
  const auto switch_line = std::find_if(c.lines.begin(), c.lines.end(),
                                        [](const CapexLine& l) { return l.item.rfind("switch ", 0) == 0; });
  REQUIRE(switch_line != c.lines.end());
  CHECK(switch_line->item == "switch nvidia_sn5600 (128-port 400G) tier 1");
  CHECK(switch_line->usd_each == 120'000.0);
  // A key the prices do not carry is an error naming it, not a silent per-port guess.
  bom.switches.front().price_key = "switch_1600g_64_port_usd";
  config.fabric = bom;
  CHECK(config_error_field([&] { (void)capex(config); }) == "fabric_prices.switch_1600g_64_port_usd");
}

TEST_CASE("optical links cost two transceivers and their fibre; NICs are priced when the node price leaves them out",
          "[models][economics][capex]") {
  CapexConfig config = fat_tree_capex(50.0);  // beyond AOC reach: 32 optical links
  config.node_price.includes_nics = false;
  const Capex c = capex(config);
  // 20,000 switches + 800 DAC + 64 transceivers x $100 + 32 x 50 m of fibre x $1 + 16 NIC ports x $300
  // = 20,000 + 800 + 6,400 + 1,600 + 4,800 = $33,600.
  CHECK(c.fabric_usd == Approx(33'600.0).epsilon(kUsdTol));
}

TEST_CASE("a switch price of another radix scales per port", "[models][economics][capex]") {
  FabricPrices p = round_fabric_prices();
  p.switches = {{100e9, 64, 6'400.0}};  // $100 a port
  CHECK(switch_usd(p, 100e9, 4, "") == Approx(400.0).epsilon(kUsdTol));
  CHECK(switch_usd(p, 100e9, 64, "") == 6'400.0);
  CHECK(config_error_field([&] { switch_usd(p, 400e9, 64, "fabric_prices."); }) == "fabric_prices.switches");
}

TEST_CASE("facility gear is priced per kW it serves, spares on servers and fabric", "[models][economics][capex]") {
  CapexConfig c;
  c.nodes = 2;
  c.node_price = {"n", "", "", 100'000.0, {{"gpu", 8, 10'000.0}}, true};  // $100k + 8 x $10k = $180k a node
  c.site_prices = us_site_prices();
  // 20 kW of IT, 80% to cold plates: cold plates and CDUs for 16 kW, rear doors for 4 kW, PDUs for
  // 20 kW, in a colocation hall (no building).
  c.gear = facility_gear(SiteKind::kColocation, 20.0, 0.8, true);
  c.spares_fraction = 0.05;
  const Capex x = capex(c);
  const SitePrices& p = c.site_prices;
  CHECK(x.servers_usd == Approx(360'000.0).epsilon(kUsdTol));
  CHECK(x.facility_usd == Approx(16 * (p.cold_plate_usd_per_kw + p.cdu_usd_per_kw) + 4 * p.rear_door_usd_per_kw +
                                 20 * p.pdu_usd_per_kw)
                              .epsilon(kUsdTol));
  CHECK(x.spares_usd == Approx(0.05 * 360'000.0).epsilon(kUsdTol));  // no fabric here
  CHECK(x.total_usd == Approx(x.servers_usd + x.facility_usd + x.spares_usd).epsilon(kUsdTol));
  // An own building adds the hall at its per-kW price.
  CHECK(facility_gear(SiteKind::kOwnBuilding, 20.0, 0.8, true).building_kw == 20.0);
}

TEST_CASE("capex inputs that make no sense name the field", "[models][economics][capex][validation]") {
  CapexConfig c = fat_tree_capex(20.0);
  c.node_price.usd_per_node = -1.0;
  CHECK(config_error_field([&] { capex(c); }) == "node_price.usd_per_node");
  c = fat_tree_capex(20.0);
  c.site_prices = us_site_prices();
  c.site_prices.ups_usd_per_kw = -175.0;
  CHECK(config_error_field([&] { capex(c); }) == "site_prices.ups_usd_per_kw");
  c = fat_tree_capex(20.0);
  c.fabric_prices.links.clear();  // the BOM's 100G cables have no price
  CHECK(config_error_field([&] { capex(c); }) == "fabric_prices.links");
  c = fat_tree_capex(20.0);
  c.gear.cdu_kw = -1.0;
  CHECK(config_error_field([&] { capex(c); }) == "gear.cdu_kw");
}

TEST_CASE("capex by category: each by hand, and they sum to the total exactly", "[models][economics][capex]") {
  // A k=4 fat-tree beyond AOC reach (optical links, NICs priced apart), 16 nodes at $100k, an own
  // building of 100 kW with UPS, 80% D2C and rear doors; round per-kW prices.
  CapexConfig c = fat_tree_capex(50.0);
  c.node_price.includes_nics = false;
  c.site_prices = us_site_prices();
  c.site_prices.cold_plate_usd_per_kw = 100.0;
  c.site_prices.cdu_usd_per_kw = 50.0;
  c.site_prices.rear_door_usd_per_kw = 20.0;
  c.site_prices.ups_usd_per_kw = 30.0;
  c.site_prices.pdu_usd_per_kw = 10.0;
  c.site_prices.building_usd_per_kw = 1'000.0;
  c.gear = facility_gear(SiteKind::kOwnBuilding, 100.0, 0.8, true);  // 80 kW liquid, 20 kW doors
  c.gear.ups_kw = 100.0;
  c.spares_fraction = 0.05;
  const Capex x = capex(c);
  using C = CapexCategory;
  // servers   16 x $100,000                                           = 1,600,000
  // switches  20 x $1,000                                             =    20,000
  // cables    16 host DAC x $50 + 64 transceivers x $100 + 1,600 m x $1 =   8,800
  // NICs      16 ports x $300                                         =     4,800
  // cooling   80 kW x ($100 + $50) + 20 kW x $20                      =    12,400
  // power     100 kW x $30 (UPS) + 100 kW x $10 (PDU)                 =     4,000
  // building  100 kW x $1,000                                         =   100,000
  // spares    5% x (1,600,000 + 20,000 + 8,800 + 4,800)               =    81,680
  CHECK(x.category_usd(C::kServers) == 1'600'000.0);
  CHECK(x.category_usd(C::kSwitches) == 20'000.0);
  CHECK(x.category_usd(C::kCablesOptics) == 8'800.0);
  CHECK(x.category_usd(C::kNics) == 4'800.0);
  CHECK(x.category_usd(C::kCooling) == 12'400.0);
  CHECK(x.category_usd(C::kPower) == 4'000.0);
  CHECK(x.category_usd(C::kBuilding) == 100'000.0);
  CHECK(x.category_usd(C::kSpares) == Approx(81'680.0).epsilon(kUsdTol));
  double sum = 0.0;
  for (const double usd : x.by_category) sum += usd;
  CHECK(sum == x.total_usd);  // exactly: the total is this sum
  CHECK(x.total_usd == Approx(1'831'680.0).epsilon(kUsdTol));
  // Every line is in one category, and the lines of a category add up to it.
  for (std::size_t i = 0; i < kCapexCategories; ++i) {
    double lines = 0.0;
    for (const CapexLine& line : x.lines) {
      if (static_cast<std::size_t>(line.category) == i) lines += line.usd;
    }
    INFO(capex_category_name(static_cast<C>(i)));
    CHECK(lines == Approx(x.by_category[i]).epsilon(kUsdTol));
  }
  CHECK(std::string(capex_category_name(C::kCablesOptics)) == "cables_optics");
}
