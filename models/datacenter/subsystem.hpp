#pragma once
// The subsystems of the datacenter assembly (datacenter.hpp): models that are not core parts
// (cluster, fabric, facility) but observe them through signals and act on them through narrow
// seams (seams::Subsystem, models/seams/subsystem.hpp). Each lives in its part's folder and
// includes only seams and its own part (models/reliability/scripted_node_faults.hpp,
// models/storage/nvmeof_subsystem.hpp); its entry in subsystems.cpp is the adapter: it picks the
// subsystem's config section, the few other values it reads and the seams it acts through out of
// a SubsystemContext, which only the assembly's wiring sees. Adding one is its own files plus
// one entry; the assembly and the run loop do not change.

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

// What the registrations in subsystems.cpp pick a subsystem's inputs from (never handed on whole).
// Listeners connect to `signals` while building.
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
