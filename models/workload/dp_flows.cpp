#include "models/workload/dp_flows.hpp"

namespace dcsim::models::workload {

int binary_tree_parent(int rank, int nodes) {
  if (rank <= 0 || rank >= nodes) return -1;
  const int low_bit = rank & -rank;
  const int up = (rank ^ low_bit) | (low_bit << 1);
  return up < nodes ? up : rank ^ low_bit;
}

int second_tree_parent(int rank, int nodes) {
  if (nodes % 2 == 0) {
    const int parent = binary_tree_parent(nodes - 1 - rank, nodes);
    return parent < 0 ? -1 : nodes - 1 - parent;
  }
  const int parent = binary_tree_parent((rank - 1 + nodes) % nodes, nodes);
  return parent < 0 ? -1 : (parent + 1) % nodes;
}

std::vector<NodeTransfer> ring_transfers(int nodes, double edge_bytes) {
  std::vector<NodeTransfer> out;
  if (nodes < 2) return out;
  for (int i = 0; i < nodes; ++i) out.push_back({i, (i + 1) % nodes, edge_bytes});
  return out;
}

std::vector<NodeTransfer> double_tree_transfers(int nodes, double half_bytes) {
  std::vector<NodeTransfer> out;
  if (nodes < 2) return out;
  for (int tree = 0; tree < 2; ++tree) {
    for (int r = 0; r < nodes; ++r) {
      const int parent = tree == 0 ? binary_tree_parent(r, nodes) : second_tree_parent(r, nodes);
      if (parent < 0) continue;
      out.push_back({r, parent, half_bytes});  // reduce up
      out.push_back({parent, r, half_bytes});  // broadcast down
    }
  }
  return out;
}

}  // namespace dcsim::models::workload
