#include <catch2/catch.hpp>

#include <cmath>

#include "models/network/fabric.hpp"
#include "models/network/flow_replay.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

TopologyConfig fat_tree(int k) {
  TopologyConfig c;
  c.k = k;
  c.link_bandwidth_bps = 100e9;
  c.link_latency_ns = 0;
  return c;
}

FabricSummary run(Fabric& fabric, const std::vector<FlowRecord>& records, dcsim::sim::TraceSink* sink = nullptr) {
  FabricReport report(sink);
  return replay_flows(fabric, records, report);
}

std::vector<FlowRecord> shift(std::size_t hosts, std::size_t by, double bytes) {
  std::vector<FlowRecord> r;
  for (std::size_t i = 0; i < hosts; ++i) r.push_back({static_cast<NodeId>(i), static_cast<NodeId>((i + by) % hosts), bytes, Time::zero()});
  return r;
}

// Sum of the rates of every flow once all are active, as a fraction of hosts x line rate.
double initial_throughput(Fabric& fabric, const std::vector<FlowRecord>& records) {
  for (const auto& r : records) fabric.start_flow(Time::zero(), r.src, r.dst, r.bytes);
  std::vector<FinishedFlow> done;
  fabric.advance(fabric.next_event_time(), done);
  double sum = 0;
  for (LinkId l = 0; l < fabric.topology().link_count(); ++l) {
    if (fabric.topology().link(l).tier == 0 && fabric.topology().node(fabric.topology().link(l).src).kind == NodeKind::kHost) {
      sum += fabric.solver().link_load(l);
    }
  }
  return sum / (static_cast<double>(records.size()) * 100e9);
}

}  // namespace

TEST_CASE("ideal spraying delivers a permutation at line rate", "[models][network][fabric]") {
  FabricOptions o;
  o.routing.mode = RoutingMode::kSpray;
  Fabric fabric(build_fat_tree(fat_tree(4)), o);
  // Shift by 4: every flow leaves its pod, the worst case for a fat-tree, still non-blocking.
  const double bytes = 1e8;
  auto s = run(fabric, shift(16, 4, bytes));
  // 1e8 B at 100 Gb/s = 8 ms, rounded up per subflow: within a nanosecond of line rate.
  CHECK(s.flows_completed == 16);
  CHECK(s.makespan.ns() >= 8'000'000);
  CHECK(s.makespan.ns() <= 8'000'001);
  CHECK(s.bytes_delivered == Approx(16 * bytes));
}

TEST_CASE("ECMP hashing loses throughput as balls into bins predict", "[models][network][fabric]") {
  // 2-tier k=16 fat-tree: 16 leaves of 8 hosts, 8 spines. Host i sends to i + 8: every leaf's
  // 8 flows hash onto its 8 uplinks. Balls into bins: the expected share of occupied uplinks is
  // 1 - (1 - 1/8)^8 = 0.656; collisions at the destination leaf's downlinks (the spine is picked
  // by the same hash) take a little more, so the max-min throughput sits somewhat below it.
  // Spraying the same traffic reaches 1.0 (previous test), so the loss comes from the hash.
  double sum = 0;
  const int seeds = 8;
  for (int seed = 1; seed <= seeds; ++seed) {
    TopologyConfig c = fat_tree(16);
    c.tiers = 2;
    FabricOptions o;
    o.routing.seed = static_cast<std::uint64_t>(seed);
    Fabric fabric(build_fat_tree(c), o);
    sum += initial_throughput(fabric, shift(128, 8, 1e9));
  }
  const double mean = sum / seeds;
  CHECK(mean < 0.656 + 0.03);
  CHECK(mean > 0.656 - 0.15);
  // Spraying the same pattern: full line rate.
  TopologyConfig c = fat_tree(16);
  c.tiers = 2;
  FabricOptions o;
  o.routing.mode = RoutingMode::kSpray;
  Fabric sprayed(build_fat_tree(c), o);
  CHECK(initial_throughput(sprayed, shift(128, 8, 1e9)) == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("more QPs per flow recover ECMP throughput", "[models][network][fabric]") {
  TopologyConfig c = fat_tree(16);
  c.tiers = 2;
  FabricOptions one, eight;
  eight.routing.qps_per_flow = 8;
  Fabric a(build_fat_tree(c), one), b(build_fat_tree(c), eight);
  CHECK(initial_throughput(b, shift(128, 8, 1e9)) > initial_throughput(a, shift(128, 8, 1e9)) + 0.05);
}

TEST_CASE("halving links per node halves a saturated node's bandwidth", "[models][network][fabric]") {
  // Incast of 8 senders into host 0 of a leaf-spine: host 0's link is the bottleneck.
  auto makespan = [](int links) {
    TopologyConfig c;
    c.leaves = 4;
    c.hosts_per_leaf = 4;
    c.links_per_node = links;
    c.link_bandwidth_bps = 100e9;
    c.link_latency_ns = 0;
    Fabric fabric(build_leaf_spine(c), {});
    std::vector<FlowRecord> r;
    for (NodeId s = 4; s < 12; ++s) r.push_back({s, 0, 1e8, Time::zero()});
    return run(fabric, r).makespan.ns();
  };
  // 8 x 1e8 B into 400 Gb/s = 16 ms; into 200 Gb/s = 32 ms.
  CHECK(makespan(4) == 16'000'000);
  CHECK(makespan(2) == 32'000'000);
}

TEST_CASE("bytes are conserved and the trace has one row per flow", "[models][network][fabric]") {
  Fabric fabric(build_fat_tree(fat_tree(4)), {});
  TrafficConfig t;
  t.pattern = TrafficPattern::kRandomPairs;
  t.flows = 50;
  t.arrival_rate_per_s = 1e4;
  t.size.kind = SizeDistribution::Kind::kLognormal;
  t.size.bytes = 1e6;
  dcsim::sim::MemoryTraceSink sink;
  auto s = run(fabric, generate_traffic(t, 16), &sink);
  CHECK(s.flows_completed == 50);
  CHECK(s.bytes_delivered == Approx(s.bytes_sent).epsilon(1e-12));
  // Every byte leaves through exactly one host uplink.
  double up = 0;
  for (LinkId l = 0; l < fabric.topology().link_count(); ++l)
    if (fabric.topology().node(fabric.topology().link(l).src).kind == NodeKind::kHost) up += fabric.link_bytes()[l];
  CHECK(up == Approx(s.bytes_sent).epsilon(1e-9));
  CHECK(sink.table("network/flows").rows.size() == 50);
  CHECK(std::get<double>(sink.summary("network/makespan_s").value) == Approx(s.makespan.seconds()));
  CHECK(s.fct_p50 <= s.fct_p99);
  CHECK(s.fct_p99 <= s.fct_max);
  CHECK(s.link_utilisation_max <= 1.0 + 1e-9);
}

TEST_CASE("same seed, same results; another seed, other routes", "[models][network][fabric]") {
  auto finishes = [](std::uint64_t seed) {
    FabricOptions o;
    o.routing.seed = seed;
    Fabric fabric(build_fat_tree(fat_tree(8)), o);
    TrafficConfig t;
    t.pattern = TrafficPattern::kPermutation;
    t.seed = 3;
    t.size.bytes = 1e7;
    std::vector<std::int64_t> out;
    dcsim::sim::MemoryTraceSink sink;
    run(fabric, generate_traffic(t, 128), &sink);
    for (const auto& row : sink.table("network/flows").rows) out.push_back(std::get<std::int64_t>(row[5]));
    return out;
  };
  CHECK(finishes(1) == finishes(1));
  CHECK(finishes(1) != finishes(2));
}

TEST_CASE("a failed link reroutes its flows; a partition fails them with a reason", "[models][network][fabric]") {
  FabricOptions o;
  o.record_routes = true;
  Fabric fabric(build_fat_tree(fat_tree(4)), o);
  std::vector<FinishedFlow> done;
  fabric.start_flow(Time::zero(), 0, 15, 1e8);  // crosses a core
  fabric.advance(fabric.next_event_time(), done);
  // Find its core link and fail it at 1 ms.
  LinkId core_link = 0;
  for (LinkId l = 0; l < fabric.topology().link_count(); ++l)
    if (fabric.topology().link(l).tier == 2 && fabric.solver().flow_count_on(l) > 0) core_link = l;
  REQUIRE(fabric.topology().link(core_link).tier == 2);
  fabric.set_link_state(Time::from_ms(1), core_link, false, done);
  CHECK(done.empty());
  CHECK(fabric.solver().flow_count_on(core_link) == 0);
  while (!fabric.next_event_time().is_max()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE(done.size() == 1);
  CHECK_FALSE(done[0].failed);
  CHECK(done[0].finish.ns() == 8'000'000);  // rerouted on an idle path: no time lost
  CHECK(done[0].route.find(std::to_string(core_link) + " ") == std::string::npos);

  // Host 15's only NIC goes down mid-flow: no path remains.
  done.clear();
  fabric.start_flow(Time::from_ms(10), 0, 15, 1e8);
  fabric.advance(fabric.next_event_time(), done);
  fabric.set_nic_port_state(Time::from_ms(11), 15, 0, false, done);
  REQUIRE(done.size() == 1);
  CHECK(done[0].failed);
  CHECK(done[0].reason.find("no path") != std::string::npos);
}

TEST_CASE("bond failover: a NIC port down moves flows to the other port", "[models][network][fabric]") {
  TopologyConfig c = fat_tree(4);
  c.nics_per_node = 2;  // 2 NICs of each host on its edge switch: 8 hosts
  Fabric fabric(build_fat_tree(c), {});
  std::vector<FinishedFlow> done;
  fabric.start_flow(Time::zero(), 0, 7, 1e8);
  fabric.advance(fabric.next_event_time(), done);
  fabric.set_nic_port_state(Time::from_ms(1), 0, 0, false, done);
  fabric.set_nic_port_state(Time::from_ms(1), 0, 1, true, done);
  while (!fabric.next_event_time().is_max()) fabric.advance(fabric.next_event_time(), done);
  REQUIRE(done.size() == 1);
  CHECK_FALSE(done[0].failed);
}

TEST_CASE("each RoCE knob changes results", "[models][network][fabric][roce]") {
  auto incast = [](RoceConfig roce) {
    TopologyConfig c;
    c.leaves = 4;
    c.hosts_per_leaf = 4;
    c.link_latency_ns = 0;
    FabricOptions o;
    o.roce = roce;
    Fabric fabric(build_leaf_spine(c), o);
    std::vector<FlowRecord> r;
    for (NodeId s = 4; s < 14; ++s) r.push_back({s, 0, 1e7, Time::zero()});
    return static_cast<double>(run(fabric, r).makespan.ns());
  };
  const auto pure = incast({});
  CHECK(pure == 8'000'000);  // 10 x 1e7 B at 100 Gb/s
  RoceConfig on;
  on.enabled = true;
  const auto goodput = incast(on);
  // Payload rate x 4096 / (4096 + 62).
  CHECK(goodput == static_cast<std::int64_t>(std::ceil(8e6 * (4096.0 + 62) / 4096)));
  RoceConfig small_mtu = on;
  small_mtu.mtu_bytes = 1024;
  CHECK(incast(small_mtu) > goodput);
  RoceConfig headers = on;
  headers.header_bytes = 82;
  CHECK(incast(headers) > goodput);
  RoceConfig pfc = on;
  pfc.pfc = true;  // 10 senders >= fan-in 8: capacity x 0.9
  CHECK(incast(pfc) == Approx(goodput / 0.9).epsilon(1e-6));
  RoceConfig pfc_fanin = pfc;
  pfc_fanin.pfc_incast_fanin = 16;  // not reached: no pause
  CHECK(incast(pfc_fanin) == goodput);
  RoceConfig dcqcn = on;
  dcqcn.dcqcn = true;
  CHECK(incast(dcqcn) > goodput);
  RoceConfig dcqcn_more = dcqcn;
  dcqcn_more.dcqcn_loss_fraction = 1.0;
  CHECK(incast(dcqcn_more) > incast(dcqcn));
  RoceConfig latency;
  TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = 1;
  c.switch_latency_ns = 500;
  c.host_cable_m = 3;
  c.switch_cable_m = 30;
  Fabric f(build_leaf_spine(c), {});
  // h0 -> leaf -> spine -> leaf -> h1: cables 3 + 30 + 30 + 3 m at 5 ns/m = 330 ns, plus 3
  // switches x 500 ns; then 1e3 B at 100 Gb/s = 80 ns.
  auto s = run(f, {{0, 1, 1e3, Time::zero()}});
  CHECK(s.makespan.ns() == 330 + 1500 + 80);
}

TEST_CASE("bad traffic and traces name their field", "[models][network][fabric]") {
  Fabric fabric(build_fat_tree(fat_tree(4)), {});
  FabricReport report(nullptr);
  try {
    replay_flows(fabric, {{0, 1, 1, Time::zero()}, {0, 99, 1, Time::zero()}}, report);
    FAIL("expected ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "trace[1].dst");
  }
  TrafficConfig t;
  t.size.bytes = -1;
  CHECK_THROWS_AS(generate_traffic(t, 16), dcsim::sim::ConfigError);
  RoceConfig bad;
  bad.enabled = true;
  bad.pfc = true;
  bad.pfc_efficiency = 0;
  FabricOptions o;
  o.roce = bad;
  CHECK_THROWS_AS(Fabric(build_fat_tree(fat_tree(4)), o), dcsim::sim::ConfigError);
}

TEST_CASE("a coarser max-min precision moves completion times a little and conserves bytes",
          "[models][network][fabric]") {
  // ~12 concurrent flows per host link: the regime where one completion moves many rates.
  TrafficConfig t;
  t.pattern = TrafficPattern::kRandomPairs;
  t.flows = 1500;
  t.arrival_rate_per_s = 0;  // all at once
  t.size.kind = SizeDistribution::Kind::kLognormal;
  t.size.bytes = 1e6;
  const auto records = generate_traffic(t, 128);
  auto finish_times = [&](double precision, double& delivered) {
    FabricOptions o;
    o.max_min_precision = precision;
    Fabric fabric(build_fat_tree(fat_tree(8)), o);
    for (const auto& r : records) fabric.start_flow(r.start, r.src, r.dst, r.bytes);
    std::vector<FinishedFlow> done;
    for (Time now = fabric.next_event_time(); !now.is_max(); now = fabric.next_event_time()) fabric.advance(now, done);
    std::vector<double> finish(records.size());
    for (const auto& f : done) finish[f.flow_number] = static_cast<double>((f.finish - f.start).ns());
    delivered = fabric.bytes_delivered();
    return finish;
  };
  double delivered_exact = 0, delivered_coarse = 0;
  const auto exact = finish_times(1e-9, delivered_exact);
  const auto coarse = finish_times(1e-2, delivered_coarse);
  double max_dev = 0, sum_dev = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double dev = std::abs(coarse[i] - exact[i]) / exact[i];
    max_dev = std::max(max_dev, dev);
    sum_dev += dev;
  }
  WARN("precision 1e-2: flow completion times deviate by " << sum_dev / static_cast<double>(exact.size())
                                                          << " on average, " << max_dev << " at most");
  CHECK(delivered_coarse == Approx(delivered_exact).epsilon(1e-12));
  CHECK(max_dev > 0);      // the knob acts
  CHECK(max_dev < 0.05);   // and stays close to exact max-min
  FabricOptions bad;
  bad.max_min_precision = 0.1;
  CHECK_THROWS_AS(Fabric(build_fat_tree(fat_tree(4)), bad), dcsim::sim::ConfigError);
}
