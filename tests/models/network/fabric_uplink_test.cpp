// The uplink behind a gateway host (models/network/fabric_uplink.hpp): transfers are flows between
// the hosts their data is on and the gateway, the ports a capacity in the fabric's solve. Every
// expected value is solved by hand in its comment (no link latency, so times are bytes / rate).

#include <catch2/catch.hpp>

#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/fabric_uplink.hpp"
#include "models/network/topology_builders.hpp"
#include "tests/models/network/uplink_recorder.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Simulator;
using dcsim::sim::Time;

namespace {

constexpr std::int64_t kSecondNs = 1'000'000'000;

using Recorder = dcsim::tests::UplinkRecorder;

// Two leaves of two hosts under one spine, 100 Gb/s host links and 100 Gb/s leaf uplinks, no
// latency: hosts 0, 1 on leaf 0; hosts 2, 3 on leaf 1. The gateway is host 3.
struct Net {
  Simulator sim;
  Fabric fabric;
  FabricSimulation driver;
  Recorder r;
  FabricUplink uplink;
  explicit Net(double ports_bps)
      : fabric(make_topology(), FabricOptions{}),
        driver(sim, fabric, nullptr),
        uplink(sim, driver, 3, ports_bps, r.on_carried(), r.on_finished()) {}
  static Topology make_topology() {
    TopologyConfig c;
    c.leaves = 2;
    c.hosts_per_leaf = 2;
    c.link_bandwidth_bps = 100e9;
    c.link_latency_ns = 0;
    return build_leaf_spine(c);
  }
};

}  // namespace

TEST_CASE("a source carries its share of a transfer through its own resource",
          "[models][network][uplink][gateway]") {
  // 10e9 B from host 0 (a quarter) and host 1 (three quarters), ports at 400 Gb/s. Host 0's share
  // is read through a 1e9 B/s (8 Gb/s) resource, its drives: 2.5e9 B take exactly 2.5 s. Host 1's
  // 7.5e9 B share leaf 0's 100 Gb/s uplink (and the gateway's link) with host 0's 8 Gb/s: 92 Gb/s
  // = 11.5e9 B/s, done at 0.652 s. The transfer ends with the slower share: 2.5 s.
  Net n(400e9);
  const ResourceId drives = n.driver.add_resource(8e9);
  const UplinkSource from[] = {{0, 0.25, drives}, {1, 0.75, UplinkSource::kNoResource}};
  n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 10e9, from);
  n.sim.run();
  REQUIRE(n.r.done.size() == 1);
  CHECK(n.r.done[0].finished.ns() == Approx(2.5 * kSecondNs).epsilon(1e-9));
  CHECK(n.r.bytes(UplinkDirection::kOut) == Approx(10e9));
  // Shares that do not add up to the transfer are a bug of the caller.
  const UplinkSource half[] = {{0, 0.5, UplinkSource::kNoResource}};
  CHECK_THROWS_AS(n.uplink.submit(0, 1e9, half), dcsim::sim::InternalError);
}

TEST_CASE("an egress transfer from one host runs at the slower of its NIC and the ports",
          "[models][network][uplink][gateway]") {
  SECTION("ports slower than the NIC: 40 Gb/s = 5e9 B/s, 10e9 B in exactly 2 s") {
    Net n(40e9);
    const NodeId from[] = {0};
    n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 10e9, from);
    n.sim.run();
    REQUIRE(n.r.done.size() == 1);
    CHECK(n.r.done[0].finished.ns() == 2 * kSecondNs);
    CHECK(n.r.bytes(UplinkDirection::kOut) == Approx(10e9));
  }
  SECTION("ports faster than the NIC: the 100 Gb/s host link binds, 12.5e9 B in exactly 1 s") {
    Net n(400e9);
    const NodeId from[] = {0};
    n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 12.5e9, from);
    n.sim.run();
    REQUIRE(n.r.done.size() == 1);
    CHECK(n.r.done[0].finished.ns() == kSecondNs);
  }
}

TEST_CASE("a transfer's hosts each send an equal share, and the gateway's own link binds their sum",
          "[models][network][uplink][gateway]") {
  // Hosts 0, 1 and 2 send 1/3 of 37.5e9 B each to host 3 behind 400 Gb/s ports: every flow ends
  // on the gateway's 100 Gb/s link, so they share it at 33.3 Gb/s each and all end together at
  // 37.5e9 x 8 / 100e9 = 3 s. Three flows, one transfer.
  Net n(400e9);
  const NodeId from[] = {0, 1, 2};
  n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 37.5e9, from);
  n.sim.run();
  REQUIRE(n.r.done.size() == 1);
  CHECK(n.r.done[0].finished.ns() == Approx(3 * kSecondNs).margin(2));
  CHECK(n.r.bytes(UplinkDirection::kOut) == Approx(37.5e9));
}

TEST_CASE("uplink flows share the network's links with other traffic in one solve",
          "[models][network][uplink][gateway]") {
  // Host 0 sends 12.5e9 B off-site (ports 400 Gb/s) while host 0 also sends 12.5e9 B to host 1:
  // both leave on host 0's 100 Gb/s link, 50 Gb/s each, so both end at 2 s, not 1 s. With the
  // ports alone (wan_uplink.hpp) the copy would have taken 0.25 s.
  Net n(400e9);
  const NodeId from[] = {0};
  n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 12.5e9, from);
  Time other_done;
  n.driver.start_flow(0, 1, 12.5e9, [&](const FinishedFlow& f) { other_done = f.finish; });
  n.sim.run();
  REQUIRE(n.r.done.size() == 1);
  CHECK(n.r.done[0].finished.ns() == 2 * kSecondNs);
  CHECK(other_done.ns() == 2 * kSecondNs);
}

TEST_CASE("a queue sends its transfers one after another and reports every byte once",
          "[models][network][uplink][gateway]") {
  // Ports 40 Gb/s: 5e9 B take 1 s each. Both due at 0 on one queue: the second starts at 1 s and
  // ends at 2 s; the backlog at 0 is both (10e9 B). The carried reports cover [0, 2 s) without
  // gaps and sum to 10e9 B.
  Net n(40e9);
  const NodeId from[] = {1};
  const auto q = n.uplink.add_queue(UplinkDirection::kOut);
  n.uplink.submit(q, 5e9, from);
  n.uplink.submit(q, 5e9, from);
  CHECK(n.uplink.backlog_bytes(UplinkDirection::kOut) == Approx(10e9));
  CHECK(n.uplink.busy(q));
  n.sim.at(Time::from_ns(kSecondNs / 2), [&] {
    // Half of the first transfer is out: 7.5e9 B left, read from the fabric's progress.
    CHECK(n.uplink.backlog_bytes(UplinkDirection::kOut) == Approx(7.5e9));
  });
  n.sim.run();
  REQUIRE(n.r.done.size() == 2);
  CHECK(n.r.done[1].started.ns() == kSecondNs);
  CHECK(n.r.done[1].finished.ns() == 2 * kSecondNs);
  CHECK(n.r.done[1].submitted == Time::zero());
  CHECK(n.r.bytes(UplinkDirection::kOut) == Approx(10e9));
  Time to = Time::zero();
  for (const auto& c : n.r.carried) {
    CHECK(c.from == to);
    to = c.to;
  }
  CHECK(to.ns() == 2 * kSecondNs);
  CHECK_FALSE(n.uplink.busy(q));
}

TEST_CASE("ingress flows run from the gateway to the hosts on a capacity of their own",
          "[models][network][uplink][gateway]") {
  // 40 Gb/s each way (full duplex): 5e9 B in to host 0 and 5e9 B out from host 1 both take 1 s.
  Net n(40e9);
  const NodeId in_to[] = {0};
  const NodeId out_from[] = {1};
  n.uplink.submit(n.uplink.add_queue(UplinkDirection::kIn), 5e9, in_to);
  n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 5e9, out_from);
  n.sim.run();
  REQUIRE(n.r.done.size() == 2);
  for (const auto& d : n.r.done) CHECK(d.finished.ns() == kSecondNs);
  CHECK(n.r.bytes(UplinkDirection::kIn) == Approx(5e9));
  CHECK(n.r.bytes(UplinkDirection::kOut) == Approx(5e9));
}

TEST_CASE("a gateway cut off ends its transfers with failed flows instead of waiting forever",
          "[models][network][uplink][gateway]") {
  // The gateway's only cable is down (both directions): the flow has no path and fails; the transfer ends, counted.
  Net n(40e9);
  const Topology& t = n.fabric.topology();
  for (LinkId l : t.out_links(3)) n.driver.set_link_state(l, false);
  for (LinkId l : t.in_links(3)) n.driver.set_link_state(l, false);
  const NodeId from[] = {0};
  n.uplink.submit(n.uplink.add_queue(UplinkDirection::kOut), 5e9, from);
  n.sim.run();
  REQUIRE(n.r.done.size() == 1);
  CHECK(n.uplink.failed_flows() == 1);
  CHECK(n.r.bytes(UplinkDirection::kOut) == 0.0);
}

TEST_CASE("a gateway that is not a host or a transfer from the gateway itself is refused",
          "[models][network][uplink][gateway]") {
  Simulator sim;
  Fabric fabric(Net::make_topology(), FabricOptions{});
  FabricSimulation driver(sim, fabric, nullptr);
  CHECK_THROWS_AS(FabricUplink(sim, driver, 4, 40e9, {}, {}), dcsim::sim::ConfigError);
  CHECK_THROWS_AS(FabricUplink(sim, driver, 3, 0.0, {}, {}), dcsim::sim::ConfigError);
  FabricUplink uplink(sim, driver, 3, 40e9, {}, {});
  const auto q = uplink.add_queue(UplinkDirection::kOut);
  const NodeId gateway[] = {3};
  CHECK_THROWS_AS(uplink.submit(q, 1e9, gateway), dcsim::sim::InternalError);
  CHECK_THROWS_AS(uplink.submit(q, 1e9, std::span<const NodeId>{}), dcsim::sim::InternalError);
}
