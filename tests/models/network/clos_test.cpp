// Radix-bound fabrics (clos.hpp, switch_presets.hpp): switch and cable counts against their
// formulas, no switch beyond its radix, bisection bandwidth, routes against a plain BFS, and the
// errors for requests the switches cannot build.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <vector>

#include "models/network/bill_of_materials.hpp"
#include "models/network/bisection.hpp"
#include "models/network/clos.hpp"
#include "models/network/routing.hpp"
#include "models/network/switch_presets.hpp"
#include "models/network/topology_builders.hpp"
#include "models/network/topology_size.hpp"
#include "sim/error.hpp"

namespace net = dcsim::models::network;
using dcsim::sim::ConfigError;

namespace {

std::map<int, int> switches_per_tier(const net::Topology& t) {
  std::map<int, int> out;
  for (net::NodeId n = static_cast<net::NodeId>(t.host_count()); n < t.node_count(); ++n) ++out[t.node(n).tier];
  return out;
}

std::int64_t cables(const net::Topology& t) {
  std::int64_t n = 0;
  for (net::LinkId l = 0; l < t.link_count(); ++l)
    if (t.link(l).reverse > l) n += t.link(l).cables;
  return n;
}

void check_radix(const net::Topology& t, int radix) {
  for (net::NodeId n = static_cast<net::NodeId>(t.host_count()); n < t.node_count(); ++n) {
    INFO("switch " << t.node_name(n));
    CHECK(t.node(n).radix == radix);
    CHECK(t.node(n).ports <= t.node(n).radix);
  }
}

// Plain BFS over every link (only the endpoints may be hosts: hosts do not forward).
int bfs_hops(const net::Topology& t, net::NodeId src, net::NodeId dst) {
  std::vector<int> d(t.node_count(), -1);
  std::deque<net::NodeId> q{src};
  d[src] = 0;
  while (!q.empty()) {
    const net::NodeId v = q.front();
    q.pop_front();
    if (v == dst) return d[v];
    if (v != src && t.node(v).kind == net::NodeKind::kHost) continue;
    for (net::LinkId l : t.out_links(v)) {
      const net::NodeId w = t.link(l).dst;
      if (d[w] < 0) {
        d[w] = d[v] + 1;
        q.push_back(w);
      }
    }
  }
  return -1;
}

net::TopologyConfig rail(int nodes, int nics, int radix) {
  net::TopologyConfig c;
  c.nodes = nodes;
  c.nics_per_node = nics;
  c.link_bandwidth_bps = 400e9;
  c.tier_radix = {radix, radix, radix};
  return c;
}

}  // namespace

TEST_CASE("switch presets give the radix of their breakouts", "[network][clos]") {
  const net::SwitchPreset* sn5600 = net::find_switch_preset("nvidia_sn5600");
  REQUIRE(sn5600 != nullptr);
  // 51.2 Tb/s: 64 ports of 800G, broken out to 128 of 400G (the datasheet's 64x800G = 128x400G).
  CHECK(sn5600->radix_at(800e9) == 64);
  CHECK(sn5600->radix_at(400e9) == 128);
  CHECK(sn5600->radix_at(100e9) == 0);  // not an offered speed
  const net::SwitchPreset* qm9700 = net::find_switch_preset("nvidia_qm9700");
  REQUIRE(qm9700 != nullptr);
  CHECK(qm9700->radix_at(400e9) == 64);
  CHECK(net::find_switch_preset("broadcom_tomahawk3")->radix_at(400e9) == 32);
  CHECK(net::find_switch_preset("no_such_switch") == nullptr);
  // Power: base + per native port; 128 ports of 400G take the SerDes of 64 ports of 800G.
  CHECK(sn5600->power_w(128, 400e9) == Approx(sn5600->power_w(64, 800e9)));
  CHECK(sn5600->power_w(64, 800e9) == Approx(913.0));  // the S9321-64E typical figure
}

TEST_CASE("a radix-bound leaf-spine stays two-tier while the spines have a port per leaf", "[network][clos]") {
  // 32 leaves of 32 single-NIC hosts on 64-port switches, 1:1: 32 uplinks per leaf. The fewest
  // spines with 32 x 32/S <= 64 ports: S = 16, two cables from each leaf to each spine.
  net::TopologyConfig c;
  c.leaves = 32;
  c.hosts_per_leaf = 32;
  c.tier_radix = {64, 64, 64};
  const auto t = net::build_leaf_spine(c);
  CHECK(t.host_count() == 1024);
  CHECK(switches_per_tier(t) == std::map<int, int>{{1, 32}, {2, 16}});
  CHECK(cables(t) == 1024 + 32 * 32);
  check_radix(t, 64);
  // The legacy sizing (no radix) makes 32 spines of 32 ports for the same request.
  c.tier_radix = {0, 0, 0};
  CHECK(switches_per_tier(net::build_leaf_spine(c)) == std::map<int, int>{{1, 32}, {2, 32}});
}

TEST_CASE("a leaf-spine past the spine radix grows the three tiers of a k-ary fat-tree", "[network][clos]") {
  // 8-port switches, 4 hosts per leaf, 32 leaves: more leaves than a spine has ports, so pods.
  // The k=8 fat-tree (Al-Fares): 8 pods of 4 edge + 4 aggregation, 16 cores, 128 hosts,
  // 128 + 128 + 128 cables.
  net::TopologyConfig c;
  c.leaves = 32;
  c.hosts_per_leaf = 4;
  c.tier_radix = {8, 8, 8};
  const auto t = net::build_leaf_spine(c);
  CHECK(switches_per_tier(t) == std::map<int, int>{{1, 32}, {2, 32}, {3, 16}});
  CHECK(cables(t) == 3 * 128);
  check_radix(t, 8);
  // The k=8 fat_tree builder gives the same counts.
  net::TopologyConfig f;
  f.k = 8;
  f.tier_radix = {8, 8, 8};
  const auto ft = net::build_fat_tree(f);
  CHECK(switches_per_tier(ft) == switches_per_tier(t));
  CHECK(cables(ft) == cables(t));
  check_radix(ft, 8);
  // Its size formula agrees with the build.
  const auto size = net::leaf_spine_size(c);
  CHECK(size.switches == 80);
  CHECK(size.cables == 3 * 128);
}

TEST_CASE("three-tier rail-optimised pods follow their formulas", "[network][clos]") {
  // 1,024 nodes x 8 rails on 32-port switches at 1:1. A rail leaf takes 16 nodes (16 down, 16
  // up): 64 groups x 8 rails = 512 leaves. A 32-port spine at 1:1 takes 16 leaves (two rail
  // groups) per pod: 32 pods x 16 spines; 16 planes of 16 cores with one cable per pod.
  // Non-blocking three tiers: leaves : spines : cores = 2 : 2 : 1.
  const auto c = rail(1024, 8, 32);
  const auto t = net::build_rail_optimized(c);
  CHECK(switches_per_tier(t) == std::map<int, int>{{1, 512}, {2, 512}, {3, 256}});
  // 8,192 NIC cables, 512 x 16 leaf uplinks, 512 x 16 spine uplinks.
  CHECK(cables(t) == 8192 + 8192 + 8192);
  check_radix(t, 32);
  const auto size = net::rail_optimized_size(c);
  CHECK(size.switches == 1280);
  CHECK(size.cables == 3 * 8192);
  // Rail r of a node is on leaf (node / 16) x 8 + r.
  const auto first_leaf = static_cast<net::NodeId>(t.host_count());
  CHECK(t.link(t.out_links(17)[3]).dst == first_leaf + 1 * 8 + 3);
}

TEST_CASE("pods and oversubscription of the spine tier follow the request", "[network][clos]") {
  // 3,072 nodes x 8 rails on 128-port switches: rail leaves of 64 nodes (64 down, 64 up), 384
  // leaves. Pods of 384 nodes (6 groups x 8 rails = 48 leaves); at 6:1 a spine takes 96 leaf
  // cables and has 16 uplinks (112 of 128 ports): 32 spines per pod, two cables per leaf.
  auto c = rail(3072, 8, 128);
  c.nodes_per_pod = 384;
  c.spine_oversubscription = 6;
  const auto t = net::build_rail_optimized(c);
  // 8 pods x 32 spines = 256 spines, 32 planes; 8 pods x 16 uplinks per spine fit one core: 32.
  CHECK(switches_per_tier(t) == std::map<int, int>{{1, 384}, {2, 256}, {3, 32}});
  check_radix(t, 128);
  // Bisection: the spine tier's uplinks of half the pods, 4 x 256/8 x 16 x 400G = 819.2 Tb/s,
  // a sixth of the hosts' 1,536 x 8 x 400G = 4,915.2 Tb/s.
  CHECK(net::bisection_bandwidth_bps(t) == Approx(1536.0 * 8 * 400e9 / 6));
  // 7:1 does not give whole ports on any spine: refused with the field and what would work.
  c.spine_oversubscription = 7;
  try {
    net::build_rail_optimized(c);
    FAIL("7:1 accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field() == "spine_oversubscription");
    CHECK_THAT(e.detail(), Catch::Contains("not a whole number of ports"));
  }
}

TEST_CASE("no switch in any radix-bound fabric exceeds its radix", "[network][clos]") {
  std::vector<std::pair<const char*, net::Topology>> built;
  for (int radix : {8, 16, 32, 64}) {
    net::TopologyConfig ls;
    ls.tier_radix = {radix, radix, radix};
    ls.hosts_per_leaf = radix / 4;
    ls.leaves = radix * 2;  // past the spine radix at 1:1 -> three tiers
    ls.oversubscription = 1;
    built.emplace_back("leaf_spine 3 tiers", net::build_leaf_spine(ls));
    ls.leaves = radix / 2;
    ls.oversubscription = 3;
    ls.hosts_per_leaf = radix / 4 * 3;  // 3:1 at the leaf: down 3r/4, up r/4
    built.emplace_back("leaf_spine 2 tiers 3:1", net::build_leaf_spine(ls));
    net::TopologyConfig ft;
    ft.k = radix;
    ft.tier_radix = {radix, radix, radix};
    built.emplace_back("fat_tree", net::build_fat_tree(ft));
    built.emplace_back("rail_optimized", net::build_rail_optimized(rail(radix * radix / 4, 4, radix)));
  }
  for (const auto& [name, t] : built) {
    INFO(name << ", " << t.host_count() << " hosts");
    for (net::NodeId n = static_cast<net::NodeId>(t.host_count()); n < t.node_count(); ++n) {
      CHECK(t.node(n).ports <= t.node(n).radix);
    }
  }
}

TEST_CASE("bisection bandwidth of a non-blocking fabric is hosts x NIC rate / 2", "[network][clos]") {
  // k=8 fat-tree, 128 hosts at 100 Gb/s: 6.4 Tb/s.
  net::TopologyConfig f;
  f.k = 8;
  CHECK(net::bisection_bandwidth_bps(net::build_fat_tree(f)) == Approx(128 * 100e9 / 2));
  // Three-tier rail-optimised, 1,024 nodes x 8 x 400G: 1,638.4 Tb/s.
  CHECK(net::bisection_bandwidth_bps(net::build_rail_optimized(rail(1024, 8, 32))) == Approx(1024 * 8 * 400e9 / 2));
  // Leaf oversubscription 3:1 halves nothing at tier 0 but cuts the leaf uplinks to a third.
  net::TopologyConfig ls;
  ls.leaves = 8;
  ls.hosts_per_leaf = 24;
  ls.oversubscription = 3;
  ls.tier_radix = {32, 32, 32};
  CHECK(net::bisection_bandwidth_bps(net::build_leaf_spine(ls)) == Approx(8 * 24 * 100e9 / 2 / 3));
}

TEST_CASE("routes on three tiers are as short as a plain BFS finds", "[network][clos]") {
  const auto t = net::build_rail_optimized(rail(256, 4, 16));
  REQUIRE(t.max_tier() == 3);
  net::Router router(t, net::RoutingConfig{});
  std::vector<net::LinkId> route;
  for (net::NodeId s = 0; s < t.host_count(); s += 7) {
    for (net::NodeId d = 3; d < t.host_count(); d += 29) {
      if (s == d) continue;
      INFO(s << " -> " << d);
      REQUIRE(router.route(s, d, s * 1000 + d, 0, route));
      CHECK(static_cast<int>(route.size()) == bfs_hops(t, s, d));
      CHECK(router.hops(s, d) == bfs_hops(t, s, d));
      // A connected walk from s to d.
      net::NodeId at = s;
      for (net::LinkId l : route) {
        CHECK(t.link(l).src == at);
        at = t.link(l).dst;
      }
      CHECK(at == d);
    }
  }
}

TEST_CASE("the same config builds the same fabric and the same seed the same routes", "[network][clos]") {
  auto c = rail(512, 8, 32);
  c.spine_oversubscription = 2;
  const auto a = net::build_rail_optimized(c);
  const auto b = net::build_rail_optimized(c);
  REQUIRE(a.link_count() == b.link_count());
  bool same = true;
  for (net::LinkId l = 0; l < a.link_count(); ++l) {
    same = same && a.link(l).src == b.link(l).src && a.link(l).dst == b.link(l).dst &&
           a.link(l).cables == b.link(l).cables;
  }
  CHECK(same);
  net::Router ra(a, net::RoutingConfig{}), rb(b, net::RoutingConfig{});
  std::vector<net::LinkId> x, y;
  for (net::NodeId s = 0; s < 512; s += 37) {
    ra.route(s, 511 - s, s, 0, x);
    rb.route(s, 511 - s, s, 0, y);
    CHECK(x == y);
  }
}

TEST_CASE("requests the switches cannot build say what would", "[network][clos]") {
  // A leaf with more host ports than its radix.
  net::TopologyConfig ls;
  ls.leaves = 4;
  ls.hosts_per_leaf = 40;
  ls.tier_radix = {64, 64, 64};
  try {
    net::build_leaf_spine(ls);
    FAIL("accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field() == "hosts_per_leaf");
    CHECK_THAT(e.detail(), Catch::Contains("need 80 ports of 100 Gb/s; the leaf switch has 64"));
  }
  // More pods than a core has ports: a fourth tier would be needed.
  try {
    net::build_rail_optimized(rail(16 * 8 * 9, 1, 16));  // 1,152 nodes on 16-port switches: at most 16 x 8 x 8
    FAIL("accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field() == "nodes");
    CHECK_THAT(e.detail(), Catch::Contains("need a fourth tier"));
    CHECK_THAT(e.detail(), Catch::Contains("at most 16 pods of 8 leaves (1024 hosts)"));
  }
  // A fat-tree wider than its switch.
  net::TopologyConfig ft;
  ft.k = 16;
  ft.tier_radix = {8, 8, 8};
  CHECK_THROWS_AS(net::build_fat_tree(ft), ConfigError);
  // Spines that do not divide the uplinks.
  ls.hosts_per_leaf = 32;
  ls.spines = 5;
  try {
    net::build_leaf_spine(ls);
    FAIL("accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field() == "spines");
  }
}

TEST_CASE("the BOM lists switches by preset with their power and optics by reach", "[network][clos][bom]") {
  auto c = rail(128, 8, 128);
  c.link_bandwidth_bps = 400e9;
  c.tier_model = {"nvidia_sn5600", "nvidia_sn5600", "nvidia_sn5600"};
  c.switch_cable_m = 50;  // leaf-spine beyond AOC reach: optics, SR class (<= 100 m)
  const auto t = net::build_rail_optimized(c);
  const auto bom = net::bill_of_materials(t);
  // 128 nodes x 8 rails: rail leaves of 64 nodes, 16 leaves, 64 uplinks each; 16 x 64 / 128
  // = 8 spines, two tiers.
  REQUIRE(bom.switches.size() == 2);
  CHECK(bom.switches[0].model == "nvidia_sn5600");
  CHECK(bom.switches[0].count == 16);
  CHECK(bom.switches[1].count == 8);
  CHECK(bom.switches[0].price_key == "switch_800g_64_port_usd");
  // Every port of every switch wired at 400G: 24 x the full 913 W.
  CHECK(bom.switch_power_w == Approx(24 * 913.0));
  REQUIRE(bom.transceivers.size() == 1);
  CHECK(bom.transceivers[0].reach == "SR");
  CHECK(bom.transceivers[0].count == 2 * 16 * 64);
}

TEST_CASE("without a switch preset, named spines take a leaf's uplinks in parallel cables",
          "[network][clos]") {
  // 2 leaves x 4 hosts x 2 NICs at 400G, non-blocking: 8 uplinks per leaf. Derived: 8 spines of
  // 2 ports. spines = 2: 2 spines of 2 leaves x 4 cables = 8 ports; the same cables and bisection.
  net::TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = 4;
  c.nics_per_node = 2;
  c.link_bandwidth_bps = 400e9;
  const auto derived = net::build_leaf_spine(c);
  c.spines = 2;
  const auto named = net::build_leaf_spine(c);
  CHECK(switches_per_tier(derived) == std::map<int, int>{{1, 2}, {2, 8}});
  CHECK(switches_per_tier(named) == std::map<int, int>{{1, 2}, {2, 2}});
  CHECK(cables(named) == cables(derived));
  CHECK(cables(named) == 2 * 4 * 2 + 2 * 8);
  for (net::NodeId n = static_cast<net::NodeId>(named.host_count()); n < named.node_count(); ++n) {
    if (named.node(n).tier == 2) CHECK(named.out_links(n).size() == 2);  // one bundled link per leaf
  }
  CHECK(net::bisection_bandwidth_bps(named) == Approx(net::bisection_bandwidth_bps(derived)));
  CHECK(net::bisection_bandwidth_bps(named) == Approx(8 * 2 * 400e9 / 2));
  // The same on rail-optimised: 8 hosts, 2 rails, 8 uplinks per rail switch over 4 spines.
  net::TopologyConfig r;
  r.nodes = 8;
  r.nics_per_node = 2;
  r.link_bandwidth_bps = 400e9;
  r.spines = 4;
  CHECK(switches_per_tier(net::build_rail_optimized(r)) == std::map<int, int>{{1, 2}, {2, 4}});
  // Spines that do not divide the uplinks say which would.
  c.spines = 3;
  CHECK_THROWS_WITH(net::build_leaf_spine(c), Catch::Contains("3 spines do not divide a leaf's 8 uplinks"));
}

TEST_CASE("a dual-plane fabric doubles the switches and gives every NIC a port on each plane but joins no plane to another",
          "[network][clos][planes]") {
  // Alibaba HPN-like (public-figures.md: 8 NICs x 2 x 200G to dual ToRs, two planes): 64 nodes,
  // 8 rails, NIC ports at 200G, switch links at 400G, on SN5600s (128 x 400G).
  auto c = rail(64, 8, 128);
  c.nic_bandwidth_bps = 200e9;
  c.tier_model = {"nvidia_sn5600", "nvidia_sn5600", "nvidia_sn5600"};
  const auto one = net::build_rail_optimized(c);
  c.planes = 2;
  const auto two = net::build_rail_optimized(c);
  // Per tier, twice the switches; twice the cables; each plane within the preset's radix.
  auto doubled = switches_per_tier(one);
  for (auto& [tier, count] : doubled) count *= 2;
  CHECK(switches_per_tier(two) == doubled);
  CHECK(cables(two) == 2 * cables(one));
  check_radix(two, 128);
  // Every host: a 200G port per NIC per plane, 8 x 2 x 200G = 3.2 Tb/s.
  const std::size_t switches = one.node_count() - one.host_count();
  const auto plane_of = [&](net::NodeId n) {
    return static_cast<int>((n - two.host_count()) / switches);
  };
  for (net::NodeId h = 0; h < two.host_count(); ++h) {
    REQUIRE(two.out_links(h).size() == 16);
    double bps = 0;
    int in_plane_1 = 0;
    for (net::LinkId l : two.out_links(h)) {
      bps += two.link(l).bandwidth_bps;
      in_plane_1 += plane_of(two.link(l).dst);
    }
    CHECK(bps == Approx(3.2e12));
    CHECK(in_plane_1 == 8);
  }
  // No switch-to-switch link crosses planes; the bisection doubles.
  for (net::LinkId l = 0; l < two.link_count(); ++l) {
    const auto& link = two.link(l);
    if (link.src >= two.host_count() && link.dst >= two.host_count()) CHECK(plane_of(link.src) == plane_of(link.dst));
  }
  CHECK(net::bisection_bandwidth_bps(two) == Approx(2 * net::bisection_bandwidth_bps(one)));
  // Routes as short as a plain BFS finds (within a plane: none leaves it).
  net::Router router(two, net::RoutingConfig{});
  for (net::NodeId s = 0; s < 8; ++s) {
    for (net::NodeId d = 56; d < 64; ++d) CHECK(router.hops(s, d) == bfs_hops(two, s, d));
  }
  // The size formula (the memory guard's) bounds it.
  const auto size = net::rail_optimized_size(c);
  CHECK(size.switches >= static_cast<double>(two.node_count() - two.host_count()));
  CHECK(size.cables >= static_cast<double>(cables(two)));
  c.planes = 9;
  CHECK_THROWS_WITH(net::build_rail_optimized(c), Catch::Contains("must be 1 to 8"));
}
