#pragma once
// Bisection bandwidth of a switched fabric: the capacity, one direction, of the tightest cut
// between the lower and upper halves of the hosts (ids below host_count / 2 and the rest).
//
// Computed per tier of a tree-like (folded Clos) fabric: a node belongs to a side when every
// host below it does; the traffic of one side to the other leaves that side through the upward
// links of its tier-t nodes, for each t, so the cut is min over tiers of the smaller side's
// upward capacity. The builders number hosts by leaf and leaves by pod, so with an even number
// of leaves (pods) the halves split at a boundary and this is the max flow between them (for a
// non-blocking fabric: hosts x NIC bandwidth / 2). Direct topologies (hosts forward): 0, not
// computed. O(links x tiers).

#include "models/network/topology.hpp"

namespace dcsim::models::network {

double bisection_bandwidth_bps(const Topology& topology);

}  // namespace dcsim::models::network
