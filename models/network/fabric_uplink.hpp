#pragma once
// FabricUplink: the site's internet ports behind a gateway host of a network (the border
// routers where the ports terminate), so what crosses them travels that network first. A
// transfer of B bytes from sources h_1..h_n with shares s_i is n flows of s_i B: egress from each
// h_i to the gateway, ingress from the gateway to each h_i; a source's flow also crosses its
// resource (the drives its share is read from). Every uplink flow also crosses the ports'
// capacity of its direction (a fabric resource, fabric.hpp, of capacity_bps: full duplex), so
// one max-min solve shares links, NICs, drives and the ports among everything on the network:
// a copy is as slow as the slowest of the hosts' NICs, the fabric between them and the gateway,
// and its share of the ports.
//
// Queues as WanUplink's: a queue sends its transfers in submission order, one at a time; a
// transfer ends when the last of its flows has. A flow that fails (no path to the gateway) ends
// the part of the transfer it carried, undelivered: counted (failed_flows), never re-sent, so a
// gateway cut off cannot keep the run going.
//
// Reports: carried (bytes per direction over [from, to), exact: what crossed the ports' resource,
// flows in flight counted at their rates, Fabric::resource_bytes_at) at each start and end of a
// transfer and at flush(); finished per transfer. Costs: a flow's end is O(1); a transfer's start
// and end, and a backlog query, are O(live flows that cross a resource) for the ports' progress,
// never per flow of a transfer (a stream from every node of a 16,384-node cluster is 16,384
// flows and two such reads).

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/network/fabric_simulation.hpp"
#include "models/network/uplink_transport.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::network {

class FabricUplink final : public UplinkTransport {
 public:
  // `network` must outlive this object; `gateway` is one of its hosts. capacity_bps > 0 and finite
  // (sim::ConfigError "capacity_bps"); a gateway that is not a host: sim::ConfigError "gateway".
  FabricUplink(sim::Simulator& simulator, FabricSimulation& network, NodeId gateway, double capacity_bps,
               OnCarried on_carried, OnFinished on_finished);
  FabricUplink(const FabricUplink&) = delete;
  FabricUplink& operator=(const FabricUplink&) = delete;

  std::size_t add_queue(UplinkDirection direction) override;
  // sources: at least one, hosts of the network other than the gateway, shares > 0 summing to
  // 1, resources of the network or none (InternalError otherwise). Each source's flow carries
  // its share and crosses its resource beside the ports.
  using UplinkTransport::submit;
  void submit(std::size_t queue, double bytes, std::span<const UplinkSource> sources) override;
  bool busy(std::size_t queue) const override;
  double backlog_bytes(UplinkDirection direction) const override;
  std::size_t in_flight(UplinkDirection direction) const override;
  double capacity_bps() const override { return capacity_bps_; }
  void flush() override;

  NodeId gateway() const { return gateway_; }
  // Uplink flows that failed (their bytes were not delivered).
  std::int64_t failed_flows() const { return failed_flows_; }

 private:
  struct Pending {
    double bytes = 0.0;
    sim::Time submitted;
    std::vector<UplinkSource> sources;
  };
  struct Queue {
    UplinkDirection direction = UplinkDirection::kOut;
    std::deque<Pending> waiting;  // FIFO
    bool in_flight = false;
    Pending head;
    sim::Time started;
    std::size_t live_flows = 0;  // the head's flows still on the network
  };
  struct Direction {
    ResourceId ports = 0;
    std::vector<std::size_t> heads;  // queues in flight
    sim::Time reported_to;
    double reported_bytes = 0.0;  // the ports' bytes as of reported_to
    double started_bytes = 0.0;   // bytes of the transfers started
    double lost_bytes = 0.0;      // bytes of failed flows never delivered
    double waiting_bytes = 0.0;
    std::size_t waiting = 0;
  };

  // Bytes that crossed the ports in each direction up to now.
  std::array<double, 2> ports_bytes() const;
  void report(UplinkDirection direction);
  void start_next(std::size_t queue);
  void on_flow_end(std::size_t queue, const FinishedFlow& flow);

  sim::Simulator& simulator_;
  FabricSimulation& network_;
  NodeId gateway_;
  double capacity_bps_;
  OnCarried on_carried_;
  OnFinished on_finished_;
  std::vector<Queue> queues_;
  Direction directions_[2];
  std::int64_t failed_flows_ = 0;
  mutable std::vector<double> scratch_;  // resource_bytes_at's output, reused
};

}  // namespace dcsim::models::network
