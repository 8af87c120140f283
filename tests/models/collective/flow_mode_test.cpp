#include <catch2/catch.hpp>

#include "models/collective/collective_estimator.hpp"
#include "models/collective/flow_collective.hpp"
#include "models/network/topology_builders.hpp"

using namespace dcsim::models;

namespace {
// The agreement band for flow vs analytic on an uncongested fabric.
constexpr double kAgreeTol = 0.02;

network::Topology leaf_spine(int nodes, int nics, double oversubscription) {
  network::TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = nodes / 2;
  c.nics_per_node = 1;
  c.links_per_node = nics;          // the node's NICs as one bundle: ideal spreading over NICs
  c.bundle_parallel_links = true;
  c.link_bandwidth_bps = 400e9;
  c.nic_bandwidth_bps = 400e9;
  c.oversubscription = oversubscription;
  c.switch_latency_ns = 0;
  c.link_latency_ns = 0;
  return network::build_leaf_spine(c);
}
}  // namespace

TEST_CASE("flow-mode ring all_reduce agrees with the closed form on an uncongested fabric",
          "[models][collective][flow]") {
  collective::CollectiveRegistry reg{"collective algorithm"};
  collective::register_collective_algorithms(reg);
  const int nodes = 4, nics = 8;
  collective::CollectiveSystem s;
  s.nodes = nodes;
  s.gpus_per_node = 8;
  s.nics_per_node = nics;
  s.nic_bandwidth_bps = 400e9;
  s.nvls = false;
  collective::CollectiveTuning tuning;
  for (int p = 0; p < 2; ++p) tuning.enable_protocol[p] = false;  // Simple, as flow mode
  // Packet spraying: no ECMP collisions, so the fabric is truly uncongested.
  network::FabricOptions spray;
  spray.routing.mode = network::RoutingMode::kSpray;
  network::Fabric fabric(leaf_spine(nodes, nics, 1.0), spray);
  const std::vector<network::NodeId> hosts{0, 1, 2, 3};
  const double bytes = 1e9;
  const auto flow = collective::ring_all_reduce_on_fabric(fabric, hosts, bytes, s, tuning, nics);
  const auto analytic = collective::estimate_collective(reg, collective::CollectiveOp::kAllReduce,
                                                        bytes, s, tuning, "ring");
  REQUIRE_FALSE(flow.failed);
  CHECK(flow.time_s == Approx(analytic.time_s).epsilon(kAgreeTol));
}

TEST_CASE("an oversubscribed fabric slows the flow-mode ring below the closed form",
          "[models][collective][flow]") {
  collective::CollectiveSystem s;
  s.nodes = 4;
  s.gpus_per_node = 8;
  s.nics_per_node = 8;
  const std::vector<network::NodeId> hosts{0, 1, 2, 3};
  network::FabricOptions spray;
  spray.routing.mode = network::RoutingMode::kSpray;
  network::Fabric ideal(leaf_spine(4, 8, 1.0), spray);
  network::Fabric over(leaf_spine(4, 8, 4.0), spray);
  const auto a = collective::ring_all_reduce_on_fabric(ideal, hosts, 1e9, s, {}, 8);
  const auto b = collective::ring_all_reduce_on_fabric(over, hosts, 1e9, s, {}, 8);
  // Two of the four ring edges cross the spine, whose capacity is a quarter of the hosts'.
  CHECK(b.time_s > 1.5 * a.time_s);
}

TEST_CASE("ECMP collisions slow the flow-mode ring; spraying does not", "[models][collective][flow]") {
  collective::CollectiveSystem s;
  s.nodes = 4;
  s.gpus_per_node = 8;
  s.nics_per_node = 8;
  const std::vector<network::NodeId> hosts{0, 1, 2, 3};
  network::FabricOptions spray;
  spray.routing.mode = network::RoutingMode::kSpray;
  network::Fabric sprayed(leaf_spine(4, 8, 1.0), spray);
  network::Fabric hashed(leaf_spine(4, 8, 1.0), {});
  const auto a = collective::ring_all_reduce_on_fabric(sprayed, hosts, 1e9, s, {}, 8);
  const auto b = collective::ring_all_reduce_on_fabric(hashed, hosts, 1e9, s, {}, 8);
  // 8 channel flows hashed onto 16 spine links collide (balls into bins): some link carries two
  // or more, so the crossing edges of the ring run at half rate or less.
  CHECK(b.time_s > 1.2 * a.time_s);
}
