#pragma once
// The registered topology builders. Each turns a TopologyConfig into a finalized Topology and
// throws sim::ConfigError naming the offending field for impossible configurations (odd k, zero
// links per node, oversubscription < 1, NICs the switches cannot wire, ...).
//
// Host numbering is part of the contract (traffic patterns and tests rely on it): hosts under
// the same first-tier switch are consecutive, first-tier switches of one pod/group are
// consecutive, and in mesh/torus host i has coordinates (i mod d0, (i / d0) mod d1, ...).

#include <functional>

#include "models/network/topology.hpp"
#include "models/network/topology_size.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::network {

// A registered topology: how to build it and how big it will be (topology_size.hpp), so that a
// size that cannot fit is refused before anything is allocated.
struct TopologyFactory {
  std::function<Topology(const TopologyConfig&)> build;
  std::function<TopologySize(const TopologyConfig&)> size;
  Topology operator()(const TopologyConfig& config) const { return build(config); }
};

// k-ary fat-tree (Al-Fares et al.): 3 tiers give k pods of k/2 edge + k/2 aggregation switches
// and (k/2)^2 cores, k^3/4 host ports; 2 tiers give k leaves and k/2 spines, k^2/2 host ports.
// With fat_tree_nodes, the smallest non-blocking fat-tree of radix k that holds them
// (fat_tree.hpp). A host takes nics_per_node x links_per_node ports of its edge switch.
Topology build_fat_tree(const TopologyConfig& config);
// `leaves` leaves of `hosts_per_leaf` hosts; spines = host bandwidth per leaf / (oversubscription
// x link bandwidth), each leaf wired once to every spine.
Topology build_leaf_spine(const TopologyConfig& config);
// NIC r of every host on rail switch r of its group; every rail switch wired to every spine
// (spine count from the oversubscription as in leaf_spine).
Topology build_rail_optimized(const TopologyConfig& config);
// Direct topologies: hosts are the routers, neighbours wired with links_per_node cables.
Topology build_mesh(const TopologyConfig& config);   // no wrap-around, any number of dims
Topology build_ring(const TopologyConfig& config);   // 1-D with wrap-around, `nodes` hosts
Topology build_torus(const TopologyConfig& config);  // 2-D or 3-D with wrap-around

// Shared checks of the host attachment fields.
void check_attachment(const TopologyConfig& config);

// Registers every builder above under its scenario name: fat_tree, leaf_spine, rail_optimized,
// mesh, ring, torus.
using TopologyRegistry = sim::Registry<TopologyFactory>;
void register_network_models(TopologyRegistry& topologies);

}  // namespace dcsim::models::network
