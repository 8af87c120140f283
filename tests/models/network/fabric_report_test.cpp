// Flow completion percentiles (fabric_report.cpp): exact up to a number of completed flows, then
// from a log histogram whose memory does not grow with the flows.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "models/network/fabric_report.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

// Flow i of n takes 1000 x (1 + (i x 7919 mod n)) ns: every multiple of 1 us from 1 us to n us
// once, in a scrambled order (7919 is prime, coprime to the n used here), so the exact
// nearest-rank q-percentile is 1000 x ceil(q n) ns.
void finish_flows(FabricReport& report, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    FinishedFlow f;
    f.flow_number = static_cast<std::uint64_t>(i);
    f.finish = Time::from_ns(1000 * (1 + i * 7919 % n));
    report.record(f);
  }
}

Fabric small_fabric() {
  TopologyConfig c;
  c.k = 4;
  return Fabric(build_fat_tree(c), {});
}

// The histogram's bound (0.5% buckets read at their geometric middle: within sqrt(1.005), 0.25%)
// plus the rounding to the nanosecond.
bool within_bound(Time got, std::int64_t exact_ns) {
  return std::abs(static_cast<double>(got.ns() - exact_ns)) <= 0.0025 * static_cast<double>(exact_ns) + 0.5;
}

}  // namespace

TEST_CASE("fabric report: up to the limit, percentiles are the exact nearest-rank ones",
          "[models][network][fabric_report]") {
  Fabric fabric = small_fabric();
  FabricReport at_limit(nullptr, "network", false, 1000);
  FabricReport production(nullptr);
  finish_flows(at_limit, 1000);
  finish_flows(production, 1000);
  for (const FabricSummary& s : {at_limit.finish(fabric), production.finish(fabric)}) {
    CHECK(s.flows_completed == 1000);
    CHECK(s.fct_p50.ns() == 500'000);  // rank ceil(0.5 x 1000) = 500
    CHECK(s.fct_p99.ns() == 990'000);  // rank 990
    CHECK(s.fct_max.ns() == 1'000'000);
  }
}

TEST_CASE("fabric report: past the limit, percentiles within 0.25% + 0.5 ns in fixed memory",
          "[models][network][fabric_report]") {
  Fabric fabric = small_fabric();
  FabricReport few(nullptr, "network", false, 1000);
  FabricReport many(nullptr, "network", false, 1000);
  finish_flows(few, 2'000);
  finish_flows(many, 200'000);
  // Past the limit only the histogram is held: the same bytes for 2,000 and 200,000 flows, less
  // than the 1,000 exact times' 8 KB would be at 200,000 flows (1.6 MB).
  CHECK(few.fct_bytes() == many.fct_bytes());
  CHECK(many.fct_bytes() < 100'000);
  const FabricSummary s = many.finish(fabric);
  CHECK(s.flows_completed == 200'000);
  CHECK(within_bound(s.fct_p50, 100'000'000));  // exact: rank 100,000
  CHECK(within_bound(s.fct_p99, 198'000'000));  // exact: rank 198,000
  CHECK(s.fct_max.ns() == 200'000'000);         // kept exactly
}
