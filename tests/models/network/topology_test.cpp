#include <catch2/catch.hpp>

#include "models/network/routing.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::network;

TEST_CASE("fat-tree sizes and hop counts follow the formulas", "[models][network][topology]") {
  TopologyConfig c;
  c.k = 4;
  Topology t = build_fat_tree(c);
  // k^3/4 hosts; 5k^2/4 switches; every cable two directed links: hosts k^3/4, edge-agg k^3/4,
  // agg-core k^3/4 cables.
  CHECK(t.host_count() == 16);
  CHECK(t.node_count() == 16 + 20);
  CHECK(t.link_count() == 2 * 3 * 16);
  Router r(t, {});
  CHECK(r.hops(0, 1) == 2);   // same edge switch: host-edge-host
  CHECK(r.hops(0, 2) == 4);   // same pod: up to aggregation and back
  CHECK(r.hops(0, 15) == 6);  // other pod: through a core
  c.tiers = 2;
  Topology t2 = build_fat_tree(c);
  CHECK(t2.host_count() == 8);  // k^2/2
  Router r2(t2, {});
  CHECK(r2.hops(0, 7) == 4);
}

TEST_CASE("torus, mesh and ring hop counts follow the formulas", "[models][network][topology]") {
  TopologyConfig c;
  c.dims = {4, 6};
  Topology torus = build_torus(c);
  Topology mesh = build_mesh(c);
  Router rt(torus, {}), rm(mesh, {});
  // host id = x + 4 y. Torus hops: sum over dims of min(|dx|, n - |dx|); mesh: |dx| + |dy|.
  for (NodeId a = 0; a < 24; ++a) {
    for (NodeId b = 0; b < 24; ++b) {
      const int dx = std::abs(static_cast<int>(a % 4) - static_cast<int>(b % 4));
      const int dy = std::abs(static_cast<int>(a / 4) - static_cast<int>(b / 4));
      REQUIRE(rt.hops(a, b) == std::min(dx, 4 - dx) + std::min(dy, 6 - dy));
      REQUIRE(rm.hops(a, b) == dx + dy);
    }
  }
  c.nodes = 10;
  Topology ring = build_ring(c);
  Router rr(ring, {});
  CHECK(rr.hops(0, 5) == 5);
  CHECK(rr.hops(0, 7) == 3);
  c.dims = {3, 3, 3};
  Topology t3 = build_torus(c);
  CHECK(t3.link_count() == 2 * 3 * 27);  // 3 cables per node in a 3-D torus of size >= 3
}

TEST_CASE("leaf-spine and rail-optimised wiring", "[models][network][topology]") {
  TopologyConfig c;
  c.leaves = 4;
  c.hosts_per_leaf = 8;
  c.oversubscription = 2;
  Topology t = build_leaf_spine(c);
  CHECK(t.host_count() == 32);
  CHECK(t.node_count() == 32 + 4 + 4);  // 8 x 100G down / 2 = 4 x 100G up: 4 spines
  c.nodes = 4;
  c.nics_per_node = 8;
  c.oversubscription = 1;
  Topology rail = build_rail_optimized(c);
  CHECK(rail.host_count() == 4);
  CHECK(rail.node_count() == 4 + 8 + 4);  // 8 rails of 4 ports, 4 spines
  Router r(rail, {});
  CHECK(r.hops(0, 1) == 2);  // same rail: NIC - rail switch - NIC
}

TEST_CASE("impossible configs name their field", "[models][network][topology]") {
  auto field_of = [](auto&& fn) {
    try {
      fn();
    } catch (const dcsim::sim::ConfigError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  TopologyConfig c;
  c.k = 5;
  CHECK(field_of([&] { build_fat_tree(c); }) == "k");
  c.k = 4;
  c.links_per_node = 0;
  CHECK(field_of([&] { build_fat_tree(c); }) == "links_per_node");
  c.links_per_node = 1;
  c.nics_per_node = 3;  // 2 host ports per k=4 edge switch
  CHECK(field_of([&] { build_fat_tree(c); }) == "nics_per_node");
  c.nics_per_node = 1;
  c.oversubscription = 0.5;
  CHECK(field_of([&] { build_leaf_spine(c); }) == "oversubscription");
  c.dims = {4};
  CHECK(field_of([&] { build_torus(c); }) == "dims");
}

TEST_CASE("every registered topology builds and routes", "[models][network][topology]") {
  dcsim::sim::Registry<TopologyFactory> reg("topology");
  register_network_models(reg);
  CHECK(reg.names() == std::vector<std::string>{"fat_tree", "leaf_spine", "mesh", "rail_optimized", "ring", "torus"});
  for (const auto& e : reg.entries()) {
    TopologyConfig c;
    Topology t = e.factory(c);
    Router r(t, {});
    REQUIRE(t.host_count() >= 2);
    for (NodeId h = 1; h < t.host_count(); ++h) REQUIRE(r.hops(0, h) > 0);
    CHECK_FALSE(e.description.empty());
  }
}

namespace {
// Hop count by a plain breadth-first search from src over up links, passing through a host only
// where hosts route (direct topologies): the reference for the Router's distance tables.
int reference_hops(const Topology& t, const std::vector<bool>& up, NodeId src, NodeId dst) {
  std::vector<int> d(t.node_count(), -1);
  std::vector<NodeId> queue{src};
  d[src] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId v = queue[head];
    if (v == dst) return d[v];
    if (v != src && !t.hosts_are_routers() && t.node(v).kind == NodeKind::kHost) continue;
    for (LinkId l : t.out_links(v)) {
      const NodeId w = t.link(l).dst;
      if (up[l] && d[w] < 0) {
        d[w] = d[v] + 1;
        queue.push_back(w);
      }
    }
  }
  return -1;
}
}  // namespace

TEST_CASE("routes are minimal: hop counts and route lengths equal a breadth-first search of the up links",
          "[models][network][topology]") {
  dcsim::sim::Registry<TopologyFactory> reg("topology");
  register_network_models(reg);
  std::vector<Topology> topologies;
  for (const auto& e : reg.entries()) topologies.push_back(e.factory(TopologyConfig{}));
  TopologyConfig dual;  // every host on two edge switches' ports: multi-homed anchors
  dual.k = 4;
  dual.nics_per_node = 2;
  topologies.push_back(build_fat_tree(dual));
  for (const Topology& t : topologies) {
    Router r(t, {});
    std::vector<bool> up(t.link_count(), true);
    for (int round = 0; round < 2; ++round) {
      for (NodeId a = 0; a < t.host_count(); ++a) {
        for (NodeId b = 0; b < t.host_count(); ++b) {
          const int want = reference_hops(t, up, a, b);
          REQUIRE(r.hops(a, b) == want);
          std::vector<LinkId> route;
          REQUIRE(r.route(a, b, 7, 0, route) == (want >= 0));
          if (want < 0) continue;
          REQUIRE(route.size() == static_cast<std::size_t>(want));
          NodeId at = a;
          for (LinkId l : route) {
            REQUIRE(t.link(l).src == at);
            REQUIRE(up[l]);
            at = t.link(l).dst;
          }
          REQUIRE(at == b);
        }
      }
      // Second round: every fifth link down, so some routes detour and some hosts are cut off.
      for (LinkId l = 0; l < t.link_count(); l += 5) {
        up[l] = false;
        r.set_link_up(l, false);
      }
    }
  }
}
