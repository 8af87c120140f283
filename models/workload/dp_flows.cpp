#include "models/workload/dp_flows.hpp"

#include "models/collective/flow_collective.hpp"

namespace dcsim::models::workload {

std::vector<NodeTransfer> ring_transfers(int nodes, double edge_bytes) {
  std::vector<NodeTransfer> out;
  if (nodes < 2) return out;
  for (int i = 0; i < nodes; ++i) out.push_back({i, (i + 1) % nodes, edge_bytes});
  return out;
}

std::vector<NodeTransfer> double_tree_transfers(int nodes, double half_bytes) {
  std::vector<NodeTransfer> out;
  if (nodes < 2) return out;
  const collective::DoubleBinaryTree tree = collective::double_binary_tree(nodes);
  for (const auto& parent : tree.parent) {
    for (int r = 0; r < nodes; ++r) {
      const int p = parent[static_cast<std::size_t>(r)];
      if (p < 0) continue;
      out.push_back({r, p, half_bytes});  // reduce up
      out.push_back({p, r, half_bytes});  // broadcast down
    }
  }
  return out;
}

}  // namespace dcsim::models::workload
