#pragma once
// What a datacenter run is made of, as plain configs (the scenario layer maps a scenario file to
// this; models never see JSON). Every part is optional: a fabric-only study has no cluster, a
// cluster without /facility uses the linear node power model.

#include <cstdint>
#include <optional>
#include <vector>

#include "models/cluster/cluster_config.hpp"
#include "models/datacenter/nvmeof_namespaces_config.hpp"
#include "models/economics/economics_config.hpp"
#include "models/facility/facility_config.hpp"
#include "models/inference/service_config.hpp"
#include "models/network/fabric_run.hpp"
#include "models/network/uplink_config.hpp"
#include "models/reliability/fault_class.hpp"
#include "models/reliability/scripted_node_fault.hpp"
#include "models/storage/storage_config.hpp"
#include "sim/time.hpp"

namespace dcsim::models::datacenter {

struct DatacenterConfig {
  std::uint64_t seed = 1;                   // every random stream derives from it
  sim::Time duration = sim::Time::max();    // max(): until no work is left
  std::optional<models::cluster::ClusterConfig> cluster;
  // Cluster node i is fabric host i: training jobs then run their traffic as flows on it.
  std::optional<network::FabricRunConfig> fabric;
  // The nodes' front-end network (their storage NICs; cluster node i is its host i, hosts beyond
  // the nodes are stores): checkpoints that name it go there as flows, off the backend's links.
  // Reported under "frontend/" (its name is set to that); needs the cluster.
  std::optional<network::FabricRunConfig> frontend;
  std::optional<facility::FacilityConfig> facility;         // needs the cluster
  std::optional<reliability::FaultModelConfig> reliability;  // random faults
  std::vector<reliability::ScriptedNodeFault> node_faults;                 // scripted, in time order; need the cluster
  // The site's internet ports and what crosses them; economics bills these ports' fees.
  std::optional<network::UplinkConfig> uplink;
  std::optional<economics::EconomicsConfig> economics;        // cost of owning vs renting; needs the cluster
  // Inference services, their replicas jobs of the cluster (inference/inference_subsystem.hpp); need the cluster.
  std::vector<inference::ServiceConfig> inference;
  // The shared object store on /frontend (or the backend): training jobs whose checkpoint target
  // is the store write and restart-read through it (storage/storage_subsystem.hpp); needs the cluster.
  std::optional<storage::StorageConfig> storage;
  // NVMe-oF targets whose namespaces training jobs with checkpoint target nvmeof write and
  // restart-read (storage/nvmeof_subsystem.hpp); needs the cluster.
  std::optional<NvmeofNamespacesConfig> nvmeof;
};

}  // namespace dcsim::models::datacenter
