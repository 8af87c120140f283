#pragma once
// What a failure predictor is told (plain data; fault_precursor.hpp says what each field does):
// a failover policy that acts on precursor signals hands it to the scenario layer.

#include <string>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::reliability {

struct PrecursorConfig {
  sim::Time lead_time = sim::Time::from_seconds(180);  // before the fault
  double precision = 0.9;                              // true alarms / all alarms, in (0, 1]
  double recall = 0.8;               // announced faults / faults of the listed classes, in [0, 1]
  std::vector<std::string> classes;  // fault classes with a precursor (FaultClass::name)
  sim::Time drain_time = sim::Time::from_seconds(3600);  // a false alarm's node out of service
};

}  // namespace dcsim::models::reliability
