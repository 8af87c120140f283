#pragma once
// The models one scenario asks for, built on one engine and wired together: the cluster, the
// fabric (with its training traffic when both are there), the facility, and the random fault
// process (/reliability: it lists and counts faults; nothing reacts to them yet). Building them is
// everything `run` does before its first event, so `validate` builds them too (with a sink that
// keeps nothing) and passes only what `run` will start. Every cross-model check lives here.

#include <memory>

#include "models/datacenter/cluster_simulation.hpp"
#include "models/datacenter/training_fabric.hpp"
#include "models/facility/facility_simulation.hpp"
#include "models/model_registries.hpp"
#include "models/reliability/fault_precursor.hpp"
#include "models/reliability/fault_process.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"
#include "tools/run/fabric_run.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::run {

class ScenarioModels {
 public:
  // Throws sim::InputError (with the JSON pointer) for a config a model rejects.
  ScenarioModels(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                 sim::Simulator& simulator, sim::TraceSink& sink);
  ~ScenarioModels();
  ScenarioModels(const ScenarioModels&) = delete;
  ScenarioModels& operator=(const ScenarioModels&) = delete;

  // Schedules every model's first events.
  void start();
  // Closes every model's accounts at the engine's current time and emits the summaries.
  void finish();
  // Fraction of an open-ended run done (jobs finished, or flows started).
  double progress_fraction() const;

 private:
  void check_store_hosts(std::size_t fabric_hosts) const;
  void build_fault_process(sim::Simulator& simulator, sim::TraceSink& sink);

  const scenario::Scenario& scenario_;
  std::unique_ptr<models::datacenter::ClusterSimulation> cluster_;
  std::unique_ptr<FabricRun> fabric_;
  std::unique_ptr<models::datacenter::TrainingFabric> training_fabric_;
  std::unique_ptr<models::facility::FacilitySimulation> facility_;
  std::unique_ptr<models::reliability::FaultProcess> faults_;
  std::unique_ptr<models::reliability::FaultPrecursor> precursor_;  // a predictive failover policy's
  sim::TraceSink* sink_ = nullptr;
  std::vector<models::network::LinkId> fabric_cables_;  // one direction of each fabric cable
};

// What `validate` does after loading: builds every model as `run` would, runs nothing.
void check_models_build(const scenario::Scenario& scenario, const models::ModelRegistries& registries);

}  // namespace dcsim::tools::run
