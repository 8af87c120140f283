#pragma once
// The cluster's queue of waiting jobs, in the order schedulers see them (policy::ClusterView::
// waiting): higher priority first, then earlier arrival, then lower job index; a job resumed
// from its checkpoint may be put ahead of all of them.
//
// Layout: a vector whose live part starts at a head index. Jobs started from the front (fifo's
// case) only advance the head, so a long queue costs nothing per event; the dead prefix is
// dropped once it dominates (amortised O(1) per started job).
// Cost: insert O(1) when the job goes last (arrivals of equal priority: the common case), else
// O(queue); push_front O(1) while a started prefix left room, else O(queue); remove_started
// O(1) for a prefix, else O(queue); erase_job O(queue).

#include <cstddef>
#include <span>
#include <vector>

#include "models/policy/cluster_view.hpp"

namespace dcsim::models::cluster {

class WaitQueue {
 public:
  // In queue order (after the last job that does not come after it).
  void insert(const policy::WaitingJob& w);
  // Ahead of every waiting job.
  void push_front(const policy::WaitingJob& w);
  // Removes the jobs at these positions (of jobs(), distinct, any order): they started.
  void remove_started(std::vector<std::size_t> positions);
  // Removes the job if it waits.
  void erase_job(std::size_t job_index);

  std::span<const policy::WaitingJob> jobs() const { return {jobs_.data() + head_, jobs_.size() - head_}; }
  const policy::WaitingJob& operator[](std::size_t position) const { return jobs_[head_ + position]; }
  std::size_t size() const { return jobs_.size() - head_; }
  bool empty() const { return head_ == jobs_.size(); }

 private:
  std::vector<policy::WaitingJob> jobs_;
  std::size_t head_ = 0;
};

}  // namespace dcsim::models::cluster
