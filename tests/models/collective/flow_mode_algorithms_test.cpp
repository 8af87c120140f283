// Flow mode for the double binary tree, NVLS and point-to-point: structure of NCCL's trees,
// agreement with the closed forms, the fabric's effects computed by hand, conservation, failure.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "models/collective/collective_estimator.hpp"
#include "models/collective/flow_collective.hpp"
#include "models/network/topology_builders.hpp"
#include "flow_mode_support.hpp"
#include "sim/error.hpp"

using namespace dcsim::models;
using collective::CollectiveOp;
using namespace flow_mode_testing;

namespace {

network::FabricOptions sprayed() {
  network::FabricOptions o;
  o.routing.mode = network::RoutingMode::kSpray;
  return o;
}

collective::CollectiveRegistry registry() {
  collective::CollectiveRegistry reg{"collective algorithm"};
  collective::register_collective_algorithms(reg);
  return reg;
}

const std::vector<network::NodeId> kHosts{0, 1, 2, 3};

}  // namespace

TEST_CASE("NCCL's double binary tree spans every node twice, ceil(log2 N) high, at most 4 edges a node",
          "[models][collective][flow]") {
  for (int n = 1; n <= 64; ++n) {
    INFO(n << " ranks");
    const auto t = collective::double_binary_tree(n);
    const int depth = n > 1 ? static_cast<int>(std::ceil(std::log2(n))) : 0;
    CHECK(t.depth == depth);
    std::vector<int> edges(static_cast<std::size_t>(n), 0);
    for (int k = 0; k < 2; ++k) {
      int roots = 0, height = 0;
      for (int r = 0; r < n; ++r) {
        int hops = 0;
        for (int v = r; t.parent[k][static_cast<std::size_t>(v)] >= 0; v = t.parent[k][static_cast<std::size_t>(v)]) {
          REQUIRE(++hops <= n);  // no cycle: every rank reaches the root
        }
        height = std::max(height, hops);
        const int p = t.parent[k][static_cast<std::size_t>(r)];
        if (p < 0) {
          ++roots;
        } else {
          ++edges[static_cast<std::size_t>(r)];
          ++edges[static_cast<std::size_t>(p)];
        }
      }
      CHECK(roots == 1);
      CHECK(height == depth);
    }
    // Tree 0's root is rank 0; tree 1's is the last rank (mirror) or rank 1 (shift), as NCCL.
    CHECK(t.parent[0][0] == -1);
    if (n > 1) CHECK(t.parent[1][static_cast<std::size_t>(n % 2 == 1 ? 1 : n - 1)] == -1);
    // The closed form's 2 S per node and direction is 4 edges x S/2: reached from 4 nodes on.
    const int most = *std::max_element(edges.begin(), edges.end());
    CHECK(most <= 4);
    if (n >= 4) CHECK(most == 4);
  }
}

TEST_CASE("flow-mode tree all_reduce agrees with the closed form on a sprayed non-blocking fabric",
          "[models][collective][flow]") {
  const auto reg = registry();
  const auto tuning = simple_only();
  for (int nodes : {2, 3, 4}) {
    INFO(nodes << " nodes");
    network::TopologyConfig c;
    c.leaves = 1;
    c.hosts_per_leaf = nodes;
    c.nics_per_node = 1;
    c.links_per_node = 8;
    c.link_bandwidth_bps = 400e9;
    c.switch_latency_ns = 0;
    c.link_latency_ns = 0;
    network::Fabric fabric(network::build_leaf_spine(c), sprayed());
    std::vector<network::NodeId> hosts;
    for (int i = 0; i < nodes; ++i) hosts.push_back(static_cast<network::NodeId>(i));
    const auto s = hgx_nodes(nodes);
    const auto flow = collective::collective_on_fabric(fabric, hosts, CollectiveOp::kAllReduce, 1e9,
                                                       s, tuning, "tree", 8);
    const auto analytic = collective::estimate_collective(reg, CollectiveOp::kAllReduce, 1e9, s, tuning, "tree");
    REQUIRE_FALSE(flow.failed);
    // NVLink's chain (2 S / (370 GB/s x 0.92)) is the bottleneck in both on HGX H100: the fabric
    // moves at most 2 S per node over 8 x 400G x 0.94 x 0.92 = 346 GB/s.
    CHECK(flow.time_s == Approx(analytic.time_s).epsilon(1e-4));
    CHECK(flow.flows == static_cast<std::size_t>(2 * 2 * (nodes - 1) * 8));
  }
}

TEST_CASE("flow-mode tree all_reduce of 1 KiB differs from the closed form by (2 ceil(log2 N) - 1) "
          "path latencies",
          "[models][collective][flow]") {
  // 500 ns a switch, 3 switches between leaves: the closed form adds 1.5 us per tree hop, up and
  // down (2 x 2 hops at 4 nodes); the fabric adds its 1.5 us path once, as all edges stream at
  // once and the latency of the pipeline fill is the closed form's business.
  const auto reg = registry();
  const auto tuning = simple_only();
  auto s = hgx_nodes(4);
  s.fabric_latency_ns = 3 * 500.0;
  network::Fabric fabric(leaf_spine(4, 8, 1.0, 500), sprayed());
  const double bytes = 1024;
  const auto flow = collective::collective_on_fabric(fabric, kHosts, CollectiveOp::kAllReduce, bytes, s,
                                                     tuning, "tree", 8);
  const auto analytic = collective::estimate_collective(reg, CollectiveOp::kAllReduce, bytes, s, tuning, "tree");
  // Within 10 ns: moving the 1 KiB itself takes a few ns, rounded up to whole ns by both.
  CHECK(analytic.time_s - flow.time_s == Approx((2 * 2 - 1) * 1500e-9).margin(10e-9));
  // At 1 GB that is 4.5 us in 6 ms.
  network::Fabric big(leaf_spine(4, 8, 1.0, 500), sprayed());
  const auto flow_1g = collective::collective_on_fabric(big, kHosts, CollectiveOp::kAllReduce, 1e9, s,
                                                        tuning, "tree", 8);
  const auto analytic_1g = collective::estimate_collective(reg, CollectiveOp::kAllReduce, 1e9, s, tuning, "tree");
  CHECK(flow_1g.time_s == Approx(analytic_1g.time_s).epsilon(1e-3));
}

TEST_CASE("4:1 oversubscription makes tree all_reduce fabric-bound at a quarter of the nodes' rate "
          "across the spine",
          "[models][collective][flow]") {
  // Hosts 0, 1 under leaf 0, hosts 2, 3 under leaf 1; tree 0: 0-2, 2-1, 2-3; tree 1: 3-1, 1-2,
  // 1-0. Four edges cross between the leaves (0-2, 2-1, 3-1, 1-2), each carrying S/2 each way:
  // 2 S per direction over the leaf's spine links, 4 x 400G = 200 GB/s at 4:1. Wire bytes are
  // payload / (0.94 x 0.92). Non-blocking, a node's 8 x 400G (400 GB/s) carries its 2 S and
  // NVLink (2 S / (370 x 0.92 GB/s)) is the slower.
  const auto tuning = simple_only();
  const auto s = hgx_nodes(4);
  const double bytes = 1e9;
  network::Fabric ideal(leaf_spine(4, 8, 1.0), sprayed());
  network::Fabric over(leaf_spine(4, 8, 4.0), sprayed());
  const auto a = collective::collective_on_fabric(ideal, kHosts, CollectiveOp::kAllReduce, bytes, s,
                                                  tuning, "tree", 8);
  const auto b = collective::collective_on_fabric(over, kHosts, CollectiveOp::kAllReduce, bytes, s,
                                                  tuning, "tree", 8);
  const double latency_s = (8.4 + 2.0 * (7 * 4.0 + 2 * 14.0)) * 1e-6;  // Simple: base + 2 (7 a_nvl + 2 a_net)
  const double wire_per_payload = 1.0 / (0.94 * 0.92);  // tree at 0.92 (tuning.cc)
  const double nvlink_s = 2.0 * bytes / (450e9 * 370.0 / 450.0 * 0.92);
  const double spine_s = 2.0 * bytes * wire_per_payload / 200e9;
  CHECK(a.time_s == Approx(latency_s + nvlink_s).epsilon(1e-5));
  CHECK(b.time_s == Approx(latency_s + spine_s).epsilon(1e-5));
  CHECK(b.time_s / a.time_s == Approx((latency_s + spine_s) / (latency_s + nvlink_s)).epsilon(1e-5));
  CHECK(b.time_s / a.time_s > 1.9);
}

TEST_CASE("tree all_reduce puts 2 (N-1) S on the fabric, 2 S out of a node interior in one tree",
          "[models][collective][flow]") {
  // Ideal tuning: wire bytes = payload. 2 trees x (N-1) edges x 2 directions x S/2.
  const auto tuning = collective::CollectiveTuning::ideal(0.0);
  const auto s = hgx_nodes(4);
  const double bytes = 1e9;
  network::Fabric fabric(leaf_spine(4, 8, 1.0), sprayed());
  const auto r = collective::collective_on_fabric(fabric, kHosts, CollectiveOp::kAllReduce, bytes, s,
                                                  tuning, "tree", 8);
  REQUIRE_FALSE(r.failed);
  CHECK(fabric.bytes_delivered() == Approx(2.0 * 3 * bytes).epsilon(1e-9));
  // Tree edges per node at 4 nodes: 0: 2 (root of tree 0, leaf of tree 1), 1: 4, 2: 4, 3: 2.
  const double expected_out[] = {1.0, 2.0, 2.0, 1.0};
  for (network::NodeId h : kHosts) {
    INFO("host " << h);
    const auto out = fabric.topology().out_links(h);
    REQUIRE(out.size() == 1);  // the bundle
    CHECK(fabric.link_bytes()[out[0]] == Approx(expected_out[h] * bytes).epsilon(1e-9));
  }
}

TEST_CASE("a node cut off from the fabric makes tree and point_to_point report failure",
          "[models][collective][flow]") {
  const auto s = hgx_nodes(4);
  for (const char* algo : {"tree", "ring"}) {
    const CollectiveOp op = std::string(algo) == "tree" ? CollectiveOp::kAllReduce : CollectiveOp::kPointToPoint;
    INFO(algo);
    network::Fabric fabric(leaf_spine(4, 8, 1.0), sprayed());
    std::vector<network::FinishedFlow> none;
    fabric.set_nic_port_state(dcsim::sim::Time::zero(), 3, 0, false, none);  // node 3's only bundle
    const auto r = collective::collective_on_fabric(fabric, kHosts, op, 1e9, s, simple_only(), algo, 8);
    CHECK(r.failed);
  }
}

TEST_CASE("flow-mode NVLS inside one node is the closed form and puts nothing on the fabric",
          "[models][collective][flow]") {
  const auto reg = registry();
  const auto tuning = simple_only();
  auto s = hgx_nodes(1);
  s.nvls = true;
  for (double bytes : {1024.0, 1e9}) {
    network::Fabric fabric(leaf_spine(4, 8, 1.0), sprayed());
    const auto flow = collective::collective_on_fabric(fabric, {0}, CollectiveOp::kAllReduce, bytes, s,
                                                       tuning, "nvls", 8);
    const auto analytic = collective::estimate_collective(reg, CollectiveOp::kAllReduce, bytes, s, tuning, "nvls");
    CHECK(flow.time_s == analytic.time_s);
    CHECK(flow.flows == 0);
    CHECK(fabric.bytes_started() == 0.0);
  }
  // 1 GB: S (1 + 1/8) / (450 GB/s x 0.686) + 25 us.
  network::Fabric fabric(leaf_spine(4, 8, 1.0), sprayed());
  const auto r = collective::collective_on_fabric(fabric, {0}, CollectiveOp::kAllReduce, 1e9, s, tuning,
                                                  "nvls", 8);
  CHECK(r.time_s == Approx(1e9 * 1.125 / (450e9 * 0.686) + 25e-6));
}

TEST_CASE("flow-mode point_to_point agrees with the closed form inside a node and across the fabric",
          "[models][collective][flow]") {
  const auto reg = registry();
  const auto tuning = simple_only();
  for (const char* algo : {"ring", "hierarchical"}) {
    for (int nodes : {1, 4}) {
      INFO(algo << " on " << nodes << " node(s)");
      const auto s = hgx_nodes(nodes);
      network::Fabric fabric(leaf_spine(4, 8, 1.0), sprayed());
      std::vector<network::NodeId> hosts(kHosts.begin(), kHosts.begin() + nodes);
      const auto flow = collective::collective_on_fabric(fabric, hosts, CollectiveOp::kPointToPoint, 1e9, s,
                                                         tuning, algo, 8);
      const auto analytic = collective::estimate_collective(reg, CollectiveOp::kPointToPoint, 1e9, s, tuning, algo);
      REQUIRE_FALSE(flow.failed);
      CHECK(flow.time_s == Approx(analytic.time_s).epsilon(kAgreeTol));
      // Node 0 to node 3 across the spine: the payload, once, over the 8 channels.
      CHECK(fabric.bytes_delivered() == Approx(nodes > 1 ? 1e9 / 0.94 : 0.0).epsilon(1e-9));
      CHECK(flow.flows == (nodes > 1 ? 8u : 0u));
    }
  }
}

TEST_CASE("another flow into the destination NIC halves a one-NIC point_to_point's rate",
          "[models][collective][flow]") {
  // One 400G NIC per node: the GPU's share is the whole NIC (47 GB/s after 0.94), which the
  // fabric's flow also reaches alone. A long flow from node 2 into node 3 takes half of node
  // 3's downlink under max-min, so the transfer from node 0 runs at 23.5 GB/s. ECMP: one path
  // a flow, so max-min shares per flow (spraying would share per subflow).
  const auto tuning = simple_only();
  auto s = hgx_nodes(4);
  s.nics_per_node = 1;
  const double bytes = 1e9;
  const double latency_s = (8.4 + 14.0) * 1e-6;  // Simple base + one network step
  network::Fabric quiet(leaf_spine(4, 1, 1.0), {});
  const auto alone = collective::collective_on_fabric(quiet, kHosts, CollectiveOp::kPointToPoint, bytes, s,
                                                      tuning, "ring", 1);
  CHECK(alone.time_s == Approx(bytes / 47e9 + latency_s).epsilon(1e-6));
  network::Fabric busy(leaf_spine(4, 1, 1.0), {});
  busy.start_flow(dcsim::sim::Time::zero(), 2, 3, 1e12, /*tag=*/7);
  const auto shared = collective::collective_on_fabric(busy, kHosts, CollectiveOp::kPointToPoint, bytes, s,
                                                       tuning, "ring", 1);
  CHECK(shared.time_s == Approx(2.0 * bytes / 47e9 + latency_s).epsilon(1e-6));
}
