#include "models/network/max_min_solver.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "sim/error.hpp"

namespace dcsim::models::network {

MaxMinSolver::LinkId MaxMinSolver::add_link(double capacity) {
  if (!(capacity >= 0.0)) throw sim::InternalError("MaxMinSolver: negative link capacity (this is a bug)");
  links_.push_back(Link{});
  links_.back().capacity = capacity;
  return static_cast<LinkId>(links_.size() - 1);
}

void MaxMinSolver::set_capacity(LinkId link, double capacity) {
  if (!(capacity >= 0.0)) throw sim::InternalError("MaxMinSolver: negative link capacity (this is a bug)");
  links_[link].capacity = capacity;
  pending_links_.push_back(link);
}

MaxMinSolver::FlowId MaxMinSolver::add_flow(std::span<const LinkId> links) {
  if (links.empty()) throw sim::InternalError("MaxMinSolver: a flow must cross a link (this is a bug)");
  FlowId id;
  if (!free_flows_.empty()) {
    id = free_flows_.back();
    free_flows_.pop_back();
  } else {
    id = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[id];
  f.links.assign(links.begin(), links.end());
  f.slot.resize(links.size());
  f.rate = 0.0;
  f.old_rate = -1.0;  // never equal to a solved rate: a new flow is always reported as changed
  f.alive = true;
  f.frozen = false;
  for (std::uint32_t i = 0; i < links.size(); ++i) {
    auto& members = links_[links[i]].members;
    f.slot[i] = static_cast<std::uint32_t>(members.size());
    members.push_back(Member{id, i});
  }
  pending_flows_.push_back(id);
  return id;
}

void MaxMinSolver::remove_flow(FlowId id) {
  Flow& f = flows_[id];
  if (!f.alive) throw sim::InternalError("MaxMinSolver: removing a dead flow (this is a bug)");
  for (std::uint32_t i = 0; i < f.links.size(); ++i) {
    auto& members = links_[f.links[i]].members;
    const std::uint32_t s = f.slot[i];
    members[s] = members.back();
    members.pop_back();
    if (s < members.size()) flows_[members[s].flow].slot[members[s].hop] = s;
    pending_links_.push_back(f.links[i]);
  }
  f.links.clear();
  f.slot.clear();
  f.alive = false;
  f.rate = 0.0;
  free_flows_.push_back(id);
}

std::vector<MaxMinSolver::FlowId> MaxMinSolver::flows_on(LinkId link) const {
  std::vector<FlowId> out;
  for (const auto& m : links_[link].members) out.push_back(m.flow);
  return out;
}

double MaxMinSolver::link_load(LinkId link) const {
  double load = 0.0;
  for (const auto& m : links_[link].members) load += flows_[m.flow].rate;
  return load;
}

void MaxMinSolver::add_link_to_set(LinkId l) {
  Link& link = links_[l];
  if (link.mark == epoch_) return;
  link.mark = epoch_;
  set_links_.push_back(l);
}

void MaxMinSolver::add_to_set(FlowId id) {
  Flow& f = flows_[id];
  if (f.mark == epoch_) return;
  f.mark = epoch_;
  if (f.old_rate >= 0.0) f.old_rate = f.rate;
  set_.push_back(id);
  for (LinkId l : f.links) add_link_to_set(l);
}

void MaxMinSolver::fill_set() {
  for (LinkId l : set_links_) {
    Link& link = links_[l];
    link.remaining = link.capacity;
    link.unfrozen = 0;
    for (const auto& m : link.members) {
      const Flow& f = flows_[m.flow];
      if (f.mark == epoch_) {
        ++link.unfrozen;
      } else {
        link.remaining -= f.rate;
      }
    }
  }
  for (FlowId id : set_) flows_[id].frozen = false;

  heap_.clear();
  auto push = [this](LinkId l) {
    Link& link = links_[l];
    ++link.version;
    heap_.push_back(HeapEntry{std::max(0.0, link.remaining) / link.unfrozen, l, link.version});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  };
  for (LinkId l : set_links_) {
    if (links_[l].unfrozen > 0) push(l);
  }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const HeapEntry e = heap_.back();
    heap_.pop_back();
    Link& link = links_[e.link];
    if (e.version != link.version || link.unfrozen == 0) continue;  // stale entry
    const double share = e.share;
    ++touch_stamp_;
    touched_.clear();
    for (const auto& m : link.members) {
      Flow& f = flows_[m.flow];
      if (f.mark != epoch_ || f.frozen) continue;
      f.frozen = true;
      f.rate = share;
      for (LinkId l2 : f.links) {
        Link& other = links_[l2];
        other.remaining -= share;
        --other.unfrozen;
        if (other.touched != touch_stamp_) {
          other.touched = touch_stamp_;
          touched_.push_back(l2);
        }
      }
    }
    // One heap entry per touched link and pop, not one per frozen flow crossing it: the heap
    // stays near the number of set links instead of growing with set flows x path length.
    for (LinkId l2 : touched_) {
      if (l2 != e.link && links_[l2].unfrozen > 0) push(l2);
    }
  }
  moved_links_.clear();
  for (LinkId l : set_links_) {
    Link& link = links_[l];
    double load = 0.0;
    double max_rate = 0.0;
    for (const auto& m : link.members) {
      const double r = flows_[m.flow].rate;
      load += r;
      max_rate = std::max(max_rate, r);
    }
    // Exact comparison on purpose: any move, even rounding, re-checks the link's outside flows.
    if (load != link.load || max_rate != link.max_rate || link.dirty == epoch_) moved_links_.push_back(l);
    link.dirty = 0;
    link.load = load;
    link.max_rate = max_rate;
  }
}

bool MaxMinSolver::has_bottleneck(FlowId id) const {
  const Flow& f = flows_[id];
  for (LinkId l : f.links) {
    const Link& link = links_[l];
    if (saturated(link) && f.rate >= link.max_rate * (1.0 - kRelTol)) return true;
  }
  return false;
}

void MaxMinSolver::run(bool full) {
  ++epoch_;
  set_.clear();
  set_links_.clear();
  changed_.clear();
  if (full) {
    for (FlowId id = 0; id < flows_.size(); ++id) {
      if (flows_[id].alive) add_to_set(id);
    }
    for (LinkId l = 0; l < links_.size(); ++l) add_link_to_set(l);
  } else {
    // Seeds: new flows and everything sharing a link with them (they will take bandwidth from
    // those), and every flow on a link whose load or capacity changed.
    for (FlowId id : pending_flows_) {
      if (!flows_[id].alive) continue;
      add_to_set(id);
      for (LinkId l : flows_[id].links) {
        links_[l].dirty = epoch_;
        for (const auto& m : links_[l].members) add_to_set(m.flow);
      }
    }
    for (LinkId l : pending_links_) {
      add_link_to_set(l);
      links_[l].dirty = epoch_;
      for (const auto& m : links_[l].members) add_to_set(m.flow);
    }
  }
  pending_flows_.clear();
  pending_links_.clear();

  last_solve_rounds_ = 0;
  for (;;) {
    fill_set();
    ++last_solve_rounds_;
    if (full) break;
    joiners_.clear();
    // An outside flow keeps its bottleneck unless one of its links moved in this fill: before
    // the fill, it had one (the previous solve's fixed point, or an earlier pass's check).
    for (LinkId l : moved_links_) {
      for (const auto& m : links_[l].members) {
        if (flows_[m.flow].mark != epoch_ && !has_bottleneck(m.flow)) joiners_.push_back(m.flow);
      }
    }
    for (FlowId id : set_) {
      if (has_bottleneck(id)) continue;
      const Flow& f = flows_[id];
      // f is held back on a saturated link by outside flows taking more than it: they must
      // give some up, so they join the set.
      for (LinkId l : f.links) {
        const Link& link = links_[l];
        if (!saturated(link)) continue;
        for (const auto& m : link.members) {
          if (flows_[m.flow].mark != epoch_ && flows_[m.flow].rate > f.rate * (1.0 + kRelTol)) {
            joiners_.push_back(m.flow);
          }
        }
      }
    }
    if (joiners_.empty()) break;
    for (FlowId id : joiners_) add_to_set(id);
    // Above the percolation point of the bottleneck graph a change moves a large part of the
    // fabric; one fill of everything then costs less than more rounds of re-filling the set.
    if (set_.size() * kEscalateDenominator >= flow_count()) {
      for (FlowId id = 0; id < flows_.size(); ++id) {
        if (flows_[id].alive) add_to_set(id);
      }
      fill_set();
      ++last_solve_rounds_;
      break;
    }
  }

  last_solve_size_ = set_.size();
  for (FlowId id : set_) {
    Flow& f = flows_[id];
    if (f.old_rate < 0.0 || std::abs(f.rate - f.old_rate) > kRelTol * std::max(f.rate, f.old_rate)) {
      changed_.push_back(id);
    }
    f.old_rate = f.rate;
  }
}

void MaxMinSolver::solve() { run(false); }

void MaxMinSolver::solve_from_scratch() { run(true); }

}  // namespace dcsim::models::network
