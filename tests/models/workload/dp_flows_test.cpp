// Issue 15 item 9: the node-to-node transfers of a DP collective follow the algorithm the
// collective model picks (dp_flows.hpp): ring neighbours, or NCCL's double binary tree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "models/workload/dp_flows.hpp"

namespace mw = dcsim::models::workload;

namespace {

// Children of each rank in one tree, from its parent function.
std::vector<int> child_counts(int n, int (*parent)(int, int)) {
  std::vector<int> children(static_cast<std::size_t>(n), 0);
  for (int r = 0; r < n; ++r) {
    const int p = parent(r, n);
    if (p >= 0) ++children[static_cast<std::size_t>(p)];
  }
  return children;
}

// Every rank reaches the root in at most n hops (no cycles), exactly one root.
bool is_tree(int n, int (*parent)(int, int)) {
  int roots = 0;
  for (int r = 0; r < n; ++r) {
    int hops = 0;
    for (int x = r; parent(x, n) >= 0; x = parent(x, n)) {
      if (++hops > n) return false;
    }
    roots += parent(r, n) < 0 ? 1 : 0;
  }
  return roots == 1;
}

}  // namespace

TEST_CASE("the in-order binary tree over 8 nodes, by hand", "[dp_flows]") {
  // Lowest set bit b of r: parent (r - b) + 2b, or r - b past the last rank.
  // 0 <- 4; 4 <- 2, 6; 2 <- 1, 3; 6 <- 5, 7.
  const int expected[8] = {-1, 2, 4, 2, 0, 6, 4, 6};
  for (int r = 0; r < 8; ++r) CHECK(mw::binary_tree_parent(r, 8) == expected[r]);
  // The mirror: rank r plays 7 - r, so the leaves (odd ranks) of the first are its inner nodes.
  const int mirror[8] = {1, 3, 1, 7, 5, 3, 5, -1};
  for (int r = 0; r < 8; ++r) CHECK(mw::second_tree_parent(r, 8) == mirror[r]);
}

TEST_CASE("both trees are trees and no node is inner in both, for every group size up to 300", "[dp_flows]") {
  for (int n = 2; n <= 300; ++n) {
    INFO("nodes " << n);
    CHECK(is_tree(n, mw::binary_tree_parent));
    CHECK(is_tree(n, mw::second_tree_parent));
    const auto a = child_counts(n, mw::binary_tree_parent);
    const auto b = child_counts(n, mw::second_tree_parent);
    int inner_in_both = 0;
    for (int r = 0; r < n; ++r) {
      CHECK(a[static_cast<std::size_t>(r)] <= 2);
      CHECK(b[static_cast<std::size_t>(r)] <= 2);
      inner_in_both += a[static_cast<std::size_t>(r)] > 0 && b[static_cast<std::size_t>(r)] > 0 ? 1 : 0;
    }
    // NCCL's construction leaves at most one node inner in both (the odd shift's seam).
    CHECK(inner_in_both <= 1);
  }
}

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
      CHECK(sent[static_cast<std::size_t>(r)] <= 2.0 * S * (1 + 1e-12) + (n % 2 == 1 ? S : 0.0));
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
