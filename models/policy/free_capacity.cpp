#include "models/policy/free_capacity.hpp"

#include <algorithm>

namespace dcsim::models::policy {

FreeCapacity::FreeCapacity(const ClusterView& view)
    : view_(view), free_gpus_(view.free_gpus()), whole_free_(static_cast<int>(view.free_nodes().size())) {}

int FreeCapacity::free_gpus_on(int node) const {
  int free = view_.node(node).free_gpus;
  if (used_.size() <= kScanLimit) {
    for (const auto& [n, g] : used_) {
      if (n == node) free -= g;
    }
    return free;
  }
  const auto n = static_cast<std::size_t>(node);
  return n < taken_by_node_.size() ? free - taken_by_node_[n] : free;
}

bool FreeCapacity::whole_free(int node) const {
  const NodeState& s = view_.node(node);
  return s.schedulable() && s.free_gpus == s.gpus && free_gpus_on(node) == s.gpus;
}

std::vector<int> FreeCapacity::whole_free_list() const {
  std::vector<int> out;
  const auto free = view_.free_nodes();
  for (std::size_t i = cursor_; i < free.size(); ++i) {
    if (free_gpus_on(free[i]) == view_.node(free[i]).gpus) out.push_back(free[i]);
  }
  return out;
}

void FreeCapacity::take_gpus(int node, int gpus) {
  const bool was_whole = whole_free(node);
  used_.emplace_back(node, gpus);
  if (used_.size() == kScanLimit + 1) {
    for (const auto& [n, g] : used_) count_taken(n, g);
  } else if (used_.size() > kScanLimit + 1) {
    count_taken(node, gpus);
  }
  free_gpus_ -= gpus;
  if (was_whole) --whole_free_;
}

void FreeCapacity::count_taken(int node, int gpus) {
  const auto n = static_cast<std::size_t>(node);
  if (n >= taken_by_node_.size()) {
    taken_by_node_.resize(std::max(n + 1, static_cast<std::size_t>(view_.node_count())), 0);
  }
  taken_by_node_[n] += gpus;
}

std::optional<std::vector<int>> FreeCapacity::take_nvlink_aligned(const WaitingJob& job) {
  const auto b = static_cast<std::size_t>(job.nvlink_block_nodes);
  const int d = view_.nodes_per_nvlink_domain();
  const auto want = static_cast<std::size_t>(job.nodes);
  std::vector<int> nodes, run;  // run: the free whole nodes of the domain being walked
  const auto flush = [&] {
    for (std::size_t k = 0; k + b <= run.size() && nodes.size() < want; k += b) {
      nodes.insert(nodes.end(), run.begin() + static_cast<std::ptrdiff_t>(k),
                   run.begin() + static_cast<std::ptrdiff_t>(k + b));
    }
    run.clear();
  };
  const auto free = view_.free_nodes();
  int domain = -1;
  for (std::size_t i = cursor_; i < free.size() && nodes.size() < want; ++i) {
    const int n = free[i];
    if (free_gpus_on(n) != view_.node(n).gpus) continue;
    if (n / d != domain) {
      flush();
      domain = n / d;
    }
    run.push_back(n);
  }
  flush();
  if (nodes.size() < want) return std::nullopt;
  // Skipped nodes stay free: the cursor does not move.
  for (int n : nodes) take_gpus(n, job.gpus_per_node);
  return nodes;
}

std::optional<std::vector<int>> FreeCapacity::take_default(const WaitingJob& job) {
  if (job.gpus() > free_gpus_) return std::nullopt;
  std::vector<int> nodes;
  if (job.gpus_per_node >= view_.gpus_per_node()) {
    if (job.nodes > whole_free_) return std::nullopt;
    if (job.nvlink_block_nodes > 1 && view_.nodes_per_nvlink_domain() > 1) return take_nvlink_aligned(job);
    const auto free = view_.free_nodes();
    std::size_t i = cursor_;
    for (; i < free.size() && static_cast<int>(nodes.size()) < job.nodes; ++i) {
      if (free_gpus_on(free[i]) == view_.node(free[i]).gpus) nodes.push_back(free[i]);
    }
    if (static_cast<int>(nodes.size()) < job.nodes) return std::nullopt;
    // Nodes skipped before i were taken earlier in this call: the cursor may pass them.
    cursor_ = i;
    for (int n : nodes) take_gpus(n, job.gpus_per_node);
    return nodes;
  }
  // Smaller than a node: best fit per node, distinct nodes.
  std::vector<std::pair<int, int>> candidates;  // (free GPUs, node)
  for (int n = 0; n < view_.node_count(); ++n) {
    if (!view_.node(n).schedulable()) continue;
    const int free = free_gpus_on(n);
    if (free >= job.gpus_per_node) candidates.emplace_back(free, n);
  }
  if (static_cast<int>(candidates.size()) < job.nodes) return std::nullopt;
  std::partial_sort(candidates.begin(), candidates.begin() + job.nodes, candidates.end());
  for (int k = 0; k < job.nodes; ++k) nodes.push_back(candidates[static_cast<std::size_t>(k)].second);
  for (int n : nodes) take_gpus(n, job.gpus_per_node);
  return nodes;
}

bool FreeCapacity::take(const WaitingJob& job, const std::vector<int>& nodes) {
  if (static_cast<int>(nodes.size()) != job.nodes) return false;
  if (!nvlink_aligned(nodes, job.nvlink_block_nodes, view_.nodes_per_nvlink_domain())) return false;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const int n = nodes[i];
    if (n < 0 || n >= view_.node_count() || !view_.node(n).schedulable() || free_gpus_on(n) < job.gpus_per_node) return false;
    if (std::find(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(i), n) != nodes.begin() + static_cast<std::ptrdiff_t>(i)) return false;
  }
  for (int n : nodes) take_gpus(n, job.gpus_per_node);
  return true;
}

}  // namespace dcsim::models::policy
