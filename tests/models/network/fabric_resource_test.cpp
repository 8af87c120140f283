#include <catch2/catch.hpp>

#include "models/network/fabric.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

// Two hosts under one switch, 100 Gb/s links, no latency.
Fabric two_hosts(FabricOptions options = {}) {
  TopologyConfig c;
  c.leaves = 1;
  c.hosts_per_leaf = 2;
  c.link_bandwidth_bps = 100e9;
  c.link_latency_ns = 0;
  return Fabric(build_leaf_spine(c), options);
}

std::vector<FinishedFlow> drain(Fabric& fabric) {
  std::vector<FinishedFlow> done;
  while (fabric.next_event_time() != Time::max()) fabric.advance(fabric.next_event_time(), done);
  return done;
}

}  // namespace

TEST_CASE("a resource slower than the path sets a flow's rate", "[models][network][fabric][resource]") {
  Fabric fabric = two_hosts();
  // A drive of 3.2 GB/s = 25.6 Gb/s behind a 100 Gb/s path: the drive is the bottleneck, so
  // 3.2e9 B take exactly 1 s.
  const ResourceId drive = fabric.add_resource(25.6e9);
  const ResourceId resources[] = {drive};
  fabric.start_flow(Time::zero(), 0, 1, 3.2e9, 0, -1, resources);
  const auto done = drain(fabric);
  REQUIRE(done.size() == 1);
  CHECK(done[0].finish.ns() == 1'000'000'000);
  CHECK(fabric.resource_bytes(drive) == Approx(3.2e9));
}

TEST_CASE("flows through one resource share it max-min fairly with the links", "[models][network][fabric][resource]") {
  Fabric fabric = two_hosts();
  // Two flows 0 -> 1 share host 0's 100 Gb/s link; one also crosses a 20 Gb/s drive. Max-min:
  // the drive flow takes 20, the other the remaining 80 (not 50 / 50).
  const ResourceId drive = fabric.add_resource(20e9);
  const ResourceId resources[] = {drive};
  const auto slow = fabric.start_flow(Time::zero(), 0, 1, 1e9, 0, -1, resources);
  const auto fast = fabric.start_flow(Time::zero(), 0, 1, 1e9);
  std::vector<FinishedFlow> done;
  fabric.advance(fabric.next_event_time(), done);
  CHECK(fabric.flow_rate_bps(slow) == Approx(20e9));
  CHECK(fabric.flow_rate_bps(fast) == Approx(80e9));
  CHECK(fabric.resource_load_bps(drive) == Approx(20e9));
}

TEST_CASE("a flow from a host to itself drains through its resource", "[models][network][fabric][resource]") {
  Fabric fabric = two_hosts();
  // A local drive write: no link, 8 Gb/s = 1 GB/s, 0.5e9 B in 0.5 s (not at once).
  const ResourceId drive = fabric.add_resource(8e9);
  const ResourceId resources[] = {drive};
  fabric.start_flow(Time::zero(), 0, 0, 0.5e9, 0, -1, resources);
  const auto done = drain(fabric);
  REQUIRE(done.size() == 1);
  CHECK(done[0].finish.ns() == 500'000'000);
}

TEST_CASE("a resource carries payload at its capacity under RoCE headers", "[models][network][fabric][resource]") {
  FabricOptions o;
  o.roce.enabled = true;
  Fabric fabric = two_hosts(o);
  // The links lose 62 B per 4096 B packet to headers (goodput 0.985); a 10 Gb/s drive behind
  // them still moves 10 Gb/s of payload: 1.25e9 B in 1 s.
  const ResourceId drive = fabric.add_resource(10e9);
  const ResourceId resources[] = {drive};
  fabric.start_flow(Time::zero(), 0, 1, 1.25e9, 0, -1, resources);
  const auto done = drain(fabric);
  REQUIRE(done.size() == 1);
  CHECK(done[0].finish.ns() == Approx(1e9).epsilon(1e-9));
}

TEST_CASE("a resource's capacity change applies from that instant", "[models][network][fabric][resource]") {
  Fabric fabric = two_hosts();
  const ResourceId drive = fabric.add_resource(8e9);  // 1 GB/s
  const ResourceId resources[] = {drive};
  fabric.start_flow(Time::zero(), 0, 1, 2e9, 0, -1, resources);
  std::vector<FinishedFlow> done;
  fabric.advance(fabric.next_event_time(), done);
  // 1 GB moved in the first second, then 2 GB/s: the second GB takes 0.5 s more.
  fabric.set_resource_capacity(Time::from_seconds(1.0), drive, 16e9);
  done = drain(fabric);
  REQUIRE(done.size() == 1);
  CHECK(done[0].finish.ns() == 1'500'000'000);
}

TEST_CASE("failing a resource fails exactly the flows that cross it", "[models][network][fabric][resource]") {
  Fabric fabric = two_hosts();
  const ResourceId a = fabric.add_resource(8e9);
  const ResourceId b = fabric.add_resource(8e9);
  const ResourceId on_a[] = {a};
  const ResourceId on_b[] = {b};
  fabric.start_flow(Time::zero(), 0, 1, 1e9, 7, -1, on_a);
  fabric.start_flow(Time::zero(), 0, 1, 1e9, 8, -1, on_b);
  std::vector<FinishedFlow> done;
  fabric.advance(fabric.next_event_time(), done);
  fabric.fail_resource_flows(Time::from_seconds(0.25), a, "drive failed", done);
  REQUIRE(done.size() == 1);
  CHECK(done[0].tag == 7);
  CHECK(done[0].failed);
  CHECK(done[0].reason == "drive failed");
  done = drain(fabric);
  REQUIRE(done.size() == 1);
  CHECK(done[0].tag == 8);
  CHECK_FALSE(done[0].failed);
  // b had 8 Gb/s to itself all along: 1e9 B in 1 s.
  CHECK(done[0].finish.ns() == 1'000'000'000);
}

TEST_CASE("an unknown or zero-capacity resource is refused", "[models][network][fabric][resource]") {
  Fabric fabric = two_hosts();
  CHECK_THROWS_AS(fabric.add_resource(0.0), dcsim::sim::ConfigError);
  const ResourceId missing[] = {3};
  CHECK_THROWS_AS(fabric.start_flow(Time::zero(), 0, 1, 1.0, 0, -1, missing), dcsim::sim::ConfigError);
}
