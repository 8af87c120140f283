#pragma once
// UplinkTransport: how the site's internet uplink carries its transfers. Two implementations:
//   WanUplink (wan_uplink.hpp)      the ports alone: one full-duplex link, transfers share it equally
//   FabricUplink (fabric_uplink.hpp) the ports behind a gateway host of a network: every transfer
//                                   is flows between the hosts that hold its data and the gateway,
//                                   sharing that network's links with everything else on it, the
//                                   ports' speed a capacity in the same max-min solve
// Both group transfers in queues that send in submission order, one at a time (a stream, one
// job's checkpoint copies), and report what they carried and each transfer they finished.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "models/network/topology.hpp"
#include "models/network/uplink_values.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

class UplinkTransport {
 public:
  // carried: (direction, from, to, bytes), the bytes a direction moved over [from, to), reported
  // at each start and finish of a transfer and at flush(); over a run they sum to the bytes of
  // the finished transfers plus the progress of those in flight. finished: each transfer.
  using OnCarried = std::function<void(const UplinkCarried&)>;
  using OnFinished = std::function<void(const UplinkTransferDone&)>;

  virtual ~UplinkTransport() = default;
  // A new queue in one direction; its index for submit().
  virtual std::size_t add_queue(UplinkDirection direction) = 0;
  // Queues `bytes` (> 0) on `queue` at now: sent at once if the queue is idle, after its earlier
  // transfers otherwise. `sources`: where the data is (egress: its sources; ingress: where it
  // lands), with their shares and resources.
  virtual void submit(std::size_t queue, double bytes, std::span<const UplinkSource> sources) = 0;
  // The same with an equal share on each host and no resources.
  void submit(std::size_t queue, double bytes, std::span<const NodeId> hosts) {
    std::vector<UplinkSource> sources;
    sources.reserve(hosts.size());
    for (NodeId h : hosts) sources.push_back({h, 1.0 / static_cast<double>(hosts.size()), UplinkSource::kNoResource});
    submit(queue, bytes, std::span<const UplinkSource>(sources));
  }
  // A transfer of the queue is in flight or waiting.
  virtual bool busy(std::size_t queue) const = 0;
  // Bytes not yet sent in one direction (in flight and waiting), as of now.
  virtual double backlog_bytes(UplinkDirection direction) const = 0;
  // Transfers in flight in one direction.
  virtual std::size_t in_flight(UplinkDirection direction) const = 0;
  // Total speed of the ports per direction, bit/s.
  virtual double capacity_bps() const = 0;
  // Reports the bytes carried since the last report (both directions) up to now.
  virtual void flush() = 0;
};

}  // namespace dcsim::models::network
