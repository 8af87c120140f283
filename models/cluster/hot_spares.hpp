#pragma once
// The failover policy's hot spares (FailoverPolicy::spare_nodes): nodes held out of the
// scheduler's pool, ready to replace a failed or drained node of a running job at once. A spare
// that replaces one becomes an ordinary node for good; a repaired node becomes a spare in its
// place while the pool is short of its target. The nodes' own flags (NodeState::spare) stay the
// NodePool's (node_pool.hpp), which holds this: the count and the list the policy reads.
//
// Cost: O(spares) per change (a sorted list of a handful of nodes).

#include <algorithm>
#include <vector>

namespace dcsim::models::cluster {

class HotSpares {
 public:
  HotSpares() = default;
  // `target` spares, the nodes first .. first + target - 1.
  HotSpares(int first, int target) : target_(target), total_(target) {
    for (int node = first; node < first + target; ++node) ready_.push_back(node);
  }

  int target() const { return target_; }
  // Healthy, undrained, unused spares, ascending: what the policy may resume a job on.
  const std::vector<int>& ready() const { return ready_; }
  bool is_ready(int node) const { return std::binary_search(ready_.begin(), ready_.end(), node); }
  // A spare stops being ready (down, drained) or is ready again.
  void set_ready(int node, bool ready) {
    const auto it = std::lower_bound(ready_.begin(), ready_.end(), node);
    if (ready) {
      ready_.insert(it, node);
    } else {
      ready_.erase(it);
    }
  }
  // The ready spare replaced a node of a job: an ordinary node from now on.
  void use(int node) {
    set_ready(node, false);
    --total_;
  }
  // A node is back from repair: true when it becomes a spare (fewer than the target are).
  bool refill() {
    if (total_ >= target_) return false;
    ++total_;
    return true;
  }

 private:
  int target_ = 0;
  int total_ = 0;  // nodes flagged spare, down ones included
  std::vector<int> ready_;
};

}  // namespace dcsim::models::cluster
