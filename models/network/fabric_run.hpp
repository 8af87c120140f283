#pragma once
// The network part of a datacenter run: a fabric (topology from the registry, routing, RoCE)
// driven on the run's engine by a FabricSimulation, fed by a list of flows (a replayed trace or
// a generated pattern) and scripted faults, reporting into the run's sink (`<name>/flows`,
// `<name>/faults`, summary `<name>/...`, see fabric_report.hpp; name "network" unless the config
// says otherwise) and the fabric's bill of materials (`<name>/bom`, summary `<name>/switches`,
// `/cables`, ..., bill_of_materials.hpp).
//
// Arrivals are chained: one engine event pending for the next start time, so a million-flow
// trace does not hold a million events.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/fabric_report.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology.hpp"
#include "models/network/topology_builders.hpp"
#include "models/network/traffic.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::network {

// A part of the fabric going down or coming back at a given time.
struct ScriptedFabricFault {
  enum class Kind { kLink, kSwitch, kNicPort };
  sim::Time at;
  Kind kind = Kind::kLink;
  bool up = false;
  LinkId link = 0;  // kLink
  NodeId node = 0;  // kSwitch: the switch; kNicPort: the host
  int port = 0;     // kNicPort
};

struct FabricRunConfig {
  // Prefix of its tables and summary keys: "network" for the backend fabric, "frontend" for a
  // node's front-end network (the same fabric model, other hosts' NICs).
  std::string name = "network";
  std::string topology;  // a name in the topology registry
  TopologyConfig topology_config;
  FabricOptions options;
  std::vector<ScriptedFabricFault> faults;  // in time order
  // Flows to start at their start times. Not owned: the records must outlive the run (a
  // replayed trace can hold millions; the scenario keeps them).
  std::span<const FlowRecord> flows;
  // One row per finished or failed flow in the <name>/flows table (fabric_report.hpp). Off, the
  // summary still counts and sums every flow: a site year's checkpoint flows are ~1e8 rows.
  bool flow_table = true;
};

class FabricRun {
 public:
  // Throws sim::ConfigError (fields of TopologyConfig / FabricOptions) for a config the models reject.
  // `topologies` builds config.topology; the only registry a fabric run uses.
  FabricRun(FabricRunConfig config, const TopologyRegistry& topologies, sim::Simulator& sim, sim::TraceSink& sink);
  FabricRun(const FabricRun&) = delete;
  FabricRun& operator=(const FabricRun&) = delete;

  void start();
  // Emits the summary; call once after the engine stops.
  FabricSummary finish();
  // Flows started / flows given, for the progress line.
  double progress_fraction() const;
  // The engine driver and the fabric: training jobs put their traffic on them
  // (models/cluster/training_fabric.hpp), fault effects take parts down.
  FabricSimulation& driver() { return *driver_; }
  const Fabric& fabric() const { return *fabric_; }

 private:
  void start_due();
  void apply_fault(std::size_t index);

  FabricRunConfig config_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::unique_ptr<Fabric> fabric_;
  std::unique_ptr<FabricReport> report_;
  std::unique_ptr<FabricSimulation> driver_;
  std::vector<std::size_t> order_;  // flows by start time (stable)
  std::size_t next_ = 0;
  sim::TableId faults_table_ = 0;
};

}  // namespace dcsim::models::network
