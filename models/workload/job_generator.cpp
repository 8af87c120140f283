#include "models/workload/job_generator.hpp"

#include <algorithm>

#include "sim/error.hpp"
#include "sim/random.hpp"

namespace dcsim::models::workload {

std::vector<JobSpec> generate_jobs(const JobGeneratorConfig& config, std::uint64_t scenario_seed) {
  if (config.count < 0) throw sim::ConfigError("count", "must be >= 0");
  if (config.node_choices.empty()) throw sim::ConfigError("nodes", "must list at least one size");
  // Separate streams per purpose: changing the work distribution leaves arrivals unchanged.
  const std::string path = "workload/generator/" + config.name;
  sim::RandomStream arrivals(scenario_seed, path, "interarrival");
  sim::RandomStream works(scenario_seed, path, "work");
  sim::RandomStream sizes(scenario_seed, path, "nodes");

  std::vector<JobSpec> jobs;
  jobs.reserve(static_cast<std::size_t>(config.count));
  sim::Time arrival = config.start;
  for (int i = 0; i < config.count; ++i) {
    if (i > 0) arrival += sim::Time::from_seconds(std::max(0.0, config.interarrival_s.sample(arrivals)));
    JobSpec job;
    job.name = config.name + "-" + std::to_string(i);
    job.arrival = arrival;
    // A job of no work is meaningless and would finish before it starts: at least 1 ns.
    job.work = std::max(sim::Time::from_ns(1), sim::Time::from_seconds(config.work_s.sample(works)));
    job.nodes = config.node_choices[sizes.uniform_int(config.node_choices.size())];
    job.gpu_utilization = config.gpu_utilization;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace dcsim::models::workload
