#pragma once
// /fabric (and /frontend) keys the chosen topology does not read are never silently ignored (with one
// `fabric` object for every builder, `--set fabric.oversubscription=4` on a fat-tree would change
// nothing). Which topology reads which key is a table (TopologyKeyUse), made from the topology
// registry's parameters: what `dcsim list topology` and the key reference (docs/scenario-keys.md) document.
//
//  - a key given by a --set override that the topology does not read is an error, at its JSON
//    pointer, with its value and the topologies that read it (the CLI exits 2);
//  - a key written in the file is accepted, with a note (the loader's notices, printed by `run`
//    and `validate`) that it changes nothing in this run: a scenario file may state the keys of
//    several builders so that `--set fabric.topology=torus` switches it
//    (scenarios/fabric-comparison.json).

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/network/topology_builders.hpp"

namespace dcsim::tools::scenario {

// Key -> the topologies that read it, in registry order.
using TopologyKeyUse = std::map<std::string, std::vector<std::string>>;

TopologyKeyUse topology_key_use(const sim::Registry<models::network::TopologyFactory>& topologies);

// One "<source>:/<section>/<key>: ..." error per key of `fabric` (the resolved network section,
// `section` "fabric" or "frontend") that a --set in `overrides` ("a.b=VALUE" strings) gave, that
// some topology in `use` reads and `topology` does not.
std::vector<std::string> unused_topology_keys(const std::string& section, const nlohmann::json& fabric,
                                              const std::string& topology, const TopologyKeyUse& use,
                                              const std::vector<std::string>& overrides, const std::string& source);

// One note per topology key written in the file (`given_fabric`, the section as the user wrote
// it) that `topology` does not read and no --set gave.
std::vector<std::string> unread_file_topology_keys(const std::string& section, const nlohmann::json& given_fabric,
                                                   const std::string& topology, const TopologyKeyUse& use,
                                                   const std::vector<std::string>& overrides,
                                                   const std::string& source);

}  // namespace dcsim::tools::scenario
