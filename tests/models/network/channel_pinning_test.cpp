// NCCL binds channel c to NIC c at both ends; Fabric::start_flow's channel pins the NIC ports
// so that a node's channel flows use all its NICs instead of hashing onto some of them.
#include <catch2/catch.hpp>

#include <set>

#include "models/network/fabric.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

// Two hosts, each with 8 NICs: rail-optimised (NIC r on rail switch r) or one leaf with 8
// separate cables per host. Every link 400 Gb/s, no latency.
TopologyConfig two_hosts_eight_nics() {
  TopologyConfig c;
  c.nodes = 2;
  c.leaves = 1;
  c.hosts_per_leaf = 2;
  c.nics_per_node = 8;
  c.links_per_node = 1;
  c.bundle_parallel_links = false;
  c.link_bandwidth_bps = 400e9;
  c.link_latency_ns = 0;
  return c;
}

// Starts 8 flows of 1 GB from host 0 to host 1 (channel c or hashed), returns the makespan in s
// and the set of first links they took.
double eight_flows(Topology topology, bool pinned, std::set<LinkId>& first_links) {
  Fabric fabric(std::move(topology), FabricOptions{});
  for (int c = 0; c < 8; ++c) fabric.start_flow(Time::zero(), 0, 1, 1e9, 0, pinned ? c : -1);
  std::vector<FinishedFlow> done;
  Time end = Time::zero();
  bool routes_read = false;
  while (fabric.active_flows() > 0 || done.empty()) {
    const Time next = fabric.next_event_time();
    if (next.is_max()) break;
    fabric.advance(next, done);
    if (!routes_read) {
      for (MaxMinSolver::FlowId f = 0; f < 8; ++f) {
        if (fabric.solver().flow_alive(f)) first_links.insert(fabric.solver().flow_links(f).front());
      }
      routes_read = true;
    }
    end = next;
  }
  REQUIRE(done.size() == 8);
  return end.seconds();
}

}  // namespace

TEST_CASE("Channel-pinned flows use every NIC of a rail-optimised node and finish at line rate", "[network][channel]") {
  std::set<LinkId> pinned_links, hashed_links;
  const double pinned = eight_flows(build_rail_optimized(two_hosts_eight_nics()), true, pinned_links);
  const double hashed = eight_flows(build_rail_optimized(two_hosts_eight_nics()), false, hashed_links);
  // 1 GB at 400 Gb/s on its own rail: 20 ms.
  CHECK(pinned == Approx(0.020).epsilon(1e-6));
  CHECK(pinned_links.size() == 8);
  // Hashed channels collide on some rails (8 balls into 8 bins: all distinct with p = 8!/8^8):
  // the busiest rail carries >= 2 flows, so the last one takes >= 40 ms.
  CHECK(hashed_links.size() < 8);
  CHECK(hashed >= 2 * pinned * (1 - 1e-9));
}

TEST_CASE("Channel-pinned flows spread over a host's parallel cables to one leaf", "[network][channel]") {
  std::set<LinkId> pinned_links, hashed_links;
  const double pinned = eight_flows(build_leaf_spine(two_hosts_eight_nics()), true, pinned_links);
  eight_flows(build_leaf_spine(two_hosts_eight_nics()), false, hashed_links);
  CHECK(pinned == Approx(0.020).epsilon(1e-6));
  CHECK(pinned_links.size() == 8);
  CHECK(hashed_links.size() < 8);
}

TEST_CASE("A pinned channel whose NIC port is down fails over to another port", "[network][channel]") {
  Fabric fabric(build_rail_optimized(two_hosts_eight_nics()), FabricOptions{});
  std::vector<FinishedFlow> done;
  fabric.set_nic_port_state(Time::zero(), 0, 3, false, done);
  fabric.start_flow(Time::zero(), 0, 1, 1e9, 0, 3);
  while (!fabric.next_event_time().is_max()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE(done.size() == 1);
  CHECK_FALSE(done[0].failed);
  CHECK(done[0].finish.seconds() == Approx(0.020).epsilon(1e-6));
}
