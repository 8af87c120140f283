#include "models/cluster/wait_queue.hpp"

#include <algorithm>

namespace dcsim::models::cluster {

void WaitQueue::insert(const policy::WaitingJob& w) {
  const auto before = [](const policy::WaitingJob& a, const policy::WaitingJob& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.arrival != b.arrival ? a.arrival < b.arrival : a.job_index < b.job_index;
  };
  if (head_ == jobs_.size() || !before(w, jobs_.back())) {
    jobs_.push_back(w);
    return;
  }
  jobs_.insert(std::upper_bound(jobs_.begin() + static_cast<std::ptrdiff_t>(head_), jobs_.end(), w, before), w);
}

void WaitQueue::push_front(const policy::WaitingJob& w) {
  if (head_ > 0) {
    jobs_[--head_] = w;
  } else {
    jobs_.insert(jobs_.begin(), w);
  }
}

void WaitQueue::remove_started(std::vector<std::size_t> sorted) {
  std::sort(sorted.begin(), sorted.end());
  if (sorted.back() + 1 == sorted.size()) {
    head_ += sorted.size();  // a prefix: fifo's case, O(1)
  } else {
    std::size_t out = head_;
    std::size_t next_started = 0;
    const std::size_t live = jobs_.size() - head_;
    for (std::size_t i = 0; i < live; ++i) {
      if (next_started < sorted.size() && sorted[next_started] == i) {
        ++next_started;
      } else {
        jobs_[out++] = jobs_[head_ + i];
      }
    }
    jobs_.resize(out);
  }
  // Compact once the dead prefix dominates: amortised O(1) per started job.
  if (head_ > 1024 && head_ * 2 > jobs_.size()) {
    jobs_.erase(jobs_.begin(), jobs_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void WaitQueue::erase_job(std::size_t job_index) {
  const auto it = std::find_if(jobs_.begin() + static_cast<std::ptrdiff_t>(head_), jobs_.end(),
                               [job_index](const policy::WaitingJob& w) { return w.job_index == job_index; });
  if (it != jobs_.end()) jobs_.erase(it);
}

}  // namespace dcsim::models::cluster
