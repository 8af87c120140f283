// A fat-tree sized to the hosts it must hold (fat_tree.hpp): the smallest non-blocking fat-tree
// of radix k, with fewer spines, partly filled pods and fewer cores, instead of the full k-ary
// tree of the switches' radix.
#include <catch2/catch.hpp>

#include <map>

#include "models/network/bisection.hpp"
#include "models/network/fat_tree.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::network;

namespace {

// HGX nodes: 8 x 400G NICs, k-port switches at 400G.
TopologyConfig hgx_fat_tree(int k, int nodes) {
  TopologyConfig c;
  c.k = k;
  c.fat_tree_nodes = nodes;
  c.nics_per_node = 8;
  c.link_bandwidth_bps = 400e9;
  c.tier_radix = {k, k, k};
  return c;
}

// Switches per tier, and the ports each tier's switches have wired (the largest).
std::map<int, int> switches_per_tier(const Topology& t) {
  std::map<int, int> out;
  for (NodeId n = static_cast<NodeId>(t.host_count()); n < t.node_count(); ++n) ++out[t.node(n).tier];
  return out;
}

int most_ports(const Topology& t) {
  int most = 0;
  for (NodeId n = static_cast<NodeId>(t.host_count()); n < t.node_count(); ++n) most = std::max(most, t.node(n).ports);
  return most;
}

}  // namespace

TEST_CASE("128 HGX nodes on 64-port switches get a two-tier fat-tree of 32 edges and 16 spines",
          "[network][fat_tree]") {
  // By hand: an edge has 32 host ports (k/2) = 4 nodes of 8 NICs, so 128 nodes take 32 edges.
  // Each edge has 32 uplinks; 32 x 32 = 1,024 uplinks fill 16 spines of 64 ports, so each edge
  // reaches each spine with 2 cables (16 divides 32). 48 switches; the full k=64 two-tier tree
  // has 96 (256 nodes) and the three-tier one 5,120 (8,192 nodes).
  const Topology t = build_fat_tree(hgx_fat_tree(64, 128));
  CHECK(t.host_count() == 128);
  const auto tiers = switches_per_tier(t);
  CHECK(tiers.size() == 2);
  CHECK(tiers.at(1) == 32);
  CHECK(tiers.at(2) == 16);
  CHECK(most_ports(t) == 64);  // every switch within its radix
  // Non-blocking: the halves exchange 64 nodes x 8 x 400 Gb/s = 204.8 Tb/s each way.
  CHECK(bisection_bandwidth_bps(t) == Approx(128 * 8 * 400e9 / 2));
  const FatTreeShape s = fat_tree_shape(hgx_fat_tree(64, 128));
  CHECK(s.tiers == 2);
  CHECK(s.plan.leaf_spine_cables == 2);
}

TEST_CASE("beyond two tiers a sized fat-tree grows pods of k/2 edges and fewer cores", "[network][fat_tree]") {
  // 1,024 nodes: 256 edges in 8 pods of 32 (each with 32 aggregation switches). Aggregation a
  // of each pod in plane a: 8 pods x 32 uplinks = 256 ports per plane fill 4 cores of 64, 8
  // cables from each aggregation switch to each. 256 + 256 + 32 x 4 = 640 switches.
  const Topology t = build_fat_tree(hgx_fat_tree(64, 1024));
  const auto tiers = switches_per_tier(t);
  CHECK(tiers.at(1) == 256);
  CHECK(tiers.at(2) == 256);
  CHECK(tiers.at(3) == 128);
  CHECK(most_ports(t) == 64);
  CHECK(bisection_bandwidth_bps(t) == Approx(1024 * 8 * 400e9 / 2));
  // A partly filled last pod: 1,000 nodes are 250 edges, the 8th pod with 26.
  const Topology partial = build_fat_tree(hgx_fat_tree(64, 1000));
  CHECK(partial.host_count() == 1000);
  CHECK(switches_per_tier(partial).at(1) == 250);
  CHECK(switches_per_tier(partial).at(2) == 256);
  CHECK(switches_per_tier(partial).at(3) == 128);
  // Three tiers forced on a size two would hold: one pod of 32 edges and 32 aggregation
  // switches, each plane one core (1 pod x 32 uplinks fit 64 ports) with 32 cables.
  TopologyConfig three = hgx_fat_tree(64, 128);
  three.tiers = 3;
  CHECK(switches_per_tier(build_fat_tree(three)) == std::map<int, int>{{1, 32}, {2, 32}, {3, 32}});
}

TEST_CASE("a fat-tree its radix cannot build is refused with the shape to use", "[network][fat_tree]") {
  TopologyConfig two = hgx_fat_tree(64, 1024);
  two.tiers = 2;
  try {
    build_fat_tree(two);
    FAIL("built");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "tiers");
    CHECK_THAT(e.detail(), Catch::Contains("hold 64 edges of 4 nodes (256 nodes)") &&
                               Catch::Contains("1024 nodes need 256 edges: use 3 tiers"));
  }
  // k = 64: at most 64 pods of 32 edges of 4 nodes, 8,192 nodes.
  try {
    build_fat_tree(hgx_fat_tree(64, 8193));
    FAIL("built");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "fat_tree_nodes");
    CHECK_THAT(e.detail(), Catch::Contains("at most 64 pods (8192 nodes)") &&
                               Catch::Contains("higher radix"));
  }
  CHECK(build_fat_tree(hgx_fat_tree(64, 8192)).host_count() == 8192);
}

TEST_CASE("a fat-tree for the hosts of one edge is that edge switch", "[network][fat_tree]") {
  const Topology t = build_fat_tree(hgx_fat_tree(64, 3));
  CHECK(t.host_count() == 3);
  CHECK(switches_per_tier(t) == std::map<int, int>{{1, 1}});
  CHECK(bisection_bandwidth_bps(t) == Approx(8 * 400e9));  // one host's 8 NICs each way (1 vs 2 hosts)
}

TEST_CASE("without nodes a fat-tree is the full k-ary tree", "[network][fat_tree]") {
  TopologyConfig c;
  c.k = 4;
  const Topology t = build_fat_tree(c);
  CHECK(t.host_count() == 16);
  CHECK(switches_per_tier(t) == std::map<int, int>{{1, 8}, {2, 8}, {3, 4}});
}
