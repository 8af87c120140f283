#pragma once
// The one interface through which the cluster runs every kind of job (batch, training; inference
// later): it starts when constructed, follows the clock of the job's slowest node, can be
// interrupted, and reports how much of the job is done and how much of that is saved (by
// checkpoints), so that a restart resumes from the saved point and the difference is lost work.
// Progress is in seconds of nominal work (the job's run time at clock 1, checkpoints excluded for
// training jobs: steps x nominal step time).

namespace dcsim::models::cluster {

class JobRun {
 public:
  virtual ~JobRun() = default;
  // The job's slowest node runs at `factor` (0 < f <= 1) from now on.
  virtual void set_clock_factor(double factor) = 0;
  // Stops now: no callback of this run reaches the cluster afterwards. Work in flight is lost
  // (flow mode: the step's flows already on the fabric drain; their bytes are not the job's).
  virtual void interrupt() = 0;
  // Nominal seconds of work completed up to now, and the part a restart keeps.
  virtual double done_s() const = 0;
  virtual double saved_s() const = 0;
};

}  // namespace dcsim::models::cluster
