#pragma once
// What an uplink transport (models/network/uplink_transport.hpp) reported in a test: its carried
// intervals and its finished transfers, with the bytes per direction.

#include <vector>

#include "models/network/uplink_transport.hpp"

namespace dcsim::tests {

struct UplinkRecorder {
  std::vector<models::network::UplinkCarried> carried;
  std::vector<models::network::UplinkTransferDone> done;
  double bytes(models::network::UplinkDirection d) const {
    double b = 0.0;
    for (const auto& c : carried) b += c.direction == d ? c.bytes : 0.0;
    return b;
  }
  models::network::UplinkTransport::OnCarried on_carried() {
    return [this](const models::network::UplinkCarried& c) { carried.push_back(c); };
  }
  models::network::UplinkTransport::OnFinished on_finished() {
    return [this](const models::network::UplinkTransferDone& d) { done.push_back(d); };
  }
};

}  // namespace dcsim::tests
