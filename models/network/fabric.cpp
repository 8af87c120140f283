#include "models/network/fabric.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "models/network/reserve_touched.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

Fabric::Fabric(Topology topology, FabricOptions options)
    : topology_(std::move(topology)), options_(options), router_(topology_, options.routing) {
  const RoceConfig& r = options_.roce;
  if (r.enabled) {
    if (r.mtu_bytes <= 0) throw sim::ConfigError("roce.mtu_bytes", "must be positive");
    if (r.header_bytes < 0) throw sim::ConfigError("roce.header_bytes", "must not be negative");
    if (r.pfc && (r.pfc_efficiency <= 0 || r.pfc_efficiency > 1)) {
      throw sim::ConfigError("roce.pfc_efficiency", "must be in (0, 1]");
    }
    if (r.pfc && r.pfc_incast_fanin < 2) throw sim::ConfigError("roce.pfc_incast_fanin", "must be >= 2");
    if (r.pfc && r.pfc_spreading && r.pfc_spreading_hops < 1) {
      throw sim::ConfigError("roce.pfc_spreading_hops", "must be >= 1");
    }
    if (r.dcqcn && (r.dcqcn_loss_fraction < 0 || r.dcqcn_loss_fraction > 1)) {
      throw sim::ConfigError("roce.dcqcn_loss_fraction", "must be in [0, 1]");
    }
    if (r.dcqcn && r.dcqcn_recovery_ns < 0) throw sim::ConfigError("roce.dcqcn_recovery_ns", "must not be negative");
    goodput_ = static_cast<double>(r.mtu_bytes) / (r.mtu_bytes + r.header_bytes);
  }
  if (!(options_.max_min_precision >= MaxMinSolver::kRelTol && options_.max_min_precision <= 1e-2)) {
    throw sim::ConfigError("max_min_precision", "must be in [1e-9, 1e-2]");
  }
  for (const LinkInfo& l : topology_.links()) solver_.add_link(l.bandwidth_bps);
  // Room for one flow per host on a path of up to 8 links: what traffic patterns and collectives
  // start at once; more grows as needed.
  solver_.reserve(topology_.host_count(), 8);
  solver_.set_precision(options_.max_min_precision);
  reserve_touched(flows_, topology_.host_count());
  events_.reserve(topology_.host_count());
  reserve_touched(due_, topology_.host_count());
  reserve_touched(solver_to_sub_, topology_.host_count());
  reserve_touched(free_flows_, topology_.host_count());
  reserve_touched(free_subs_, topology_.host_count());
  // Subflows for one flow per host, each with room for a route of up to 8 links, made now: a
  // permutation's or a collective step's first routes then allocate nothing. Taken in id order
  // (free_subs_ is popped from the back), as if they were created on demand.
  subs_.resize(topology_.host_count());
  for (std::size_t i = subs_.size(); i-- > 0;) {
    subs_[i].route.reserve(8);
    free_subs_.push_back(static_cast<std::uint32_t>(i));
  }
  pfc_on_.assign(topology_.link_count(), 0);
  link_stamp_.assign(topology_.link_count(), 0);
  link_bytes_.assign(topology_.link_count(), 0.0);
  if (options_.link_series_interval_ns < 0) throw sim::ConfigError("link_series_interval_ns", "must not be negative");
  if (options_.link_series_interval_ns > 0 && options_.link_series_max_buckets < 2) {
    throw sim::ConfigError("link_series_max_buckets", "must be >= 2");
  }
  series_interval_ns_ = options_.track_link_bytes ? options_.link_series_interval_ns : 0;
}

std::uint32_t Fabric::new_sub() {
  if (!free_subs_.empty()) {
    const std::uint32_t s = free_subs_.back();
    free_subs_.pop_back();
    return s;
  }
  subs_.emplace_back();
  return static_cast<std::uint32_t>(subs_.size() - 1);
}

std::int64_t Fabric::completion_ns(std::int64_t now, double remaining_bytes, double rate_bps) {
  const double ns = std::ceil(remaining_bytes * 8.0 / rate_bps * 1e9);
  // Beyond the representable range (a huge flow on a slow link) the completion never comes
  // within the run: saturate to Time::max(), which the driver reads as "nothing pending".
  const double room = static_cast<double>(std::numeric_limits<std::int64_t>::max() - now);
  return ns >= room ? std::numeric_limits<std::int64_t>::max() : now + static_cast<std::int64_t>(ns);
}

void Fabric::push_event(std::int64_t t, std::uint32_t sub, EventKind kind) {
  events_.set(Event{t, sub, kind});
}

void Fabric::unschedule(std::uint32_t sub) { events_.erase(sub); }

std::int64_t Fabric::route_latency(const std::vector<LinkId>& route) const {
  std::int64_t ns = 0;
  for (LinkId l : route) ns += topology_.link(l).latency_ns;
  return ns;
}

ResourceId Fabric::add_resource(double capacity_bps) {
  if (!(capacity_bps > 0.0)) {
    throw sim::ConfigError("capacity_bps", "a resource needs a positive capacity, got " + std::to_string(capacity_bps));
  }
  const auto r = static_cast<ResourceId>(resource_capacity_.size());
  resource_capacity_.push_back(capacity_bps);
  resource_bytes_.push_back(0.0);
  // Solver capacities are wire bits (payload / goodput): a resource carries payload, so it takes
  // its capacity over the goodput factor and its flows' payload rate comes out at capacity.
  solver_.add_link(capacity_bps / goodput_);
  return r;
}

void Fabric::set_resource_capacity(sim::Time now, ResourceId r, double capacity_bps) {
  if (r >= resource_capacity_.size()) throw sim::ConfigError("resource", "unknown resource " + std::to_string(r));
  if (!(capacity_bps >= 0.0)) throw sim::ConfigError("capacity_bps", "must not be negative");
  resource_capacity_[r] = capacity_bps;
  last_now_ = now.ns();
  solver_.set_capacity(static_cast<MaxMinSolver::LinkId>(topology_.link_count() + r), capacity_bps / goodput_);
  solve_and_reschedule(now.ns());
}

double Fabric::resource_capacity_bps(ResourceId r) const { return resource_capacity_.at(r); }

double Fabric::resource_load_bps(ResourceId r) const {
  return solver_.link_load(static_cast<MaxMinSolver::LinkId>(topology_.link_count() + r)) * goodput_;
}

void Fabric::fail_resource_flows(sim::Time now_t, ResourceId r, const std::string& reason,
                                 std::vector<FinishedFlow>& finished) {
  if (r >= resource_capacity_.size()) throw sim::ConfigError("resource", "unknown resource " + std::to_string(r));
  const std::int64_t now = now_t.ns();
  last_now_ = now;
  std::vector<std::uint32_t> doomed;
  for (std::uint32_t f = 0; f < flows_.size(); ++f) {
    const Flow& flow = flows_[f];
    if (flow.alive && std::find(flow.resources.begin(), flow.resources.end(), r) != flow.resources.end()) {
      doomed.push_back(f);
    }
  }
  for (std::uint32_t f : doomed) finish_flow(f, now, true, reason, finished);
  solve_and_reschedule(now);
}

void Fabric::fail_host_flows(sim::Time now_t, NodeId host, const std::string& reason,
                             std::vector<FinishedFlow>& finished) {
  const std::int64_t now = now_t.ns();
  last_now_ = now;
  std::vector<std::uint32_t> doomed;
  for (std::uint32_t f = 0; f < flows_.size(); ++f) {
    if (flows_[f].alive && (flows_[f].src == host || flows_[f].dst == host)) doomed.push_back(f);
  }
  for (std::uint32_t f : doomed) finish_flow(f, now, true, reason, finished);
  solve_and_reschedule(now);
}

std::uint64_t Fabric::start_flow(sim::Time now, NodeId src, NodeId dst, double bytes, std::uint64_t tag,
                                 int channel, std::span<const ResourceId> resources) {
  for (ResourceId r : resources) {
    if (r >= resource_capacity_.size()) throw sim::ConfigError("resource", "unknown resource " + std::to_string(r));
  }
  if (src >= topology_.host_count()) throw sim::ConfigError("src", "unknown host " + std::to_string(src));
  if (dst >= topology_.host_count()) throw sim::ConfigError("dst", "unknown host " + std::to_string(dst));
  if (!(bytes >= 0)) throw sim::ConfigError("bytes", "must not be negative, got " + std::to_string(bytes));
  std::uint32_t f;
  if (!free_flows_.empty()) {
    f = free_flows_.back();
    free_flows_.pop_back();
  } else {
    f = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
  }
  Flow& flow = flows_[f];
  flow.number = next_number_++;
  flow.tag = tag;
  flow.src = src;
  flow.dst = dst;
  flow.channel = channel;
  flow.bytes = bytes;
  flow.start_ns = now.ns();
  flow.alive = true;
  flow.first_sub = UINT32_MAX;
  flow.resources.assign(resources.begin(), resources.end());
  ++live_flows_;
  bytes_started_ += bytes;
  const std::uint64_t number = flow.number;
  const int n = src == dst ? 1 : router_.subflow_count(src, dst);
  flow.left = n;
  flow.n_subs = n;
  std::uint32_t prev = UINT32_MAX;
  for (int j = 0; j < n; ++j) {
    const std::uint32_t s = new_sub();  // may grow subs_: no Subflow reference across it
    if (prev == UINT32_MAX) {
      flows_[f].first_sub = s;
    } else {
      subs_[prev].next = s;
    }
    prev = s;
    Subflow& sub = subs_[s];
    sub.flow = f;
    sub.index = j;
    sub.solver_id = UINT32_MAX;
    sub.remaining_bytes = bytes / n;
    sub.rate_bps = 0.0;
    sub.last_ns = now.ns();
    sub.next = UINT32_MAX;
    sub.pfc_factor = 1.0;
    sub.pfc_new = 1.0;
    unschedule(s);
    if (!router_.route(src, dst, number, j, sub.route, channel, n)) {
      unrouted_.push_back(f);
      return number;
    }
    push_event(now.ns() + route_latency(sub.route), s, EventKind::kActivate);
  }
  return number;
}

sim::Time Fabric::next_event_time() const {
  if (!unrouted_.empty()) return sim::Time::from_ns(last_now_);
  if (events_.empty()) return sim::Time::max();
  return sim::Time::from_ns(events_.min_time());
}

void Fabric::settle(Subflow& s, std::int64_t now) {
  if (now > s.last_ns && s.rate_bps > 0) {
    const double moved = std::min(s.remaining_bytes, s.rate_bps * static_cast<double>(now - s.last_ns) * 1e-9 / 8.0);
    s.remaining_bytes -= moved;
    for (ResourceId r : flows_[s.flow].resources) resource_bytes_[r] += moved;
    if (options_.track_link_bytes) {
      for (LinkId l : s.route) link_bytes_[l] += moved;
      if (series_interval_ns_ > 0) add_to_series(s.route, s.last_ns, now, moved);
    }
  }
  s.last_ns = now;
}

void Fabric::add_to_series(const std::vector<LinkId>& route, std::int64_t t0, std::int64_t t1, double bytes) {
  // The rate was constant over [t0, t1): spread the bytes over the buckets by time overlap.
  const std::size_t n_links = topology_.link_count();
  const double per_ns = bytes / static_cast<double>(t1 - t0);
  for (std::int64_t t = t0; t < t1;) {
    auto bucket = static_cast<std::size_t>(t / series_interval_ns_);
    while (bucket >= options_.link_series_max_buckets) {
      // Coarsen: merge bucket pairs, double the interval (memory stays bounded).
      const std::size_t rows = series_.size() / n_links;
      std::vector<double> merged(((rows + 1) / 2) * n_links, 0.0);
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t l = 0; l < n_links; ++l) merged[(r / 2) * n_links + l] += series_[r * n_links + l];
      }
      series_ = std::move(merged);
      series_interval_ns_ *= 2;
      bucket = static_cast<std::size_t>(t / series_interval_ns_);
    }
    if (series_.size() < (bucket + 1) * n_links) series_.resize((bucket + 1) * n_links, 0.0);
    const std::int64_t end = std::min<std::int64_t>(t1, static_cast<std::int64_t>(bucket + 1) * series_interval_ns_);
    const double part = per_ns * static_cast<double>(end - t);
    for (LinkId l : route) series_[bucket * n_links + l] += part;
    t = end;
  }
}

double Fabric::usable_capacity(LinkId l) const {
  if (!router_.link_up(l)) return 0.0;
  const double cap = topology_.link(l).bandwidth_bps;
  return (pfc_on_[l] & kPfcOn) != 0 ? cap * options_.roce.pfc_efficiency : cap;
}

void Fabric::attach(std::uint32_t si) {
  Subflow& s = subs_[si];
  const std::vector<ResourceId>& resources = flows_[s.flow].resources;
  if (resources.empty()) {
    s.solver_id = solver_.add_flow(s.route);
  } else {
    scratch_solver_path_.assign(s.route.begin(), s.route.end());
    for (ResourceId r : resources) {
      scratch_solver_path_.push_back(static_cast<MaxMinSolver::LinkId>(topology_.link_count() + r));
    }
    s.solver_id = solver_.add_flow(scratch_solver_path_);
  }
  if (solver_to_sub_.size() <= s.solver_id) solver_to_sub_.resize(s.solver_id + 1);
  solver_to_sub_[s.solver_id] = si;
  update_pfc(s.route);
}

void Fabric::activate(std::uint32_t si, std::int64_t now, std::vector<FinishedFlow>& finished) {
  Subflow& s = subs_[si];
  Flow& flow = flows_[s.flow];
  // A link on the route may have failed while the first bit was in flight: route again.
  bool stale = false;
  for (LinkId l : s.route) stale = stale || !router_.link_up(l);
  if (stale && !router_.route(flow.src, flow.dst, flow.number, s.index, s.route, flow.channel, flow.n_subs)) {
    finish_flow(s.flow, now, true,
                "no path from " + topology_.node_name(flow.src) + " to " + topology_.node_name(flow.dst), finished);
    return;
  }
  s.last_ns = now;
  if ((s.route.empty() && flow.resources.empty()) || s.remaining_bytes <= 0) {
    complete_sub(si, now, finished);
    return;
  }
  attach(si);
}

void Fabric::complete_sub(std::uint32_t si, std::int64_t now, std::vector<FinishedFlow>& finished) {
  Subflow& s = subs_[si];
  settle(s, now);
  if (s.solver_id != UINT32_MAX) {
    solver_.remove_flow(s.solver_id);
    update_pfc(s.route);
    s.solver_id = UINT32_MAX;
  }
  s.remaining_bytes = 0;
  unschedule(si);
  if (--flows_[s.flow].left == 0) finish_flow(s.flow, now, false, {}, finished);
}

void Fabric::finish_flow(std::uint32_t f, std::int64_t now, bool failed, std::string reason,
                         std::vector<FinishedFlow>& finished) {
  Flow& flow = flows_[f];
  if (!flow.alive) return;
  FinishedFlow& out = finished.emplace_back();  // in place: no moves of its two strings
  out.flow_number = flow.number;
  out.tag = flow.tag;
  out.src = flow.src;
  out.dst = flow.dst;
  out.bytes = flow.bytes;
  out.start = sim::Time::from_ns(flow.start_ns);
  out.finish = sim::Time::from_ns(now);
  out.failed = failed;
  out.reason = std::move(reason);
  out.subflows = flow.n_subs;
  if (options_.record_routes) record_route(flow, out.route);
  double delivered = 0.0;
  for (std::uint32_t si = flow.first_sub; si != UINT32_MAX; si = subs_[si].next) {
    Subflow& s = subs_[si];
    settle(s, now);
    if (s.solver_id != UINT32_MAX) {
      solver_.remove_flow(s.solver_id);
      update_pfc(s.route);
      s.solver_id = UINT32_MAX;
    }
    delivered += flow.bytes / static_cast<double>(flow.n_subs) - std::max(0.0, s.remaining_bytes);
    unschedule(si);
    free_subs_.push_back(si);
  }
  bytes_delivered_ += failed ? delivered : flow.bytes;
  out.delivered_bytes = failed ? delivered : flow.bytes;
  flow.alive = false;
  free_flows_.push_back(f);
  --live_flows_;
}

void Fabric::record_route(const Flow& flow, std::string& out) {
  const auto append = [&out](std::uint64_t x) {
    if (!out.empty()) out += ' ';
    out += std::to_string(x);
  };
  if (flow.n_subs == 1) {
    for (LinkId l : subs_[flow.first_sub].route) append(l);
    return;
  }
  // Several subflows: each distinct link once, with the number of subflows that cross it. A
  // sprayed flow's text is then O(distinct links), not O(subflows x hops): 1,024 subflows of a
  // 4-hop route are 80 tokens on an 8-NIC leaf-spine instead of 4,096 link ids.
  scratch_route_.clear();
  for (std::uint32_t si = flow.first_sub; si != UINT32_MAX; si = subs_[si].next)
    scratch_route_.insert(scratch_route_.end(), subs_[si].route.begin(), subs_[si].route.end());
  std::sort(scratch_route_.begin(), scratch_route_.end());
  for (std::size_t i = 0; i < scratch_route_.size();) {
    std::size_t end = i;
    while (end < scratch_route_.size() && scratch_route_[end] == scratch_route_[i]) ++end;
    append(scratch_route_[i]);
    out += '*';
    out += std::to_string(end - i);
    i = end;
  }
}

void Fabric::solve_and_reschedule(std::int64_t now) {
  solver_.solve();
  const RoceConfig& r = options_.roce;
  const bool dcqcn = r.enabled && r.dcqcn;
  for (MaxMinSolver::FlowId id : solver_.changed_flows()) {
    const std::uint32_t si = solver_to_sub_[id];
    Subflow& s = subs_[si];
    settle(s, now);
    const double old_rate = s.rate_bps;
    s.rate_bps = solver_.rate(id) * goodput_ * s.pfc_factor;
    if (dcqcn && (old_rate == 0.0 || s.rate_bps < old_rate)) {
      s.remaining_bytes += s.rate_bps * static_cast<double>(r.dcqcn_recovery_ns) * 1e-9 / 8.0 * r.dcqcn_loss_fraction;
    }
    if (s.rate_bps > 0) {
      push_event(completion_ns(now, s.remaining_bytes, s.rate_bps), si, EventKind::kComplete);
    } else {
      events_.erase(si);
    }
  }
  if (r.enabled && r.pfc && r.pfc_spreading) apply_pfc_spreading(now);
}

void Fabric::advance(sim::Time now_t, std::vector<FinishedFlow>& finished) {
  const std::int64_t now = now_t.ns();
  last_now_ = now;
  for (std::uint32_t f : unrouted_) {
    finish_flow(f, now, true,
                "no path from " + topology_.node_name(flows_[f].src) + " to " + topology_.node_name(flows_[f].dst),
                finished);
  }
  unrouted_.clear();
  // In (time, subflow) order. Handling an event never schedules one (the solve below does).
  while (!events_.empty() && events_.min_time() <= now) {
    due_.clear();
    events_.pop_min_batch(due_);
    for (const Event& e : due_) {
      Subflow& s = subs_[e.id];
      // An earlier event of this batch may have failed the flow (no route left at activation):
      // its other subflows' events were already taken out of the queue with this batch.
      if (!flows_[s.flow].alive) continue;
      if (e.kind == EventKind::kActivate) {
        activate(e.id, now, finished);
      } else {
        complete_sub(e.id, now, finished);
      }
    }
  }
  solve_and_reschedule(now);
}

double Fabric::flow_rate_bps(std::uint64_t flow_number) const {
  for (const Flow& flow : flows_) {
    if (!flow.alive || flow.number != flow_number) continue;
    double rate = 0.0;
    for (std::uint32_t si = flow.first_sub; si != UINT32_MAX; si = subs_[si].next) rate += subs_[si].rate_bps;
    return rate;
  }
  return 0.0;
}

void Fabric::resource_bytes_at(sim::Time now, std::vector<double>& out) const {
  out = resource_bytes_;
  for (const Flow& flow : flows_) {
    if (!flow.alive || flow.resources.empty()) continue;
    for (std::uint32_t si = flow.first_sub; si != UINT32_MAX; si = subs_[si].next) {
      const Subflow& s = subs_[si];
      if (now.ns() <= s.last_ns || s.rate_bps <= 0) continue;
      // As settle() would move it, without settling.
      const double moved =
          std::min(s.remaining_bytes, s.rate_bps * static_cast<double>(now.ns() - s.last_ns) * 1e-9 / 8.0);
      for (ResourceId r : flow.resources) out[r] += moved;
    }
  }
}

}  // namespace dcsim::models::network
