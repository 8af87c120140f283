#pragma once
// The cluster's jobs as its collaborators read them (service_jobs.hpp, silent_corruption.hpp,
// elastic_failover.hpp), by index in its job list: the core answers (cluster_simulation.hpp:
// ClusterJobs), a collaborator's test by hand.

#include <cstddef>
#include <vector>

namespace dcsim::models::cluster {

class JobTable {
 public:
  // Running: holding its nodes (its run may not have begun); stepping: its run has begun.
  virtual bool running(std::size_t job) const = 0;
  virtual bool stepping(std::size_t job) const = 0;
  // The nodes of its latest start, stage-major.
  virtual const std::vector<int>& nodes(std::size_t job) const = 0;
  // Training jobs: the nominal step time of the plan it runs now (a shrunk elastic job's own),
  // and the latest checkpoint step it can restart from at or before `step` (0: none).
  virtual double step_time_s(std::size_t job) const = 0;
  virtual int clean_checkpoint(std::size_t job, int step) const = 0;

 protected:
  ~JobTable() = default;
};

}  // namespace dcsim::models::cluster
