#include "models/network/fabric_uplink.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {
std::size_t index_of(UplinkDirection d) { return static_cast<std::size_t>(d); }
}  // namespace

FabricUplink::FabricUplink(sim::Simulator& simulator, FabricSimulation& network, NodeId gateway, double capacity_bps,
                           OnCarried on_carried, OnFinished on_finished)
    : simulator_(simulator),
      network_(network),
      gateway_(gateway),
      capacity_bps_(capacity_bps),
      on_carried_(std::move(on_carried)),
      on_finished_(std::move(on_finished)) {
  if (!(capacity_bps > 0.0) || !std::isfinite(capacity_bps)) {
    throw sim::ConfigError("capacity_bps", "expected a positive, finite uplink speed in bit/s");
  }
  const std::size_t hosts = network_.fabric().topology().host_count();
  if (gateway >= hosts) {
    throw sim::ConfigError("gateway", "expected a host of the network (0 to " + std::to_string(hosts - 1) + "), got " +
                                          std::to_string(gateway));
  }
  for (Direction& d : directions_) {
    d.ports = network_.add_resource(capacity_bps_);  // full duplex: one capacity per direction
    d.reported_to = simulator_.now();
  }
}

std::size_t FabricUplink::add_queue(UplinkDirection direction) {
  queues_.push_back(Queue{});
  queues_.back().direction = direction;
  return queues_.size() - 1;
}

void FabricUplink::submit(std::size_t queue, double bytes, std::span<const UplinkSource> sources) {
  const std::size_t host_count = network_.fabric().topology().host_count();
  const std::size_t resource_count = network_.fabric().resource_count();
  double shares = 0.0;
  bool sources_ok = !sources.empty();
  for (const UplinkSource& s : sources) {
    shares += s.share;
    sources_ok = sources_ok && s.host < host_count && s.host != gateway_ && s.share > 0.0 &&
                 (s.resource == UplinkSource::kNoResource || s.resource < resource_count);
  }
  sources_ok = sources_ok && std::abs(shares - 1.0) < 1e-9;
  if (queue >= queues_.size() || !(bytes > 0.0) || !std::isfinite(bytes) || !sources_ok) {
    throw sim::InternalError(
        "uplink: a transfer needs a known queue, a positive, finite size and sources other than the gateway whose "
        "shares sum to 1 (this is a bug)");
  }
  Queue& q = queues_[queue];
  Direction& d = directions_[index_of(q.direction)];
  q.waiting.push_back({bytes, simulator_.now(), std::vector<UplinkSource>(sources.begin(), sources.end())});
  ++d.waiting;
  d.waiting_bytes += bytes;
  if (q.in_flight) return;
  report(q.direction);
  start_next(queue);
}

bool FabricUplink::busy(std::size_t queue) const {
  const Queue& q = queues_.at(queue);
  return q.in_flight || !q.waiting.empty();
}

std::array<double, 2> FabricUplink::ports_bytes() const {
  network_.fabric().resource_bytes_at(simulator_.now(), scratch_);
  return {scratch_[directions_[0].ports], scratch_[directions_[1].ports]};
}

double FabricUplink::backlog_bytes(UplinkDirection direction) const {
  const Direction& d = directions_[index_of(direction)];
  const double waiting = d.waiting == 0 ? 0.0 : d.waiting_bytes;
  if (d.heads.empty()) return waiting;
  // Started and not yet delivered: what the heads' flows still have to move.
  const double moved = ports_bytes()[index_of(direction)];
  return waiting + std::max(0.0, d.started_bytes - d.lost_bytes - moved);
}

std::size_t FabricUplink::in_flight(UplinkDirection direction) const {
  return directions_[index_of(direction)].heads.size();
}

void FabricUplink::flush() {
  report(UplinkDirection::kOut);
  report(UplinkDirection::kIn);
}

void FabricUplink::report(UplinkDirection direction) {
  Direction& d = directions_[index_of(direction)];
  const sim::Time now = simulator_.now();
  const double moved = ports_bytes()[index_of(direction)];
  const double bytes = moved - d.reported_bytes;
  if (bytes > 0.0 && on_carried_) on_carried_(UplinkCarried{direction, d.reported_to, now, bytes});
  d.reported_bytes = std::max(d.reported_bytes, moved);
  d.reported_to = now;
}

void FabricUplink::start_next(std::size_t queue) {
  Queue& q = queues_[queue];
  Direction& d = directions_[index_of(q.direction)];
  if (q.waiting.empty()) return;
  q.head = std::move(q.waiting.front());
  q.waiting.pop_front();
  if (--d.waiting == 0) d.waiting_bytes = 0.0;  // no rounding residue once nothing waits
  else d.waiting_bytes -= q.head.bytes;
  q.in_flight = true;
  q.started = simulator_.now();
  d.heads.push_back(queue);
  d.started_bytes += q.head.bytes;
  // start_flow never ends a flow itself (one without a path fails at the next advance), so the
  // count is complete before the first end can arrive.
  q.live_flows = q.head.sources.size();
  for (const UplinkSource& s : q.head.sources) {
    const bool out = q.direction == UplinkDirection::kOut;
    const ResourceId crossed[] = {d.ports, s.resource};
    const std::span<const ResourceId> resources(crossed, s.resource == UplinkSource::kNoResource ? 1 : 2);
    network_.start_flow(out ? s.host : gateway_, out ? gateway_ : s.host, q.head.bytes * s.share,
                        [this, queue](const FinishedFlow& f) { on_flow_end(queue, f); }, -1, resources);
  }
}

void FabricUplink::on_flow_end(std::size_t queue, const FinishedFlow& flow) {
  Queue& q = queues_[queue];
  const UplinkDirection direction = q.direction;
  Direction& d = directions_[index_of(direction)];
  if (flow.failed) {
    ++failed_flows_;
    d.lost_bytes += std::max(0.0, flow.bytes - flow.delivered_bytes);
  }
  if (q.live_flows == 0) throw sim::InternalError("uplink: a flow ended that the uplink did not start (this is a bug)");
  if (--q.live_flows > 0) return;
  report(direction);  // includes the transfer's last bytes
  const UplinkTransferDone done{queue, direction, q.head.bytes, q.head.submitted, q.started, simulator_.now()};
  d.heads.erase(std::find(d.heads.begin(), d.heads.end(), queue));
  q.in_flight = false;
  start_next(queue);
  if (on_finished_) on_finished_(done);
}

}  // namespace dcsim::models::network
