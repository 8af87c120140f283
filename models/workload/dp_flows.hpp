#pragma once
// Which node talks to which in one data-parallel collective across nodes (issue 15, item 9): the
// step graph (step_graph.hpp) puts these node-to-node transfers on the fabric as flows, following
// the algorithm the collective model picks for the collective, not always a ring.
//
//   ring    (ring all_reduce, reduce_scatter, all_gather; hierarchical's network phase, one
//           ring per rail, which between nodes is the same neighbour pattern): node i sends to
//           node i + 1 (mod n), each edge carrying what the lock-step ring sends over it.
//   double binary tree (NCCL_ALGO_TREE all_reduce, tree_algorithm.hpp): the two trees of
//           collective::double_binary_tree over the group's nodes, each reducing half of the
//           data up to its root and broadcasting it back down, so every tree edge carries half
//           the bytes in each direction, as flow_collective.hpp runs it.

#include <vector>

namespace dcsim::models::workload {

struct NodeTransfer {
  int src = 0;  // node index within the collective's group, 0..n-1
  int dst = 0;
  double bytes = 0.0;
};

// Ring edges, `edge_bytes` each (empty for fewer than 2 nodes).
std::vector<NodeTransfer> ring_transfers(int nodes, double edge_bytes);
// Both trees, both directions: `half_bytes` (half the collective's data) per tree edge and
// direction (empty for fewer than 2 nodes).
std::vector<NodeTransfer> double_tree_transfers(int nodes, double half_bytes);

}  // namespace dcsim::models::workload
