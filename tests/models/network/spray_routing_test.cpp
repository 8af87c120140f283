// Ideal packet spraying (RoutingMode::kSpray, routing.hpp): a sprayed flow's subflows cover every
// port of both hosts and every switch's next hops as evenly as the path budget allows, so a flow
// between two multi-NIC hosts on a non-blocking fabric moves at the sum of their NICs' rates.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include "models/network/fabric.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

// Two hosts of 8 NICs on a non-blocking fabric; every port `port_bps`, no latency.
TopologyConfig two_hosts(double port_bps) {
  TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = 1;
  c.nodes = 2;
  c.nodes_per_rail_group = 1;  // rail_optimized: each host its own rail group, so flows cross a spine
  c.nics_per_node = 8;
  c.bundle_parallel_links = false;
  c.link_bandwidth_bps = port_bps;
  c.link_latency_ns = 0;
  return c;
}

// Seconds host 0 takes to send `bytes` to host 1 alone, sprayed.
double sprayed_transfer_s(Topology topology, double bytes) {
  FabricOptions o;
  o.routing.mode = RoutingMode::kSpray;
  Fabric fabric(std::move(topology), o);
  fabric.start_flow(Time::zero(), 0, 1, bytes);
  std::vector<FinishedFlow> done;
  while (done.empty()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE_FALSE(done[0].failed);
  return done[0].finish.seconds();
}

// Every subflow's route of one sprayed flow, with the budget `cap`.
std::vector<std::vector<LinkId>> spray_routes(const Topology& t, NodeId src, NodeId dst, int cap) {
  RoutingConfig rc;
  rc.mode = RoutingMode::kSpray;
  rc.max_spray_paths = cap;
  Router router(t, rc);
  const int p = router.subflow_count(src, dst);
  std::vector<std::vector<LinkId>> routes(static_cast<std::size_t>(p));
  for (int j = 0; j < p; ++j) REQUIRE(router.route(src, dst, 42, j, routes[static_cast<std::size_t>(j)]));
  return routes;
}

// The largest spread (max - min subflows) over the next hops of any node the routes pass,
// where a node's next hops are its links to the destination or to a forwarding node one hop
// closer to it (what routing.hpp calls its candidates).
int worst_spread(const Topology& t, NodeId dst, const std::vector<std::vector<LinkId>>& routes) {
  Router hops(t, {});
  std::map<LinkId, int> on_link;
  std::set<NodeId> visited;
  for (const auto& r : routes) {
    for (LinkId l : r) {
      ++on_link[l];
      visited.insert(t.link(l).src);
    }
  }
  int worst = 0;
  for (NodeId u : visited) {
    int lo = INT32_MAX, hi = 0;
    for (LinkId l : t.out_links(u)) {
      const NodeId v = t.link(l).dst;
      const bool forwards = t.hosts_are_routers() || t.node(v).kind == NodeKind::kSwitch;
      if (v != dst && !(forwards && hops.hops(v, dst) == hops.hops(u, dst) - 1)) continue;
      const int n = on_link.count(l) ? on_link.at(l) : 0;
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
    worst = std::max(worst, hi - lo);
  }
  return worst;
}

struct Case {
  const char* name;
  Topology topology;
  NodeId src, dst;
};

std::vector<Case> multi_path_cases() {
  std::vector<Case> out;
  TopologyConfig ls;  // 4 leaves of 4 hosts with 8 separate 400G cables each: 32 spines
  ls.leaves = 4;
  ls.hosts_per_leaf = 4;
  ls.nics_per_node = 8;
  ls.bundle_parallel_links = false;
  ls.link_bandwidth_bps = 400e9;
  out.push_back({"leaf-spine, 8 NICs", build_leaf_spine(ls), 0, 5});
  out.push_back({"leaf-spine, 8 NICs, same leaf", build_leaf_spine(ls), 0, 1});
  TopologyConfig two = ls;  // the same as two planes of 200G ports
  two.planes = 2;
  two.nic_bandwidth_bps = 200e9;
  two.link_bandwidth_bps = 200e9;
  out.push_back({"leaf-spine, 8 NICs, 2 planes", build_leaf_spine(two), 0, 5});
  TopologyConfig rail;  // 32 nodes in rail groups of 16: NIC r of each host on rail leaf r
  rail.nodes = 32;
  rail.nodes_per_rail_group = 16;
  rail.nics_per_node = 8;
  rail.link_bandwidth_bps = 400e9;
  out.push_back({"rail-optimised, other group", build_rail_optimized(rail), 0, 20});
  TopologyConfig rail2 = rail;
  rail2.planes = 2;
  out.push_back({"rail-optimised, 2 planes", build_rail_optimized(rail2), 0, 20});
  TopologyConfig ft;
  ft.k = 8;
  out.push_back({"fat-tree k=8, other pod", build_fat_tree(ft), 0, 127});
  TopologyConfig ft2;
  ft2.k = 16;
  ft2.nics_per_node = 2;
  ft2.bundle_parallel_links = false;
  out.push_back({"fat-tree k=16, 2 NICs", build_fat_tree(ft2), 0, 500});
  TopologyConfig torus;
  torus.dims = {4, 4, 4};
  out.push_back({"4x4x4 torus", build_torus(torus), 0, 42});
  return out;
}

}  // namespace

TEST_CASE("a sprayed transfer between two 8-NIC hosts on a non-blocking fabric runs at 8 x line rate",
          "[network][spray]") {
  // 1 GB over 8 x 400 Gb/s = 3.2 Tb/s: 2.5 ms. Subflows take whole nanoseconds (rounded up),
  // so the last ends within 1 ns of it. Spraying that ended on one destination NIC (as the
  // digits of the subflow index once did with 64 subflows over 8 x 8 x 8 paths) took 20 ms.
  const double expected_s = 1e9 * 8 / (8 * 400e9);
  SECTION("one leaf per host, 8 spines, 8 separate cables per host") {
    CHECK(sprayed_transfer_s(build_leaf_spine(two_hosts(400e9)), 1e9) == Approx(expected_s).margin(1e-9));
  }
  SECTION("rail-optimised: each NIC on its own rail leaf, two 200G cables per NIC") {
    TopologyConfig c = two_hosts(200e9);
    c.links_per_node = 2;  // 16 ports, 2 spines, 512 minimal paths: capped to 64 subflows
    CHECK(sprayed_transfer_s(build_rail_optimized(c), 1e9) == Approx(expected_s).margin(1e-9));
  }
  SECTION("two planes of 200G ports") {
    TopologyConfig c = two_hosts(200e9);
    c.planes = 2;  // every NIC with a 200G port on each plane's leaf: 16 ports per host
    CHECK(sprayed_transfer_s(build_leaf_spine(c), 1e9) == Approx(expected_s).margin(1e-9));
  }
}

TEST_CASE("spraying spreads subflows within one of even at every node, both hosts' ports included, at any budget",
          "[network][spray]") {
  for (const Case& c : multi_path_cases()) {
    for (int cap : {8, 12, 64, 100, 1 << 20}) {
      INFO(c.name << ", max_spray_paths " << cap);
      const auto routes = spray_routes(c.topology, c.src, c.dst, cap);
      CHECK(worst_spread(c.topology, c.dst, routes) <= 1);
      // Every port of the destination carries some of the flow once the budget has a subflow
      // for each (the budget is rounded up to a multiple of both hosts' ports).
      std::map<LinkId, int> into_dst;
      for (const auto& r : routes) ++into_dst[r.back()];
      if (!c.topology.hosts_are_routers()) {
        int lo = INT32_MAX, hi = 0;
        for (LinkId l : c.topology.in_links(c.dst)) {
          lo = std::min(lo, into_dst[l]);
          hi = std::max(hi, into_dst[l]);
        }
        CHECK(hi - lo <= 1);
      }
      // Distinct subflows take distinct paths while there are paths enough (uncapped: every
      // minimal path exactly once).
      const std::set<std::vector<LinkId>> distinct(routes.begin(), routes.end());
      if (cap == 1 << 20) CHECK(distinct.size() == routes.size());
    }
  }
}

TEST_CASE("a capped spray budget is rounded up to a whole number of subflows per port", "[network][spray]") {
  TopologyConfig c;
  c.leaves = 4;
  c.hosts_per_leaf = 4;
  c.nics_per_node = 8;
  c.bundle_parallel_links = false;
  const Topology t = build_leaf_spine(c);
  // 8 ports x 32 spines x 8 ports = 2,048 minimal paths from host 0 to host 5.
  const auto count = [&t](int cap) {
    RoutingConfig rc;
    rc.mode = RoutingMode::kSpray;
    rc.max_spray_paths = cap;
    return Router(t, rc).subflow_count(0, 5);
  };
  CHECK(count(64) == 64);
  CHECK(count(12) == 16);  // 12 would leave 4 of the 8 ports with one subflow fewer
  CHECK(count(1) == 8);
  CHECK(count(2048) == 2048);
  CHECK(count(100000) == 2048);
  // Two planes: 16 ports at the source, 8 (one plane's) at the destination's leaf.
  c.planes = 2;
  RoutingConfig rc;
  rc.mode = RoutingMode::kSpray;
  rc.max_spray_paths = 20;
  CHECK(Router(build_leaf_spine(c), rc).subflow_count(0, 5) == 32);
}

TEST_CASE("a sprayed flow's route is recorded as its distinct links with their subflow counts", "[network][spray]") {
  FabricOptions o;
  o.routing.mode = RoutingMode::kSpray;
  o.record_routes = true;
  Fabric fabric(build_leaf_spine(two_hosts(400e9)), o);
  fabric.start_flow(Time::zero(), 0, 1, 1e6);
  std::vector<FinishedFlow> done;
  while (done.empty()) fabric.advance(fabric.next_event_time(), done);
  const FinishedFlow& f = done[0];
  CHECK(f.subflows == 64);
  // 8 source ports, 8 leaf-to-spine links, 8 spine-to-leaf links, 8 destination ports: 32
  // links, 4 x 64 subflow-hops; each destination port carries 64 / 8 = 8 subflows.
  std::istringstream in(f.route);
  std::string token;
  std::map<LinkId, int> count;
  while (in >> token) {
    const auto star = token.find('*');
    REQUIRE(star != std::string::npos);
    count[static_cast<LinkId>(std::stoul(token.substr(0, star)))] = std::stoi(token.substr(star + 1));
  }
  const Topology& t = fabric.topology();
  CHECK(count.size() == 32);
  int total = 0;
  for (const auto& [link, n] : count) total += n;
  CHECK(total == 4 * 64);
  for (LinkId l : t.in_links(1)) CHECK(count[l] == 8);
  for (LinkId l : t.out_links(0)) CHECK(count[l] == 8);
  // One path (ECMP): the link ids in path order, as before.
  FabricOptions hashed;
  hashed.record_routes = true;
  Fabric ecmp(build_leaf_spine(two_hosts(400e9)), hashed);
  ecmp.start_flow(Time::zero(), 0, 1, 1e6);
  done.clear();
  while (done.empty()) ecmp.advance(ecmp.next_event_time(), done);
  CHECK(done[0].subflows == 1);
  CHECK(done[0].route.find('*') == std::string::npos);
  CHECK(std::count(done[0].route.begin(), done[0].route.end(), ' ') == 3);  // 4 links
}
