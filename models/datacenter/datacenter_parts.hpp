#pragma once
// The parts of a datacenter (datacenter.hpp) as the subsystem registrations (subsystems.cpp) see
// them: the seams through which subsystems act on the models that own the parts (models/seams/:
// the cluster takes nodes down and interrupts jobs, the facility stops a zone's heat removal) and
// the networks, which the registrations hand on as seams (seams::FlowNetwork, FabricFaults). A
// subsystem sees these seams, never the cluster's, the facility's or the network's class.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/network/fabric_simulation.hpp"
#include "models/network/topology.hpp"
#include "models/network/uplink_transport.hpp"
#include "models/seams/checkpoint_gate.hpp"
#include "models/seams/checkpoint_store.hpp"
#include "models/seams/node_fault_target.hpp"
#include "models/seams/service_job_host.hpp"
#include "models/seams/zone_cooling_target.hpp"

namespace dcsim::models::datacenter {

// The parts a datacenter simulates; any may be null (that part is not in the scenario).
struct DatacenterParts {
  seams::NodeFaultTarget* nodes = nullptr;
  network::FabricSimulation* fabric = nullptr;
  const network::Topology* topology = nullptr;  // with fabric
  network::FabricSimulation* frontend = nullptr;         // the front-end network, when there is one
  const network::Topology* frontend_topology = nullptr;  // with frontend
  seams::ZoneCoolingTarget* zones = nullptr;
  seams::CheckpointGate* checkpoints = nullptr;  // with a cluster
  seams::ServiceJobHost* service_jobs = nullptr;  // with a cluster
  seams::CheckpointStoreHost* checkpoint_store_host = nullptr;  // with a cluster
};

}  // namespace dcsim::models::datacenter
