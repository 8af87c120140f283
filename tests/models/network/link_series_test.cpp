#include <catch2/catch.hpp>

#include <random>

#include "models/network/fabric.hpp"
#include "models/network/fabric_report.hpp"
#include "models/network/flow_replay.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

std::vector<FlowRecord> random_flows(std::size_t hosts, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<NodeId> host(0, static_cast<NodeId>(hosts - 1));
  std::uniform_real_distribution<double> size(1e5, 1e7);
  std::uniform_int_distribution<std::int64_t> start(0, 200'000);
  std::vector<FlowRecord> r;
  for (int i = 0; i < n; ++i) {
    NodeId s = host(rng), d;
    do d = host(rng);
    while (d == s);
    r.push_back({s, d, size(rng), Time::from_ns(start(rng))});
  }
  return r;
}

}  // namespace

TEST_CASE("link utilisation series conserves bytes", "[models][network][series]") {
  TopologyConfig c;
  c.k = 4;
  FabricOptions o;
  o.link_series_interval_ns = 10'000;
  o.link_series_max_buckets = 8;  // small, so the run (~ms) forces several coarsenings
  Fabric fabric(build_fat_tree(c), o);
  dcsim::sim::MemoryTraceSink sink;
  FabricReport report(&sink, "network", false);
  const FabricSummary s = replay_flows(fabric, random_flows(16, 200, 7), report);
  REQUIRE(s.flows_completed == 200);
  // Every flow has ended, so every byte is settled. Per link, the series' buckets sum to the
  // bytes the link carried (the same settled amounts, split by time overlap); the interval
  // doubled until the run fits in 8 buckets.
  CHECK(fabric.link_series_buckets() <= 8);
  CHECK(fabric.link_series_interval_ns() >= 10'000);
  CHECK(static_cast<double>(fabric.link_series_buckets() * fabric.link_series_interval_ns()) >= static_cast<double>(s.makespan.ns()));
  double total = 0;
  for (LinkId l = 0; l < fabric.topology().link_count(); ++l) {
    double sum = 0;
    for (std::size_t b = 0; b < fabric.link_series_buckets(); ++b) sum += fabric.link_series_bytes(b, l);
    REQUIRE(sum == Approx(fabric.link_bytes()[l]).epsilon(1e-9).margin(1e-3));
    total += sum;
  }
  CHECK(total > 0);
  // The table: integral of utilisation x capacity over each interval gives back the bytes, and
  // over a host's uplinks (tier 0, leaving a host) the bytes are what the hosts sent: every
  // flow crosses exactly one source uplink, and all were delivered.
  const auto& table = sink.table("network/link_utilisation");
  double uplink_bytes = 0;
  for (const auto& row : table.rows) {
    const auto link = static_cast<LinkId>(std::get<std::int64_t>(row[0]));
    const double dt_s = static_cast<double>(std::get<std::int64_t>(row[3]) - std::get<std::int64_t>(row[2])) * 1e-9;
    const double bytes = std::get<double>(row[4]);
    const double util = std::get<double>(row[5]);
    REQUIRE(util * fabric.topology().link(link).bandwidth_bps * dt_s / 8.0 == Approx(bytes));
    REQUIRE(util <= 1.0 + 1e-9);  // a link never carries more than its capacity
    if (fabric.topology().node(fabric.topology().link(link).src).kind == NodeKind::kHost) uplink_bytes += bytes;
  }
  CHECK(uplink_bytes == Approx(s.bytes_delivered).epsilon(1e-9));
}

TEST_CASE("link utilisation series is off by default", "[models][network][series]") {
  TopologyConfig c;
  c.k = 4;
  Fabric fabric(build_fat_tree(c), {});
  dcsim::sim::MemoryTraceSink sink;
  FabricReport report(&sink, "network", false);
  replay_flows(fabric, random_flows(16, 20, 3), report);
  CHECK(fabric.link_series_buckets() == 0);
  CHECK(sink.tables().empty());  // no flow table asked for, and no series
}
