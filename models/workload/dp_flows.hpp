#pragma once
// Which node talks to which in one data-parallel collective across nodes (issue 15, item 9): the
// step graph (step_graph.hpp) puts these node-to-node transfers on the fabric as flows, following
// the algorithm the collective model picks for the collective, not always a ring.
//
//   ring    (ring all_reduce, reduce_scatter, all_gather; hierarchical's network phase, one
//           ring per rail, which between nodes is the same neighbour pattern): node i sends to
//           node i + 1 (mod n), each edge carrying what the lock-step ring sends over it.
//   double binary tree (NCCL_ALGO_TREE all_reduce; tree_algorithm.hpp): two binary trees over
//           the n nodes, each reducing half of the data up to its root and broadcasting it back
//           down, so every tree edge carries half the bytes in each direction. The first tree
//           is the in-order binary tree of ranks 0..n-1 (the parent of r is r with its lowest
//           set bit b cleared and 2b set, or only b cleared when that is past the last rank;
//           rank 0 is the root); the second is its mirror (rank r plays n-1-r) for even n and
//           its shift by one for odd n, so a node interior in one tree is a leaf in the other
//           (NCCL, "Massively Scale Your Deep Learning Training with NCCL 2.4"). A node then
//           sends at most 2 S in all, as the tree model's bandwidth assumes, over up to 2 + 2
//           children and 2 parents, in log2 n levels instead of the ring's n - 1 steps.

#include <vector>

namespace dcsim::models::workload {

struct NodeTransfer {
  int src = 0;  // node index within the collective's group, 0..n-1
  int dst = 0;
  double bytes = 0.0;
};

// Parent of `rank` in the in-order binary tree over `nodes` ranks; -1 for the root (rank 0).
int binary_tree_parent(int rank, int nodes);
// Parent of `rank` in the second tree of the double binary tree; -1 for its root.
int second_tree_parent(int rank, int nodes);

// Ring edges, `edge_bytes` each (empty for fewer than 2 nodes).
std::vector<NodeTransfer> ring_transfers(int nodes, double edge_bytes);
// Both trees, both directions: `half_bytes` (half the collective's data) per tree edge and
// direction (empty for fewer than 2 nodes).
std::vector<NodeTransfer> double_tree_transfers(int nodes, double half_bytes);

}  // namespace dcsim::models::workload
