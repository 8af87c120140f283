#pragma once
// The stages of one interruption before the failover policy's restart (issue 40 item 5):
// detection, the job hung until a heartbeat or watchdog notices, and diagnosis, finding and
// excluding the faulty part. The node owner adds them to the job's restart delay (the job holds
// its GPUs meanwhile) and reports them apart (reliability/recovery_stages.hpp draws them).

#include "sim/time.hpp"

namespace dcsim::models::seams {

struct RecoveryDelay {
  sim::Time detection;
  sim::Time diagnosis;
  sim::Time total() const { return detection + diagnosis; }
};

}  // namespace dcsim::models::seams
