#pragma once
// A batch job's run: its work (in nominal seconds) as Activities whose rate is the clock factor
// of the job's slowest node. Batch jobs do not checkpoint: a restart starts over, so an
// interruption loses everything done in this run.
//
// Utilisation profile (JobSpec::utilization_profile): the work runs as one piece per phase, the
// phases repeating in order until the work is done; at the start of every phase after the first
// the run reports the phase's utilisation (on_phase), so the nodes' power follows it. Phase
// lengths are nominal work: a throttled clock stretches them like the rest of the work.

#include <functional>
#include <memory>
#include <vector>

#include "models/cluster/job_run.hpp"
#include "models/workload/job_spec.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

class BatchJobRun final : public JobRun {
 public:
  // Without a profile, one block of work. With one, the caller has set the first phase's
  // utilisation; on_phase is called with each later phase's.
  BatchJobRun(sim::Simulator& sim, double work_s, double clock_factor, std::function<void()> on_done,
              std::vector<workload::UtilizationPhase> profile = {}, std::function<void(double)> on_phase = nullptr);

  void set_clock_factor(double factor) override;
  void interrupt() override;
  double done_s() const override;
  double saved_s() const override { return 0.0; }

 private:
  void start_piece();
  void on_piece_done();

  sim::Simulator& sim_;
  double work_s_;
  double clock_factor_;
  std::function<void()> on_done_;
  std::vector<workload::UtilizationPhase> profile_;
  std::function<void(double)> on_phase_;
  std::size_t phase_ = 0;
  double done_before_s_ = 0.0;  // work of the pieces completed
  std::unique_ptr<sim::Activity> piece_;
};

}  // namespace dcsim::models::cluster
