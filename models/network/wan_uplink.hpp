#pragma once
// WanUplink: the site's internet uplink as one full-duplex link whose transfers share it by
// max-min fairness. Real ports are full duplex, so the two directions are separate capacities
// of `capacity_bps` each (egress never slows ingress).
//
// On a single link max-min fairness is an equal share: n transfers in flight in one direction
// each move at capacity / n, recomputed whenever one starts or finishes. Transfers are grouped in
// queues (a stream: the daily checkpoint copy, one job's copies): a queue sends its transfers in
// submission order, one at a time, so a transfer submitted while the previous one of its queue is
// still in flight waits (that wait is the backlog a too-slow port builds up). In flight:
//
//   rate_i = capacity_bps / 8 / n_d   bytes/s for each of the n_d queue heads of direction d
//
// Each transfer in flight is a sim::Activity (bytes at rate_i): completions fall on the first
// nanosecond at which the bytes are done, with no epsilon. A change costs O(n_d) (every head's
// rate changes); there is no per-byte event and nothing scales with the cluster.
//
// What it reports, through callbacks set at construction:
//   carried   (direction, from, to, bytes): the bytes a direction moved over [from, to), at a
//             constant total rate; one call per direction at each change with progress, and at
//             flush(). Summed over a run they equal the bytes of the transfers that finished plus
//             the progress of those still in flight.
//   finished  each transfer: queue, bytes, when it was submitted, started and finished.

#include <cstddef>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "models/network/uplink_transport.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

class WanUplink final : public UplinkTransport {
 public:
  // capacity_bps > 0 per direction (sim::ConfigError "capacity_bps" otherwise).
  WanUplink(sim::Simulator& simulator, double capacity_bps, OnCarried on_carried, OnFinished on_finished);
  ~WanUplink() override;
  WanUplink(const WanUplink&) = delete;
  WanUplink& operator=(const WanUplink&) = delete;

  // O(1).
  std::size_t add_queue(UplinkDirection direction) override;
  // bytes > 0 (else InternalError); O(transfers in flight in its direction). No hosts: the
  // ports alone do not see where the data is.
  using UplinkTransport::submit;
  void submit(std::size_t queue, double bytes, std::span<const UplinkSource> sources) override;
  void submit(std::size_t queue, double bytes) { submit(queue, bytes, std::span<const UplinkSource>{}); }
  bool busy(std::size_t queue) const override;
  // O(heads).
  double backlog_bytes(UplinkDirection direction) const override;
  std::size_t in_flight(UplinkDirection direction) const override;
  double capacity_bps() const override { return capacity_bps_; }
  void flush() override;

 private:
  struct Pending {
    double bytes = 0.0;
    sim::Time submitted;
  };
  struct Queue {
    UplinkDirection direction = UplinkDirection::kOut;
    std::deque<Pending> waiting;  // FIFO
    std::unique_ptr<sim::Activity> head;
    Pending head_info;
    double head_done = 0.0;  // bytes of the head already reported as carried
  };
  struct Direction {
    std::vector<std::size_t> heads;  // queues with a transfer in flight
    sim::Time reported_to = sim::Time::zero();
    double waiting_bytes = 0.0;  // of transfers submitted, not yet started
    std::size_t waiting = 0;
  };

  // Reports what direction d carried since its last report.
  void report(UplinkDirection d);
  // Gives every head of d its equal share.
  void reshare(UplinkDirection d);
  void start_next(std::size_t queue);
  void on_head_done(std::size_t queue);

  sim::Simulator& simulator_;
  double capacity_bps_;
  OnCarried on_carried_;
  OnFinished on_finished_;
  std::vector<Queue> queues_;
  Direction directions_[2];
};

}  // namespace dcsim::models::network
