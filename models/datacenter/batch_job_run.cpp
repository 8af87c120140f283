#include "models/datacenter/batch_job_run.hpp"

namespace dcsim::models::datacenter {

BatchJobRun::BatchJobRun(sim::Simulator& sim, double work_s, double clock_factor, std::function<void()> on_done)
    : work_(sim, work_s, clock_factor, [done = std::move(on_done)](sim::Activity&) { done(); }) {}

void BatchJobRun::set_clock_factor(double factor) {
  if (!work_.done() && !work_.cancelled()) work_.set_rate(factor);
}

}  // namespace dcsim::models::datacenter
