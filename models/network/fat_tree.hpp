#pragma once
// The shape of a fat-tree (fat_tree.cpp, sized by topology_size.cpp):
//  - the full k-ary tree (Al-Fares et al. 2008; `nodes` 0): 3 tiers give k pods of k/2 edge and
//    k/2 aggregation switches and (k/2)^2 cores, k^3/4 host ports; 2 tiers give k edges and k/2
//    spines, k^2/2 host ports.
//  - sized to the hosts it must hold (`nodes` N > 0): the smallest non-blocking fat-tree of
//    radix k that holds them, as deployments build one: E = ceil(N / h) edges of h = k/2 / ports
//    hosts (the last may be partly filled), each with k/2 uplinks. Two tiers while the spines
//    have ports for every edge (E <= k): the fewest spines S (S divides k/2, E x k/2 / S <= k),
//    k/2 / S parallel cables from each edge to each. Three tiers beyond: pods of k/2 edges and
//    k/2 aggregation switches (the last pod partly populated), ceil(E / (k/2)) <= k pods;
//    aggregation switch a of every pod in plane a, each plane with the fewest cores C (C divides
//    k/2, pods x k/2 / C <= k), k/2 / C cables from each aggregation switch to each core. One
//    edge (N <= h) is the whole fabric. Every switch keeps as many uplinks as host-side ports, so
//    bisection is full for the hosts held. 128 HGX nodes (8 x 400G NICs) on 64-port switches:
//    32 edges of 4 nodes and 16 spines with 2 cables to each edge, 48 switches (the full k=64
//    two-tier tree has 96 and 256 nodes' ports).
// `tiers` (2 or 3) forces the tier count; 0 takes the fewest that hold the hosts (3 for the full
// tree). A request the radix cannot build throws sim::ConfigError naming the key and the shape
// that would work.

#include "models/network/clos.hpp"
#include "models/network/topology.hpp"

namespace dcsim::models::network {

struct FatTreeShape {
  bool full = true;         // the complete k-ary tree (Al-Fares wiring); else sized (plan)
  int tiers = 3;            // switch tiers: 1 (a single edge), 2 or 3
  int hosts = 0;            // hosts built
  int hosts_per_edge = 0;   // k/2 / (NICs x links per node)
  int edges = 0;
  ClosPlan plan;            // sized: the tiers above the edges, for wire_clos
};

FatTreeShape fat_tree_shape(const TopologyConfig& config);

}  // namespace dcsim::models::network
