// Fabric: links, switches and NIC ports going down and coming back. Flows on a failed link are
// re-routed (or fail when no path is left); when a next hop returns, ECMP recomputes its hash
// buckets and subflows move where the same hash now sends them (unless resilient hashing).

#include <string>
#include <vector>

#include "models/network/fabric.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

void Fabric::reroute_link(std::int64_t now, LinkId link, std::vector<FinishedFlow>& finished) {
  for (MaxMinSolver::FlowId id : solver_.flows_on(link)) {
    if (!solver_.flow_alive(id)) continue;
    const std::uint32_t si = solver_to_sub_[id];
    Subflow& s = subs_[si];
    Flow& flow = flows_[s.flow];
    if (!flow.alive) continue;
    settle(s, now);
    solver_.remove_flow(s.solver_id);
    update_pfc(s.route);
    s.solver_id = UINT32_MAX;
    s.rate_bps = 0.0;
    unschedule(si);
    if (!router_.route(flow.src, flow.dst, flow.number, s.index, s.route, flow.channel, flow.n_subs)) {
      finish_flow(s.flow, now, true,
                  "no path from " + topology_.node_name(flow.src) + " to " + topology_.node_name(flow.dst) +
                      " after link " + std::to_string(link) + " went down",
                  finished);
      continue;
    }
    attach(si);
    ++rerouted_;
  }
}

void Fabric::set_link_state(sim::Time now_t, LinkId link, bool up, std::vector<FinishedFlow>& finished) {
  const std::int64_t now = now_t.ns();
  last_now_ = now;
  router_.set_link_up(link, up);
  solver_.set_capacity(link, usable_capacity(link));
  if (!up) reroute_link(now, link, finished);
  if (up) rebalance(now);
  solve_and_reschedule(now);
}

void Fabric::set_switch_state(sim::Time now_t, NodeId sw, bool up, std::vector<FinishedFlow>& finished) {
  const std::int64_t now = now_t.ns();
  last_now_ = now;
  std::vector<LinkId> links(topology_.out_links(sw).begin(), topology_.out_links(sw).end());
  links.insert(links.end(), topology_.in_links(sw).begin(), topology_.in_links(sw).end());
  for (LinkId l : links) {
    router_.set_link_up(l, up);
    solver_.set_capacity(l, usable_capacity(l));
  }
  if (!up) {
    for (LinkId l : links) reroute_link(now, l, finished);
  } else {
    rebalance(now);
  }
  solve_and_reschedule(now);
}

void Fabric::set_nic_port_state(sim::Time now, NodeId host, int port, bool up, std::vector<FinishedFlow>& finished) {
  const auto out = topology_.out_links(host);
  if (host >= topology_.host_count() || port < 0 || static_cast<std::size_t>(port) >= out.size()) {
    throw sim::ConfigError("nic_port", "host " + std::to_string(host) + " has no port " + std::to_string(port));
  }
  const LinkId l = out[static_cast<std::size_t>(port)];
  // Both directions of the port's cable fail together.
  router_.set_link_up(topology_.link(l).reverse, up);
  solver_.set_capacity(topology_.link(l).reverse, usable_capacity(topology_.link(l).reverse));
  if (!up) reroute_link(now.ns(), topology_.link(l).reverse, finished);
  set_link_state(now, l, up, finished);
}

void Fabric::move_subflow(std::uint32_t si, std::int64_t now) {
  Subflow& s = subs_[si];
  settle(s, now);
  solver_.remove_flow(s.solver_id);
  update_pfc(s.route);
  s.route.swap(scratch_route_);
  s.rate_bps = 0.0;  // until the solve that follows
  unschedule(si);
  attach(si);
  ++rerouted_;
}

void Fabric::rebalance(std::int64_t now) {
  // Standard ECMP after a next hop comes back: the switches recompute their hash buckets, so a
  // subflow goes wherever the same hash now sends it. O(live subflows x path): link-up events
  // are rare.
  if (router_.config().resilient_hashing) return;
  for (Flow& flow : flows_) {
    if (!flow.alive) continue;
    for (std::uint32_t si = flow.first_sub; si != UINT32_MAX; si = subs_[si].next) {
      Subflow& s = subs_[si];
      const bool draining = s.solver_id != UINT32_MAX;
      const bool in_latency = !draining && s.remaining_bytes > 0 && !s.route.empty();
      if (!draining && !in_latency) continue;
      if (!router_.route(flow.src, flow.dst, flow.number, s.index, scratch_route_, flow.channel, flow.n_subs)) continue;
      if (scratch_route_ == s.route) continue;
      if (draining) {
        move_subflow(si, now);
      } else {
        s.route.swap(scratch_route_);  // first bit still in flight: keep the activation time
        ++rerouted_;
      }
    }
  }
}

}  // namespace dcsim::models::network
