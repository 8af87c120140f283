#pragma once
// Couples a facility to the cluster through the seams alone (models/seams/): the facility owns
// node power (NodePowerSource), tells placement how hot nodes run and how much their racks may
// still draw (NodeConditions), and slows nodes through the cluster's clocks (NodeClock). The
// assembly does this; tests and benchmarks that build the two by hand call it too.

#include "models/cluster/cluster_simulation.hpp"
#include "models/facility/facility_simulation.hpp"
#include "sim/time.hpp"

namespace dcsim::models::datacenter {

// Call before either starts. `duration` bounds the facility's ticks (max: while jobs remain).
inline void couple_facility(cluster::ClusterSimulation& cluster, facility::FacilitySimulation& facility, sim::Time duration) {
  cluster.set_power_source(&facility);
  cluster.set_node_conditions(&facility);
  facility.attach(cluster, duration);
}

}  // namespace dcsim::models::datacenter
