#pragma once
// The tiers above the leaves of a radix-bound folded Clos, shared by leaf_spine and
// rail_optimized (and sized by topology_size): given L leaves of u1 uplink cables each and the
// spine and core radices, plan_clos picks two tiers when the spines have ports for every leaf,
// else three:
//  - two tiers: S spines (S divides u1, u1/S cables from each leaf to each spine), the fewest
//    with L x u1/S <= spine radix.
//  - three tiers: pods of P leaves (P a multiple of `pod_unit`, e.g. the 8 rail leaves of one
//    rail group, dividing L), S spines per pod, each leaf wired to every spine of its pod with
//    u1/S cables; a spine has d2 = P x u1/S downlinks and u2 = d2 / spine_oversubscription
//    uplinks (whole, d2 + u2 <= spine radix). Spine s of every pod is in plane s; each plane has
//    C cores (C divides u2), spine-to-core u2/C cables, pods x u2/C <= core radix. The largest
//    pod and then the fewest spines and cores win. A k-ary fat-tree is the case P = S = k/2,
//    u2 = k/2, C = k/2 (Al-Fares et al. 2008); Meta's 24K-GPU RoCE cluster is a three-tier
//    Clos of this shape with an oversubscribed spine-to-core tier (public-figures.md: "T1-T2 7:1").
// A request the switches cannot build throws sim::ConfigError naming the field to change and
// what would work (a fourth tier is not built: more pods than core ports is an error).

#include <vector>

#include "models/network/topology.hpp"

namespace dcsim::models::network {

struct ClosPlan {
  int tiers = 2;
  int leaves = 0;
  int leaf_up = 0;             // uplink cables per leaf
  int leaves_per_pod = 0;      // all leaves with two tiers
  int pods = 1;
  int spines_per_pod = 0;      // the fabric's spines with two tiers
  int leaf_spine_cables = 1;   // per leaf-spine pair
  int spine_up = 0;            // uplink cables per spine (three tiers)
  int cores_per_plane = 0;     // planes = spines_per_pod
  int spine_core_cables = 0;   // per spine-core pair
  int spines() const { return pods * spines_per_pod; }
  int cores() const { return tiers == 3 ? spines_per_pod * cores_per_plane : 0; }
};

// Radix of tier t (1-based: 1 leaf, 2 spine, 3 core): tier_radix[t-1], or tier 1's when 0.
int tier_radix(const TopologyConfig& c, int tier);
bool radix_bound(const TopologyConfig& c);

// requested_leaves_per_pod: 0 derived (from nodes_per_pod by the caller, else the radix).
// hosts_per_leaf only words the error messages.
// size_field: the config field that sets the fabric's size ("leaves", "nodes"), named by the
// error when it needs a fourth tier.
ClosPlan plan_clos(const TopologyConfig& c, int leaves, int leaf_up, int pod_unit, int requested_leaves_per_pod,
                   double hosts_per_leaf, const char* size_field = "leaves");

// Adds the spines and cores of `plan` after the leaves (switch ids follow the host and leaf
// ids) and wires them. Leaves of pod p are leaves[p x P .. p x P + P - 1].
void wire_clos(Topology& t, const std::vector<NodeId>& leaves, const ClosPlan& plan, const TopologyConfig& c);

// rail_optimized with a radix: nodes per rail group (one rail leaf per rail and group):
// nodes_per_rail_group, or the most a leaf's ports take that divide the nodes with whole uplinks.
int rail_group_size(const TopologyConfig& c);

// Uplinks of a leaf whose host ports carry down_bps: down_bps / (oversubscription x link rate),
// which must be whole (field "oversubscription" otherwise).
int leaf_uplinks(const TopologyConfig& c, double down_bps);

}  // namespace dcsim::models::network
