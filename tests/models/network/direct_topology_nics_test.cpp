// Torus, mesh and ring wire every NIC (each a host link, as the switched builders do): a
// neighbour pair has nics_per_node x links_per_node cables, so 4 NICs carry 4 times the traffic.
#include <catch2/catch.hpp>

#include "models/network/fabric.hpp"
#include "models/network/flow_replay.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models::network;
using dcsim::sim::Time;

namespace {

TopologyConfig ring_of_four(int nics) {
  TopologyConfig c;
  c.nodes = 4;
  c.nics_per_node = nics;
  c.link_bandwidth_bps = 100e9;
  c.link_latency_ns = 0;
  return c;
}

// Bandwidth of every link from host a to host b.
double capacity(const Topology& t, NodeId a, NodeId b) {
  double sum = 0;
  for (LinkId l : t.out_links(a)) {
    if (t.link(l).dst == b) sum += t.link(l).bandwidth_bps;
  }
  return sum;
}

// Makespan of `flows` flows of `bytes` from host 0 to its neighbour 1, sprayed.
Time makespan(const Topology& t, int flows, double bytes) {
  FabricOptions o;
  o.routing.mode = RoutingMode::kSpray;
  Fabric fabric(Topology(t), o);
  std::vector<FlowRecord> records;
  for (int i = 0; i < flows; ++i) records.push_back({0, 1, bytes, Time::zero()});
  FabricReport report(nullptr);
  return replay_flows(fabric, records, report).makespan;
}

}  // namespace

TEST_CASE("4 NICs give a ring 4 times the neighbour capacity and a quarter of the time",
          "[models][network][topology]") {
  const Topology one = build_ring(ring_of_four(1));
  const Topology four = build_ring(ring_of_four(4));
  // 4 NICs x 1 cable x 100 Gb/s to each neighbour.
  CHECK(capacity(one, 0, 1) == 100e9);
  CHECK(capacity(four, 0, 1) == 400e9);
  CHECK(four.out_links(0).size() == 2 * 4);  // two neighbours, one link per NIC
  // 4 flows of 1e8 B (8e8 bits): 32 ms over one 100 Gb/s link, 8 ms over four.
  CHECK(makespan(one, 4, 1e8).ns() == Approx(32'000'000).epsilon(1e-6));
  CHECK(makespan(four, 4, 1e8).ns() == Approx(8'000'000).epsilon(1e-6));
}

TEST_CASE("torus and mesh wire every NIC too", "[models][network][topology]") {
  TopologyConfig c;
  c.dims = {3, 3};
  c.nics_per_node = 2;
  c.links_per_node = 2;
  c.bundle_parallel_links = false;
  c.link_bandwidth_bps = 100e9;
  // Torus: 4 neighbours x 2 NICs x 2 cables, unbundled: 16 links out of every host.
  const Topology torus = build_torus(c);
  CHECK(torus.out_links(4).size() == 16);
  CHECK(capacity(torus, 4, 5) == 400e9);
  // Mesh: the centre host of 3x3 has 4 neighbours, a corner 2.
  const Topology mesh = build_mesh(c);
  CHECK(mesh.out_links(4).size() == 16);
  CHECK(mesh.out_links(0).size() == 8);
}
