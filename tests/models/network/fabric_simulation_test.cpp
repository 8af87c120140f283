#include <catch2/catch.hpp>

#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models::network;

TEST_CASE("fabric in the engine: chained flows with one pending event", "[models][network][fabric]") {
  TopologyConfig c;
  c.k = 4;
  c.link_latency_ns = 0;
  Fabric fabric(build_fat_tree(c), {});
  dcsim::sim::Simulator sim;
  FabricReport report(nullptr);
  FabricSimulation fs(sim, fabric, &report);
  // Two flows share host 0's uplink (50 Gb/s each); when the first ends, a follow-up starts.
  dcsim::sim::Time second_done;
  fs.start_flow(0, 1, 1e6, [&](const FinishedFlow&) {
    fs.start_flow(0, 2, 1e6, [&](const FinishedFlow& f) { second_done = f.finish; });
  });
  fs.start_flow(0, 3, 1e6);
  sim.run();
  // Both first flows: 1e6 B at 50 Gb/s = 160 us. The follow-up then has the link alone:
  // 80 us more.
  CHECK(second_done.ns() == 160'000 + 80'000);
  CHECK(report.finish(fabric).flows_completed == 3);
}
