#pragma once
// What the fabric reports of each flow it finished (or failed): a value, so that listeners of
// finished flows (datacenter signals, reports) need not include the fabric.

#include <cstdint>
#include <string>

#include "models/network/network_ids.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

struct FinishedFlow {
  std::uint64_t flow_number = 0;
  std::uint64_t tag = 0;
  NodeId src = 0;
  NodeId dst = 0;
  double bytes = 0.0;
  sim::Time start;
  sim::Time finish;
  bool failed = false;
  double delivered_bytes = 0.0;  // all of `bytes` unless it failed
  std::string reason;  // why it failed
  int subflows = 1;    // what the flow was split into (spraying, QPs)
  // With record_routes: the link ids of the route, space-separated, in path order; a flow of
  // several subflows lists every link its subflows cross once, in id order, as "id*count" with
  // the number of its subflows on that link ("12*8 40*2 ...").
  std::string route;
};

}  // namespace dcsim::models::network
