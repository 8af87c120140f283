#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

#include "models/network/fabric.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

// 2-tier k=4 fat-tree: 4 edge switches of 2 hosts, 2 spines; hosts 0, 1 on edge 0, 2, 3 on edge 1.
TopologyConfig small_fat_tree() {
  TopologyConfig c;
  c.k = 4;
  c.tiers = 2;
  c.link_bandwidth_bps = 100e9;
  c.link_latency_ns = 0;
  return c;
}

// A seed whose hash sends 0 -> 2 (flow 0) and 1 -> 3 (flow 1) through different spines.
std::uint64_t seed_with_disjoint_paths() {
  for (std::uint64_t seed = 1; seed < 256; ++seed) {
    FabricOptions o;
    o.routing.seed = seed;
    Fabric f(build_fat_tree(small_fat_tree()), o);
    std::vector<LinkId> a, b;
    f.router().route(0, 2, 0, 0, a);
    f.router().route(1, 3, 1, 0, b);
    if (a[1] != b[1]) return seed;
  }
  FAIL("no seed separates the two flows");
  return 0;
}

struct RebalanceRun {
  std::vector<std::int64_t> finish_ns;
  std::uint64_t rerouted = 0;
  double rate_a_shared = 0.0;  // flow 0's rate while the link is down
};

// Two 1e8 B flows on disjoint spines; flow 0's uplink fails at 2 ms and comes back at 4 ms.
RebalanceRun fail_and_restore(bool resilient) {
  FabricOptions o;
  o.routing.seed = seed_with_disjoint_paths();
  o.routing.resilient_hashing = resilient;
  Fabric fabric(build_fat_tree(small_fat_tree()), o);
  std::vector<FinishedFlow> done;
  fabric.start_flow(Time::zero(), 0, 2, 1e8);
  fabric.start_flow(Time::zero(), 1, 3, 1e8);
  fabric.advance(fabric.next_event_time(), done);
  std::vector<LinkId> a;
  fabric.router().route(0, 2, 0, 0, a);
  const LinkId uplink = a[1];  // edge 0 -> the spine flow 0 hashes to
  fabric.set_link_state(Time::from_ms(2), uplink, false, done);
  RebalanceRun out;
  out.rate_a_shared = fabric.flow_rate_bps(0);
  fabric.set_link_state(Time::from_ms(4), uplink, true, done);
  while (!fabric.next_event_time().is_max()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE(done.size() == 2);
  for (const auto& f : done) out.finish_ns.push_back(f.finish.ns());
  out.rerouted = fabric.rerouted_subflows();
  CHECK(fabric.bytes_delivered() == Approx(2e8).epsilon(1e-12));
  return out;
}

bool near_ns(std::int64_t got, std::int64_t want) { return std::llabs(got - want) <= 1; }

// Leaf-spine, 2 leaves of 4 hosts at 100 Gb/s, one 400 Gb/s spine. Incast 4, 5, 6, 7 -> 0
// (flows 0-3), victim 4 -> 1 (flow 4: shares host 4's uplink and the spine links with the
// incast), bystander 2 -> 3 (flow 5: inside leaf 0, on no link the incast crosses).
struct IncastRun {
  double incast_rate = 0, victim_rate = 0, bystander_rate = 0;
  std::int64_t victim_finish = 0, bystander_finish = 0;
  double delivered = 0, started = 0, uplink_bytes = 0;
};

IncastRun incast_with_victim(bool spreading, int hops = 1) {
  TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = 4;
  c.nic_bandwidth_bps = 100e9;
  c.link_bandwidth_bps = 400e9;
  c.link_latency_ns = 0;
  FabricOptions o;
  o.roce.enabled = true;
  o.roce.pfc = true;
  o.roce.pfc_incast_fanin = 4;
  o.roce.pfc_spreading = spreading;
  o.roce.pfc_spreading_hops = hops;
  Fabric fabric(build_leaf_spine(c), o);
  for (NodeId s = 4; s < 8; ++s) fabric.start_flow(Time::zero(), s, 0, 1e8);
  fabric.start_flow(Time::zero(), 4, 1, 1e8);
  fabric.start_flow(Time::zero(), 2, 3, 1e8);
  std::vector<FinishedFlow> done;
  fabric.advance(fabric.next_event_time(), done);
  IncastRun out;
  out.incast_rate = fabric.flow_rate_bps(0);
  out.victim_rate = fabric.flow_rate_bps(4);
  out.bystander_rate = fabric.flow_rate_bps(5);
  while (!fabric.next_event_time().is_max()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE(done.size() == 6);
  for (const auto& f : done) {
    if (f.flow_number == 4) out.victim_finish = f.finish.ns();
    if (f.flow_number == 5) out.bystander_finish = f.finish.ns();
  }
  out.delivered = fabric.bytes_delivered();
  out.started = fabric.bytes_started();
  for (LinkId l = 0; l < fabric.topology().link_count(); ++l)
    if (fabric.topology().node(fabric.topology().link(l).src).kind == NodeKind::kHost) out.uplink_bytes += fabric.link_bytes()[l];
  return out;
}

}  // namespace

TEST_CASE("a restored link takes its flows back under standard ECMP and finishes them on time",
          "[models][network][fabric][failures]") {
  // 0-2 ms: both flows at 100 Gb/s (2.5e7 B each). 2-4 ms: flow 0 re-routed onto flow 1's
  // spine, both at 50 Gb/s (1.25e7 B each). From 4 ms: the hash puts flow 0 back on its spine,
  // both at 100 Gb/s: 6.25e7 B left each, 5 ms: both finish at 9 ms.
  const RebalanceRun standard = fail_and_restore(false);
  CHECK(standard.rate_a_shared == Approx(50e9));
  CHECK(near_ns(standard.finish_ns[0], 9'000'000));
  CHECK(near_ns(standard.finish_ns[1], 9'000'000));
  CHECK(standard.rerouted == 2);  // away on failure, back on repair
}

TEST_CASE("with resilient hashing a restored link keeps flows where they are",
          "[models][network][fabric][failures]") {
  // Same failure; from 4 ms the flows still share a spine at 50 Gb/s: 6.25e7 B take 10 ms more.
  const RebalanceRun resilient = fail_and_restore(true);
  CHECK(resilient.rate_a_shared == Approx(50e9));
  CHECK(near_ns(resilient.finish_ns[0], 14'000'000));
  CHECK(near_ns(resilient.finish_ns[1], 14'000'000));
  CHECK(resilient.rerouted == 1);
}

TEST_CASE("a restored switch rebalances the flows that hash to it", "[models][network][fabric][failures]") {
  FabricOptions o;
  o.routing.seed = seed_with_disjoint_paths();
  Fabric fabric(build_fat_tree(small_fat_tree()), o);
  std::vector<FinishedFlow> done;
  fabric.start_flow(Time::zero(), 0, 2, 1e8);
  fabric.start_flow(Time::zero(), 1, 3, 1e8);
  fabric.advance(fabric.next_event_time(), done);
  std::vector<LinkId> a;
  fabric.router().route(0, 2, 0, 0, a);
  const NodeId spine = fabric.topology().link(a[1]).dst;
  fabric.set_switch_state(Time::from_ms(2), spine, false, done);
  CHECK(fabric.flow_rate_bps(0) == Approx(50e9));
  fabric.set_switch_state(Time::from_ms(4), spine, true, done);
  CHECK(fabric.flow_rate_bps(0) == Approx(100e9));
  CHECK(fabric.flow_rate_bps(1) == Approx(100e9));
  while (!fabric.next_event_time().is_max()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE(done.size() == 2);
  CHECK(near_ns(done[0].finish.ns(), 9'000'000));
}

TEST_CASE("without PFC spreading an incast victim keeps its max-min rate", "[models][network][fabric][roce]") {
  const double g = 4096.0 / (4096 + 62);
  const IncastRun r = incast_with_victim(false);
  // Host 0's link: 4 flows on 0.9 x 100 Gb/s: 22.5 Gb/s each. The victim shares host 4's
  // uplink with one of them: 100 - 22.5 = 77.5 Gb/s.
  CHECK(r.incast_rate == Approx(22.5e9 * g));
  CHECK(r.victim_rate == Approx(77.5e9 * g));
  CHECK(r.bystander_rate == Approx(100e9 * g));
}

TEST_CASE("PFC spreading slows a victim on a paused upstream link by the paused fraction",
          "[models][network][fabric][roce]") {
  const double g = 4096.0 / (4096 + 62);
  const IncastRun off = incast_with_victim(false);
  const IncastRun on = incast_with_victim(true);
  // The spine -> leaf 0 link carries the 4 incast flows and the victim (5 flows): unpaused it
  // would give the incast 4/5 x 400 Gb/s = 320 Gb/s; they get 90: paused p = 1 - 90/320.
  const double p = 1.0 - 90.0 / 320.0;
  CHECK(on.victim_rate == Approx(77.5e9 * g * (1 - p)));
  // The incast flows are limited by host 0's port anyway; the bystander crosses no paused link.
  CHECK(on.incast_rate == Approx(off.incast_rate));
  CHECK(on.bystander_rate == Approx(off.bystander_rate));
  CHECK(on.bystander_finish == off.bystander_finish);
  CHECK(on.victim_finish > off.victim_finish);
  // The incast flows finish together at t1 (1e8 B at 22.5 Gb/s x g); the pauses stop and the
  // victim sends what is left alone, at 100 Gb/s x g.
  const auto t1_ns = static_cast<std::int64_t>(std::ceil(1e8 * 8 / (22.5e9 * g) * 1e9));
  const double left_bytes = 1e8 - 77.5e9 * g * (1 - p) * static_cast<double>(t1_ns) * 1e-9 / 8;
  const auto finish_ns = t1_ns + static_cast<std::int64_t>(std::ceil(left_bytes * 8 / (100e9 * g) * 1e9));
  CHECK(std::llabs(on.victim_finish - finish_ns) <= 2);
  // Bytes are conserved: every byte started is delivered and left through one host uplink.
  CHECK(on.delivered == Approx(on.started).epsilon(1e-12));
  CHECK(on.uplink_bytes == Approx(on.started).epsilon(1e-9));
}

TEST_CASE("PFC spreading reaches further upstream with more hops", "[models][network][fabric][roce]") {
  const double g = 4096.0 / (4096 + 62);
  const double p_spine = 1.0 - 90.0 / 320.0;  // spine -> leaf 0 (hop 1) and leaf 1 -> spine (hop 2)
  // Hop 3: host 4's uplink carries one incast flow (22.5 Gb/s) and the victim: unpaused the
  // incast flow would get 50 Gb/s, p = 1 - 22.5/50.
  const double p_host = 1.0 - 22.5 / 50.0;
  CHECK(incast_with_victim(true, 2).victim_rate == Approx(77.5e9 * g * (1 - p_spine) * (1 - p_spine)));
  CHECK(incast_with_victim(true, 3).victim_rate ==
        Approx(77.5e9 * g * (1 - p_spine) * (1 - p_spine) * (1 - p_host)));
}

TEST_CASE("PFC spreading needs at least one hop", "[models][network][fabric][roce]") {
  FabricOptions o;
  o.roce.enabled = true;
  o.roce.pfc = true;
  o.roce.pfc_spreading = true;
  o.roce.pfc_spreading_hops = 0;
  try {
    Fabric f(build_fat_tree(small_fat_tree()), o);
    FAIL("expected ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "roce.pfc_spreading_hops");
  }
}
