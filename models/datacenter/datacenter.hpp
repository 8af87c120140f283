#pragma once
// The datacenter assembly: owns the parts one run simulates, built from a DatacenterConfig on
// one engine and one sink, and connects them.
//
//   cluster   jobs, schedulers, failover (cluster_simulation.hpp)
//   fabric    topology, flows, scripted fabric faults (network/fabric_run.hpp); with a cluster,
//             node i is host i, training jobs put their PP and DP traffic on it
//             (training_fabric.hpp) and topology-aware placement sees each node's leaf
//   frontend  a second network of the same model on the nodes' storage NICs (node i is host i):
//             checkpoints to a store host go there unless a job names the backend
//             (network_write.hpp); reported under "frontend/"
//   facility  node power, thermal, cooling, PUE (facility/facility_simulation.hpp): the cluster's
//             power source and placement conditions
//   subsystems  everything else, registered in subsystems.cpp (faults, storage, NVMe-oF, uplink,
//             inference, economics), built after the core from their config sections, the
//             signals and narrow seams (subsystem.hpp)
//
// Parts announce what happens on one DatacenterSignals (datacenter_signals.hpp); subsystems
// listen there. Building is everything a run does before its first event, so `validate` builds
// an assembly too and passes only what `run` will start. Every cross-part check lives here.

#include <memory>
#include <string>
#include <vector>

#include "models/cluster/cluster_simulation.hpp"
#include "models/datacenter/datacenter_config.hpp"
#include "models/datacenter/datacenter_config_error.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/datacenter/subsystem.hpp"
#include "models/cluster/training_fabric.hpp"
#include "models/facility/facility_simulation.hpp"
#include "models/model_registries.hpp"
#include "models/network/fabric_run.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::datacenter {

class Datacenter {
 public:
  // Throws DatacenterConfigError for a config a part rejects. `config` is kept (by value); what
  // it points to (the fabric's flows) must outlive the assembly.
  Datacenter(DatacenterConfig config, const ModelRegistries& registries, sim::Simulator& simulator,
             sim::TraceSink& sink);
  ~Datacenter();
  Datacenter(const Datacenter&) = delete;
  Datacenter& operator=(const Datacenter&) = delete;

  // Schedules every part's first events.
  void start();
  // Closes every part's accounts at the engine's current time and emits the summaries.
  void finish();
  // Fraction of an open-ended run done (jobs finished, or flows started).
  double progress_fraction() const;

  seams::DatacenterSignals& signals() { return signals_; }
  // The parts, null when the config leaves them out (tests, benches).
  cluster::ClusterSimulation* cluster() { return cluster_.get(); }
  network::FabricRun* fabric() { return fabric_.get(); }
  network::FabricRun* frontend() { return frontend_.get(); }
  facility::FacilitySimulation* facility() { return facility_.get(); }

 private:
  void build_cluster(const ModelRegistries& registries);
  void connect_fabric(cluster::ClusterConnections& links);
  void connect_frontend(cluster::ClusterConnections& links);
  void check_store_hosts() const;

  DatacenterConfig config_;
  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  seams::DatacenterSignals signals_;
  std::unique_ptr<cluster::ClusterSimulation> cluster_;
  std::unique_ptr<network::FabricRun> fabric_;
  std::unique_ptr<cluster::TrainingFabric> training_fabric_;
  std::unique_ptr<network::FabricRun> frontend_;
  std::unique_ptr<cluster::TrainingFabric> frontend_network_;
  std::unique_ptr<facility::FacilitySimulation> facility_;
  std::vector<std::unique_ptr<Subsystem>> subsystems_;
};

}  // namespace dcsim::models::datacenter
