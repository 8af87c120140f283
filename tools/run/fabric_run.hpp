#pragma once
// The network part of a run: the scenario's fabric (topology from the registry, routing, RoCE),
// driven on the run's engine by a FabricSimulation, fed by the traffic section's flows and the
// scripted faults, reporting into the run's sink (`network/flows`, `network/faults`, summary
// `network/...`, see models/network/fabric_report.hpp) and the fabric's bill of materials
// (`network/bom`, summary `network/switches`, `/cables`, ..., see bill_of_materials.hpp).
//
// Arrivals are chained: one engine event pending for the next start time, so a million-flow
// trace does not hold a million events.

#include <memory>
#include <vector>

#include "models/model_registries.hpp"
#include "models/network/fabric_report.hpp"
#include "models/network/fabric_simulation.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::run {

class FabricRun {
 public:
  // scenario.fabric must be set. Throws InputError (with JSON pointer) for configs the model rejects.
  FabricRun(const scenario::Scenario& scenario, const models::ModelRegistries& registries, sim::Simulator& sim,
            sim::TraceSink& sink);
  FabricRun(const FabricRun&) = delete;
  FabricRun& operator=(const FabricRun&) = delete;

  void start();
  // Emits the summary; call once after the engine stops.
  models::network::FabricSummary finish();
  // Flows started / flows the traffic has, for the progress line.
  double progress_fraction() const;
  // The engine driver and the fabric: training jobs put their DP collectives on them
  // (models/datacenter/training_fabric.hpp).
  models::network::FabricSimulation& driver() { return *driver_; }
  const models::network::Fabric& fabric() const { return *fabric_; }

 private:
  void start_due();
  void apply_fault(std::size_t index);

  const scenario::Scenario& scenario_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::unique_ptr<models::network::Fabric> fabric_;
  std::unique_ptr<models::network::FabricReport> report_;
  std::unique_ptr<models::network::FabricSimulation> driver_;
  const std::vector<models::network::FlowRecord>* records_ = nullptr;
  std::vector<std::size_t> order_;  // records by start time (stable)
  std::size_t next_ = 0;
  sim::TableId faults_table_ = 0;
};

}  // namespace dcsim::tools::run
