#pragma once
// A batch job's run: one block of work (an Activity in nominal seconds whose rate is the clock
// factor of the job's slowest node). Batch jobs do not checkpoint: a restart starts over, so an
// interruption loses everything done in this run.

#include <functional>
#include <memory>

#include "models/datacenter/job_run.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::datacenter {

class BatchJobRun final : public JobRun {
 public:
  BatchJobRun(sim::Simulator& sim, double work_s, double clock_factor, std::function<void()> on_done);

  void set_clock_factor(double factor) override;
  void interrupt() override { work_.cancel(); }
  double done_s() const override { return work_.total_work() - work_.remaining(); }
  double saved_s() const override { return 0.0; }

 private:
  sim::Activity work_;
};

}  // namespace dcsim::models::datacenter
