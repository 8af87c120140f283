#pragma once
// A batch job as the foundation's cluster model sees it: it asks for whole nodes, arrives at a
// time, and has a fixed amount of work expressed as its run time at nominal clock. Running on a
// throttled GPU (clock factor < 1) stretches it: the work is an Activity whose rate is the clock.

#include <string>

#include "sim/time.hpp"

namespace dcsim::models::workload {

struct JobSpec {
  std::string name;
  sim::Time arrival = sim::Time::zero();
  int nodes = 1;
  sim::Time work = sim::Time::zero();  // run time at nominal clock
  double gpu_utilization = 1.0;        // mean utilisation of the job's GPUs while it runs, 0..1
};

}  // namespace dcsim::models::workload
