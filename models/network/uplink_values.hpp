#pragma once
// The values an uplink reports (uplink_transport.hpp): the bytes a direction carried, where a
// transfer's data is read from, a transfer finished. Values only, for the datacenter's signals.

#include <cstddef>
#include <cstdint>

#include "models/network/network_ids.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

enum class UplinkDirection : std::uint8_t { kOut = 0, kIn = 1 };

struct UplinkCarried {
  UplinkDirection direction = UplinkDirection::kOut;
  sim::Time from, to;
  double bytes = 0.0;
};

// Where a share of a transfer's data is: a host, its share of the bytes (the shares of a
// transfer sum to 1), and optionally a fabric resource its flow also crosses: the drives it is
// read from (an OSD host's drive reads, so an off-site copy of a store checkpoint shares them
// with the store's clients). The ports alone ignore all of it.
struct UplinkSource {
  static constexpr std::uint32_t kNoResource = UINT32_MAX;
  NodeId host = 0;
  double share = 1.0;
  std::uint32_t resource = kNoResource;
};

struct UplinkTransferDone {
  std::size_t queue = 0;
  UplinkDirection direction = UplinkDirection::kOut;
  double bytes = 0.0;
  sim::Time submitted, started, finished;
};

}  // namespace dcsim::models::network
