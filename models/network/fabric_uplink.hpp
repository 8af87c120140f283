#pragma once
// FabricUplink: the site's internet ports behind a gateway host of a network (the border
// routers where the ports terminate), so what crosses them travels that network first. A
// transfer of B bytes with hosts h_1..h_n is n flows of B / n: egress from each h_i to the
// gateway, ingress from the gateway to each h_i. Every uplink flow also crosses the ports'
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
// Reports: carried (bytes per direction over [from, to), exact at each report: the flows'
// progress is read from the fabric, not assumed) at each start and end of a flow and at
// flush(); finished per transfer. Costs: O(uplink flows in flight x live flows of the network)
// per report, for the progress (one report per flow start and end, not per fabric event).

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
  // hosts: at least one, hosts of the network other than the gateway (InternalError otherwise).
  void submit(std::size_t queue, double bytes, std::span<const NodeId> hosts) override;
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
    std::vector<NodeId> hosts;
  };
  struct LiveFlow {
    std::uint64_t number = 0;
    double bytes = 0.0;
    double delivered = 0.0;  // as of the last report while it was live
  };
  struct Queue {
    UplinkDirection direction = UplinkDirection::kOut;
    std::deque<Pending> waiting;  // FIFO
    bool in_flight = false;
    Pending head;
    sim::Time started;
    std::vector<LiveFlow> flows;  // the head's flows still on the network
    double ended_bytes = 0.0;     // delivered by the head's flows that ended
    double reported = 0.0;        // of the head's bytes, reported as carried
  };
  struct Direction {
    ResourceId ports = 0;
    std::vector<std::size_t> heads;  // queues in flight
    sim::Time reported_to;
    double waiting_bytes = 0.0;
    std::size_t waiting = 0;
  };

  // The head's bytes delivered so far, as of now. A flow that has ended but whose end the fabric
  // has not delivered yet (another flow's end of the same instant comes first) counts what it
  // had at the last report, until its end brings its delivered bytes: the figure never falls.
  double delivered(const Queue& q) const;
  // delivered(), remembering each live flow's progress.
  double update_delivered(Queue& q);
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
};

}  // namespace dcsim::models::network
