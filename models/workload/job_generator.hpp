#pragma once
// Synthetic job streams: Poisson-like arrivals with a work-time distribution, the classic
// open-system workload of batch-scheduler studies. Draws come from the stream
// (seed, "workload/generator/<name>"), so each generator's jobs do not depend on any other.

#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/job_spec.hpp"
#include "sim/distribution.hpp"
#include "sim/time.hpp"

namespace dcsim::models::workload {

struct JobGeneratorConfig {
  std::string name = "generated";     // job names are "<name>-<index>"
  int count = 0;                      // jobs to generate
  sim::Time start = sim::Time::zero();  // arrival of the first job
  sim::Distribution interarrival_s;   // seconds between arrivals
  sim::Distribution work_s;           // run time at nominal clock, seconds (>= 1 ns)
  std::vector<int> node_choices{1};   // nodes per job, drawn uniformly from this list
  double gpu_utilization = 1.0;
};

std::vector<JobSpec> generate_jobs(const JobGeneratorConfig& config, std::uint64_t scenario_seed);

}  // namespace dcsim::models::workload
