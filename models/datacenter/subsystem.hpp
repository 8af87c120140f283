#pragma once
// The subsystems of the datacenter assembly (datacenter.hpp): models that are not core parts
// (cluster, fabric, facility) but observe them through signals and act on them through narrow
// seams (seams::Subsystem, models/seams/subsystem.hpp). Adding one is its own files (in its own
// folder, including only seams, as models/reliability/scripted_node_faults.hpp is) plus one line
// in subsystems.cpp, which hands it its config section and the parts it acts on; the assembly and
// the run loop do not change.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/datacenter/datacenter_config.hpp"
#include "models/datacenter/datacenter_parts.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/subsystem.hpp"
#include "models/model_registries.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::datacenter {

using seams::Subsystem;

// What a subsystem is built from. Listeners connect to `signals` while building.
struct SubsystemContext {
  const DatacenterConfig& config;
  const ModelRegistries& registries;
  sim::Simulator& simulator;
  sim::TraceSink& sink;
  seams::DatacenterSignals& signals;
  DatacenterParts parts;
};

// The network a subsystem's hosts are on (its section's `network`): the backend /fabric or the
// front-end, with its topology. sim::ConfigError("network") naming what needs it when the
// datacenter lacks that network.
struct SubsystemNetwork {
  network::FabricSimulation& fabric;
  const network::Topology& topology;
};
SubsystemNetwork subsystem_network(const SubsystemContext& context, bool on_backend, const std::string& what);

struct SubsystemEntry {
  std::string_view name;       // also the part named in a DatacenterConfigError
  std::string_view summary;    // what it does, one line
  // Null when the config does not ask for it. Throws sim::ConfigError naming its own fields.
  std::function<std::unique_ptr<Subsystem>(const SubsystemContext&)> build;
};

// Every subsystem, in build (and start, and finish) order.
const std::vector<SubsystemEntry>& subsystem_entries();

}  // namespace dcsim::models::datacenter
