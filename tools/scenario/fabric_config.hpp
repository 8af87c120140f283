#pragma once
// What a scenario's `fabric` and `traffic` sections become once loaded: the network model's
// plain configs (models/network), plus the scripted faults and the flows of a replayed trace,
// already checked against the topology the fabric builds (so `dcsim validate` catches a fault on
// a link that does not exist or a trace naming a missing host, and a run writes nothing for them).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/fabric_run.hpp"
#include "models/network/topology.hpp"
#include "models/network/traffic.hpp"
#include "sim/time.hpp"

namespace dcsim::tools::scenario {

using FabricFault = models::network::ScriptedFabricFault;

struct FabricScenario {
  std::string section = "/fabric";  // or "/frontend": the same model, the nodes' other NICs
  std::string topology;  // a name in ModelRegistries::topologies
  models::network::TopologyConfig topology_config;
  models::network::FabricOptions options;
  std::vector<FabricFault> faults;  // in time order (the backend's; /faults names no front-end part)
  bool flow_table = true;           // one row per flow in <name>/flows
  // /fabric only: training steps all as flows, or sampled every training_sample_every
  // (ClusterConfig::training_sample_every).
  bool training_sampled = false;
  sim::Time training_sample_every = sim::Time::from_s(6 * 3600);
  // Fields the mapping derived from a key other than their own, and that key's pointer ("nodes"
  // <- /cluster/nodes, "k" <- /fabric/leaf_switch's radix): a ConfigError about them points there
  // (fabric_error); every other field is located by the section's bindings.
  std::map<std::string, std::string> derived;
};

struct TrafficScenario {
  // Replay of a flow trace (records read from `file`) or a generated pattern (`config`).
  bool replay = false;
  std::string file;  // as resolved against the scenario's directory
  models::network::TrafficConfig config;
  std::vector<models::network::FlowRecord> records;  // replay only
};

}  // namespace dcsim::tools::scenario
