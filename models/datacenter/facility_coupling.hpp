#pragma once
// Couples a facility to the cluster through the seams alone (models/seams/): the facility owns
// node power (NodePowerSource), tells placement how hot nodes run and how much their racks may
// still draw (NodeConditions), and slows nodes through the cluster's clocks (NodeClock). The
// assembly does this; tests and benchmarks that build the two by hand call it too.

#include "models/cluster/cluster_simulation.hpp"
#include "models/facility/facility_simulation.hpp"
#include "sim/time.hpp"

namespace dcsim::models::datacenter {

// Call before either starts, with whatever else the cluster connects to (`links`: it connects
// once). `duration` bounds the facility's ticks (max: while jobs remain).
inline void couple_facility(cluster::ClusterSimulation& cluster, facility::FacilitySimulation& facility,
                            sim::Time duration, cluster::ClusterConnections links = {}) {
  links.power_source = &facility;
  links.node_conditions = &facility;
  cluster.connect(links);
  facility.attach(cluster, duration);
}

}  // namespace dcsim::models::datacenter
