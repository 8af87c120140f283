// Issue 15 item 9: the node-to-node transfers of a DP collective follow the algorithm the
// collective model picks (dp_flows.hpp): ring neighbours, or NCCL's double binary tree (whose
// shape tests/models/collective/flow_mode_algorithms_test.cpp checks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "../collective/flow_mode_support.hpp"
#include "models/collective/flow_collective.hpp"
#include "models/network/fabric.hpp"
#include "models/workload/dp_flows.hpp"
#include "sim/time.hpp"

namespace mw = dcsim::models::workload;

TEST_CASE("a double-tree all-reduce moves S per tree edge pair and at most 2 S out of a node", "[dp_flows]") {
  const double S = 1e6;
  for (int n : {2, 3, 8, 33, 1024}) {
    INFO("nodes " << n);
    const auto transfers = mw::double_tree_transfers(n, S / 2.0);
    // n - 1 edges per tree, two directions, two trees.
    CHECK(transfers.size() == static_cast<std::size_t>(4 * (n - 1)));
    std::vector<double> sent(static_cast<std::size_t>(n), 0.0), received(static_cast<std::size_t>(n), 0.0);
    for (const auto& t : transfers) {
      sent[static_cast<std::size_t>(t.src)] += t.bytes;
      received[static_cast<std::size_t>(t.dst)] += t.bytes;
    }
    for (int r = 0; r < n; ++r) {
      CHECK(sent[static_cast<std::size_t>(r)] <= 2.0 * S * (1 + 1e-12));  // at most 4 edges x S/2
      // Bytes in = bytes out for every node: what goes up to a parent comes back down.
      CHECK(sent[static_cast<std::size_t>(r)] == Approx(received[static_cast<std::size_t>(r)]));
    }
  }
}

TEST_CASE("a ring's transfers go to the next node, one edge per node", "[dp_flows]") {
  const auto t = mw::ring_transfers(4, 3.0);
  REQUIRE(t.size() == 4);
  CHECK(t[3].src == 3);
  CHECK(t[3].dst == 0);
  CHECK(mw::ring_transfers(1, 3.0).empty());
  CHECK(mw::double_tree_transfers(1, 3.0).empty());
}

TEST_CASE("a ring's lock-step steps as one flow per edge take the steps' time on a symmetric fabric", "[dp_flows]") {
  // The step graph puts a ring collective on the fabric as one flow per NIC per edge carrying all
  // 2 (n - 1) steps' bytes (issue 15: lock-step flows collapsed). Against flow_collective.hpp's
  // step-by-step ring on the same non-blocking fabric with packet spraying (no ECMP collisions;
  // every step waits for its slowest flow): the same time, since every edge moves at the same
  // rate in every step. (Under collisions they differ: per-step flows draw new hashes each step
  // and wait for the unluckiest, the collapsed flows keep theirs and share what frees up.)
  namespace mc = dcsim::models::collective;
  namespace net = dcsim::models::network;
  const int nodes = 4, nics = 8;
  const mc::CollectiveSystem sys = dcsim::models::flow_mode_testing::hgx_nodes(nodes);
  mc::CollectiveTuning tuning;
  const std::vector<net::NodeId> hosts{0, 1, 2, 3};
  const double S = 1e9;
  // 1:1 (NVLink sets each step) and 4:1 uplinks (the spine sets each step).
  for (const double oversubscription : {1.0, 4.0}) {
  INFO("oversubscription " << oversubscription);
  net::FabricOptions spray;
  spray.routing.mode = net::RoutingMode::kSpray;
  net::Fabric stepped(dcsim::models::flow_mode_testing::leaf_spine(nodes, nics, oversubscription), spray);
  const mc::FlowRunResult steps = mc::ring_all_reduce_on_fabric(stepped, hosts, S, sys, tuning, nics);
  REQUIRE_FALSE(steps.failed);

  net::Fabric collapsed(dcsim::models::flow_mode_testing::leaf_spine(nodes, nics, oversubscription), spray);
  const int n = nodes * 8;
  const auto transfers = mw::ring_transfers(nodes, 2.0 * (n - 1) * S / n);
  for (const auto& t : transfers) {
    for (int c = 0; c < nics; ++c) {
      collapsed.start_flow(dcsim::sim::Time::zero(), hosts[static_cast<std::size_t>(t.src)],
                           hosts[static_cast<std::size_t>(t.dst)], t.bytes / nics / tuning.network_efficiency, 1, c);
    }
  }
  std::size_t pending = transfers.size() * nics;
  dcsim::sim::Time last = dcsim::sim::Time::zero();
  std::vector<net::FinishedFlow> finished;
  while (pending > 0) {
    finished.clear();
    collapsed.advance(collapsed.next_event_time(), finished);
    for (const auto& f : finished) {
      --pending;
      last = std::max(last, f.finish);
    }
  }
  // The collapsed collective ends with the later of its flows and its NVLink part (the step
  // graph's max(nvlink_s, flows)); every lock-step step ends with the later of the same two, and
  // all steps are alike, so the sums agree, up to the nanosecond rounding of 62 step ends.
  const double nvlink_s = 2.0 * (n - 1) * (S / n) / mc::nvlink_bandwidth(sys, tuning);
  CHECK(std::max(last.seconds(), nvlink_s) == Approx(steps.bandwidth_s).margin(62e-9));
  if (oversubscription > 1.0) CHECK(last.seconds() > 1.5 * nvlink_s);
  }
}
