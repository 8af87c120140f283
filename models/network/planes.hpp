#pragma once
// Multi-plane fabrics: `planes` independent copies of a switched fabric, every host NIC with one
// port (at nic_bandwidth_bps) on each, as Alibaba HPN's dual-plane pods are built (SIGCOMM'24:
// each NIC's 2 x 200G ports go to two ToRs of two planes, and the planes share no switch; one
// failing ToR leaves a NIC its other port). A flow picks a plane by ECMP at its first hop (the
// host's links) and stays in it: no link joins two planes.
//
// Built from the one-plane topology: hosts once, then per plane a copy of every switch (tier,
// radix, preset) and every cable (speed, length, latency, bundling), plane by plane; a host's
// links are its plane-0 ports, then its plane-1 ports, ...
//
// Switch names stay "s<tier>.<index>" with indices running on through the planes: plane p's copy
// of switch i of a plane of S switches is index p x S + i.

#include "models/network/topology.hpp"

namespace dcsim::models::network {

inline constexpr int kMaxPlanes = 8;

// sim::ConfigError("planes", ...) unless 1 <= planes <= kMaxPlanes.
void check_planes(int planes);

// `c` for one plane (planes = 1): what each plane is built from.
TopologyConfig one_plane(const TopologyConfig& c);

// `planes` copies of `plane`'s switches and cables on its hosts (planes == 1: `plane` as it is).
// `plane` must be finalized, switched (hosts do not route) and have its hosts first.
Topology replicate_planes(const Topology& plane, int planes);

}  // namespace dcsim::models::network
