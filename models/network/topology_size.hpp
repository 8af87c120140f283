#pragma once
// How big a topology will be, from its config alone, without building it: what the resource
// guard multiplies by bytes per element before anything is allocated (a k=100,000 fat-tree has
// 2.5e14 hosts; building it to find out is what must not happen). Doubles, because a config may
// describe counts beyond any integer type; upper bounds within a small factor (each builder's
// formula follows its wiring; the contract test compares them with built topologies).

#include "models/network/topology.hpp"

namespace dcsim::models::network {

struct TopologySize {
  double hosts = 0;
  double switches = 0;
  double cables = 0;  // each becomes two directed links (or fewer when parallel cables are bundled)
  // The router's distance tables (routing.hpp) hold one entry per forwarding node for each
  // destination anchor (a single-homed host's switch, else the host): anchors x forwarders.
  double forwarders = 0;
  double anchors = 0;
};

// One per registered builder (topology_builders.hpp); configs the builder would refuse give
// whatever their formula gives (the builder then reports the error).
TopologySize fat_tree_size(const TopologyConfig& config);
TopologySize leaf_spine_size(const TopologyConfig& config);
TopologySize rail_optimized_size(const TopologyConfig& config);
TopologySize mesh_size(const TopologyConfig& config);
TopologySize ring_size(const TopologyConfig& config);
TopologySize torus_size(const TopologyConfig& config);

}  // namespace dcsim::models::network
