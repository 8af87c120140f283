// Fabric: RoCE priority flow control. A link with pfc_incast_fanin or more flows pauses (its
// usable capacity falls to pfc_efficiency of line rate); with pfc_spreading, a saturated egress
// port's pauses reach up to pfc_spreading_hops upstream and slow the victim flows there that
// never cross it (fabric.hpp has the model).

#include <algorithm>

#include "models/network/fabric.hpp"

namespace dcsim::models::network {

void Fabric::update_pfc(std::span<const LinkId> route) {
  // Checked once per route, not per link: every flow start and end passes here.
  if (!options_.roce.enabled || !options_.roce.pfc) return;
  for (LinkId l : route) update_pfc_link(l);
}

void Fabric::update_pfc_link(LinkId l) {
  const bool on = solver_.flow_count_on(l) >= static_cast<std::size_t>(options_.roce.pfc_incast_fanin);
  if (on == ((pfc_on_[l] & kPfcOn) != 0)) return;
  pfc_on_[l] = static_cast<std::uint8_t>(on ? pfc_on_[l] | kPfcOn : pfc_on_[l] & ~kPfcOn);
  if (on && !(pfc_on_[l] & kPfcListed)) {  // dropped from the list lazily by apply_pfc_spreading
    pfc_on_[l] |= kPfcListed;
    pfc_links_.push_back(l);
  }
  if (router_.link_up(l)) solver_.set_capacity(l, usable_capacity(l));
}

void Fabric::apply_pfc_spreading(std::int64_t now) {
  const int hops = options_.roce.pfc_spreading_hops;
  pfc_next_.clear();
  std::size_t kept = 0;
  for (LinkId c : pfc_links_) {
    if (!(pfc_on_[c] & kPfcOn)) {
      pfc_on_[c] = 0;  // off: leaves the list
      continue;
    }
    pfc_links_[kept++] = c;
    // An egress port of a forwarding node, saturated: its queue builds and pauses upstream.
    const NodeId sw = topology_.link(c).src;
    if (!topology_.hosts_are_routers() && topology_.node(sw).kind != NodeKind::kSwitch) continue;
    if (solver_.capacity(c) <= 0 || solver_.link_load(c) < solver_.capacity(c) * (1.0 - 1e-9)) continue;
    // The links up to `hops` upstream of c along its flows.
    ++stamp_;
    upstream_.clear();
    for (MaxMinSolver::FlowId id : solver_.flows_on(c)) {
      const auto& route = subs_[solver_to_sub_[id]].route;
      const auto at = static_cast<int>(std::find(route.begin(), route.end(), c) - route.begin());
      for (int d = 1; d <= hops && at - d >= 0; ++d) {
        const LinkId u = route[static_cast<std::size_t>(at - d)];
        if (link_stamp_[u] != stamp_) {
          link_stamp_[u] = stamp_;
          upstream_.push_back(u);
        }
      }
    }
    for (LinkId u : upstream_) {
      // Flows on u that reach c after it are the incast; the others on u are victims.
      const std::vector<MaxMinSolver::FlowId> on_u = solver_.flows_on(u);
      auto feeds_c = [&](MaxMinSolver::FlowId id) {
        const auto& route = subs_[solver_to_sub_[id]].route;
        const auto pu = std::find(route.begin(), route.end(), u);
        return std::find(pu, route.end(), c) != route.end();
      };
      double incast_rate = 0.0;
      std::size_t incast = 0;
      for (MaxMinSolver::FlowId id : on_u) {
        if (feeds_c(id)) {
          incast_rate += solver_.rate(id);
          ++incast;
        }
      }
      if (incast == 0 || incast == on_u.size()) continue;  // no victim on u
      // Unpaused, u would give the incast flows an equal share of its line rate.
      const double unpaused = topology_.link(u).bandwidth_bps * static_cast<double>(incast) /
                              static_cast<double>(on_u.size());
      const double paused = std::max(0.0, 1.0 - incast_rate / unpaused);
      if (paused <= 0.0) continue;
      for (MaxMinSolver::FlowId id : on_u) {
        if (feeds_c(id)) continue;
        Subflow& v = subs_[solver_to_sub_[id]];
        if (v.pfc_new == 1.0) pfc_next_.push_back(solver_to_sub_[id]);
        v.pfc_new *= 1.0 - paused;
      }
    }
  }
  pfc_links_.resize(kept);
  // Apply: subflows whose factor moved (new victims, old victims released) change rate now.
  for (std::uint32_t si : pfc_touched_) {
    if (subs_[si].pfc_new == 1.0) pfc_next_.push_back(si);  // may be released
  }
  pfc_touched_.clear();
  for (std::uint32_t si : pfc_next_) {
    Subflow& s = subs_[si];
    const double factor = s.pfc_new;
    s.pfc_new = 1.0;
    if (s.solver_id == UINT32_MAX) {  // finished or re-routed away since: nothing to apply
      s.pfc_factor = 1.0;
      continue;
    }
    if (factor != 1.0) pfc_touched_.push_back(si);
    if (factor == s.pfc_factor) continue;
    settle(s, now);
    s.pfc_factor = factor;
    s.rate_bps = solver_.rate(s.solver_id) * goodput_ * factor;
    if (s.rate_bps > 0) {
      push_event(completion_ns(now, s.remaining_bytes, s.rate_bps), si, EventKind::kComplete);
    } else {
      events_.erase(si);
    }
  }
}

}  // namespace dcsim::models::network
