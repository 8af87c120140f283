#include "models/network/wan_uplink.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {
std::size_t index_of(UplinkDirection d) { return static_cast<std::size_t>(d); }
}  // namespace

WanUplink::WanUplink(sim::Simulator& simulator, double capacity_bps, OnCarried on_carried, OnFinished on_finished)
    : simulator_(simulator),
      capacity_bps_(capacity_bps),
      on_carried_(std::move(on_carried)),
      on_finished_(std::move(on_finished)) {
  if (!(capacity_bps > 0.0) || capacity_bps == std::numeric_limits<double>::infinity()) {
    throw sim::ConfigError("capacity_bps", "expected a positive, finite uplink speed in bit/s");
  }
  for (Direction& d : directions_) d.reported_to = simulator_.now();
}

WanUplink::~WanUplink() = default;

std::size_t WanUplink::add_queue(UplinkDirection direction) {
  queues_.push_back(Queue{});
  queues_.back().direction = direction;
  return queues_.size() - 1;
}

void WanUplink::submit(std::size_t queue, double bytes, std::span<const UplinkSource> /*sources*/) {
  if (queue >= queues_.size() || !(bytes > 0.0) || bytes == std::numeric_limits<double>::infinity()) {
    throw sim::InternalError("uplink: a transfer needs a known queue and a positive, finite size (this is a bug)");
  }
  Queue& q = queues_[queue];
  Direction& d = directions_[index_of(q.direction)];
  q.waiting.push_back({bytes, simulator_.now()});
  ++d.waiting;
  d.waiting_bytes += bytes;
  if (q.head) return;
  report(q.direction);  // the heads in flight moved at the old share until now
  start_next(queue);
  reshare(q.direction);
}

bool WanUplink::busy(std::size_t queue) const {
  const Queue& q = queues_.at(queue);
  return q.head != nullptr || !q.waiting.empty();
}

double WanUplink::backlog_bytes(UplinkDirection direction) const {
  const Direction& d = directions_[index_of(direction)];
  double bytes = d.waiting == 0 ? 0.0 : d.waiting_bytes;
  for (std::size_t h : d.heads) bytes += queues_[h].head->remaining();
  return bytes;
}

std::size_t WanUplink::in_flight(UplinkDirection direction) const {
  return directions_[index_of(direction)].heads.size();
}

void WanUplink::flush() {
  report(UplinkDirection::kOut);
  report(UplinkDirection::kIn);
}

void WanUplink::report(UplinkDirection direction) {
  Direction& d = directions_[index_of(direction)];
  const sim::Time now = simulator_.now();
  double bytes = 0.0;
  for (std::size_t h : d.heads) {
    Queue& q = queues_[h];
    const double done = q.head->total_work() - q.head->remaining();
    bytes += done - q.head_done;
    q.head_done = done;
  }
  if (bytes > 0.0 && on_carried_) on_carried_(UplinkCarried{direction, d.reported_to, now, bytes});
  d.reported_to = now;
}

void WanUplink::reshare(UplinkDirection direction) {
  Direction& d = directions_[index_of(direction)];
  if (d.heads.empty()) return;
  const double share = capacity_bps_ / 8.0 / static_cast<double>(d.heads.size());
  for (std::size_t h : d.heads) {
    if (queues_[h].head->rate() != share) queues_[h].head->set_rate(share);
  }
}

void WanUplink::start_next(std::size_t queue) {
  Queue& q = queues_[queue];
  Direction& d = directions_[index_of(q.direction)];
  if (q.waiting.empty()) return;
  q.head_info = q.waiting.front();
  q.waiting.pop_front();
  if (--d.waiting == 0) d.waiting_bytes = 0.0;  // no rounding residue once nothing waits
  else d.waiting_bytes -= q.head_info.bytes;
  q.head_done = 0.0;
  // Rate 0 until reshare() gives it its share (no event in between).
  q.head = std::make_unique<sim::Activity>(simulator_, q.head_info.bytes, 0.0,
                                           [this, queue](sim::Activity&) { on_head_done(queue); });
  d.heads.push_back(queue);
}

void WanUplink::on_head_done(std::size_t queue) {
  Queue& q = queues_[queue];
  const UplinkDirection direction = q.direction;
  Direction& d = directions_[index_of(direction)];
  report(direction);  // includes this transfer's last bytes
  const UplinkTransferDone done{queue, direction, q.head_info.bytes, q.head_info.submitted, q.head->started_at(),
                                simulator_.now()};
  d.heads.erase(std::find(d.heads.begin(), d.heads.end(), queue));
  q.head.reset();
  start_next(queue);
  reshare(direction);
  if (on_finished_) on_finished_(done);
}

}  // namespace dcsim::models::network
