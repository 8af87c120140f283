#pragma once
// The ids of a network's nodes (hosts and switches), links and shared resources: plain integers, so value types that
// name hosts (finished flows, uplink sources) need not include the topology.

#include <cstdint>

namespace dcsim::models::network {

using NodeId = std::uint32_t;
using LinkId = std::uint32_t;
// A capacity flows share beside the links (Fabric::add_resource): a drive's bandwidth, a throttle.
using ResourceId = std::uint32_t;

}  // namespace dcsim::models::network
