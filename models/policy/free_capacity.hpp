#pragma once
// What is still free while a policy builds one decision: the view's free capacity minus the
// placements made so far in this call. Shared by the registered schedulers so that each decides
// only its order and its node preference.
//
// Cost: whole-node jobs take from the view's sorted free-node list through a cursor, O(nodes
// taken) (skipping nodes a partial job took this call); a job smaller than a node scans the nodes
// once, O(cluster nodes), and picks best fit (the fewest free GPUs that suffice), which keeps whole
// nodes free for whole-node jobs (Weng et al., ATC'23: fragmentation is what strands GPUs).
// What this call took is looked up per node: by a scan while it is a few nodes (no allocation,
// the common case of a queue of small jobs), through a table by node id once it is more, so a
// 2,048-node job placed after a fault costs O(nodes), not O(nodes^2) as a scan of every node taken
// would. The table is one allocation of the cluster's node count per call that needs it (a hash
// map cost an allocation per node taken: most of a 1e6-job backfill run's malloc time).

#include <optional>
#include <utility>
#include <vector>

#include "models/policy/cluster_view.hpp"
#include "models/policy/scheduler.hpp"

namespace dcsim::models::policy {

class FreeCapacity {
 public:
  explicit FreeCapacity(const ClusterView& view);

  int free_gpus() const { return free_gpus_; }
  int whole_free_nodes() const { return whole_free_; }
  // Free GPUs on `node` now, this call's placements counted.
  int free_gpus_on(int node) const;
  bool whole_free(int node) const;

  // Healthy whole free nodes not taken in this call, ascending (a copy: for policies that order
  // nodes their own way).
  std::vector<int> whole_free_list() const;

  // The lowest-numbered nodes that fit `job` (whole-node jobs), or best-fit nodes (smaller jobs);
  // taken when found. Nothing is taken when the job does not fit. A job with NVLink blocks
  // (WaitingJob::nvlink_block_nodes) gets whole blocks from one domain each, lowest domains
  // first: a domain with 17 free trays holds 8 blocks of 2, and the 17th waits.
  std::optional<std::vector<int>> take_default(const WaitingJob& job);
  // Takes exactly these nodes for `job`; false (nothing taken) when one does not have room, or
  // when they split one of its NVLink blocks over two domains.
  bool take(const WaitingJob& job, const std::vector<int>& nodes);

 private:
  void take_gpus(int node, int gpus);
  // take_default's whole-node path for a job with NVLink blocks: O(free nodes).
  std::optional<std::vector<int>> take_nvlink_aligned(const WaitingJob& job);

  const ClusterView& view_;
  int free_gpus_ = 0;
  int whole_free_ = 0;
  std::size_t cursor_ = 0;  // into view.free_nodes(): those before it were taken
  // Adds to taken_by_node_, grown to cover `node` (cloud instances come after the on-prem nodes).
  void count_taken(int node, int gpus);

  // GPUs taken in this call: (node, GPUs) in order, and by node id once there are more than
  // kScanLimit entries (empty before).
  static constexpr std::size_t kScanLimit = 32;
  std::vector<std::pair<int, int>> used_;
  std::vector<int> taken_by_node_;
};

// Places waiting jobs in queue order until one does not fit (head-of-line blocking): fifo and
// the placement-preference policies, which differ only in `place(view, free, job)` (the nodes
// for one job, taken from `free`, or nullopt).
template <class Place>
std::vector<Placement> place_in_arrival_order(const ClusterView& view, Place&& place) {
  std::vector<Placement> out;
  FreeCapacity free(view);
  const auto waiting = view.waiting();
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    auto nodes = place(view, free, waiting[i]);
    if (!nodes) break;
    out.push_back({i, std::move(*nodes)});
  }
  return out;
}

// Places waiting jobs in queue order on the default nodes (take_default) until one does not fit;
// returns the position of that job (the blocked head), or the queue's length when all fit. The
// first step of the policies that then do more for the head (reserve, preempt).
inline std::size_t place_queue_prefix(const ClusterView& view, FreeCapacity& free, std::vector<Placement>& out) {
  const auto waiting = view.waiting();
  std::size_t head = 0;
  for (; head < waiting.size(); ++head) {
    auto nodes = free.take_default(waiting[head]);
    if (!nodes) break;
    out.push_back({head, std::move(*nodes)});
  }
  return head;
}

}  // namespace dcsim::models::policy
