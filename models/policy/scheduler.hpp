#pragma once
// Scheduler policy: which waiting jobs start now. Implementations register by name
// (models/register_builtin.cpp); scenario files choose one under /policies/scheduler.

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::policy {

struct WaitingJob {
  std::size_t job_index;  // index into the cluster's job list
  int nodes;              // nodes requested
  sim::Time arrival;
  sim::Time work;         // run time at nominal clock (a hint; backfilling policies use it)
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // `waiting` is in arrival order. Returns positions in `waiting` of the jobs to start now, in
  // start order; their node counts must sum to at most `free_nodes`.
  // The cluster calls it only when a job arrived or nodes were freed. Cost should be O(jobs
  // started) where the policy allows it (fifo), since queues of 1e5 jobs are routine in traces.
  virtual std::vector<std::size_t> pick(std::span<const WaitingJob> waiting, int free_nodes,
                                        sim::Time now) = 0;
};

using SchedulerFactory = std::function<std::unique_ptr<Scheduler>()>;

}  // namespace dcsim::models::policy
