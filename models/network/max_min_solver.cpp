#include "models/network/max_min_solver.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "models/network/reserve_touched.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

MaxMinSolver::LinkId MaxMinSolver::add_link(double capacity) {
  if (!(capacity >= 0.0)) throw sim::InternalError("MaxMinSolver: negative link capacity (this is a bug)");
  links_.push_back(Link{});
  links_.back().capacity = capacity;
  heap_pos_.push_back(kNotInHeap);
  return static_cast<LinkId>(links_.size() - 1);
}

void MaxMinSolver::set_capacity(LinkId link, double capacity) {
  if (!(capacity >= 0.0)) throw sim::InternalError("MaxMinSolver: negative link capacity (this is a bug)");
  links_[link].capacity = capacity;
  pending_capacity_links_.push_back(link);
}

void MaxMinSolver::set_precision(double eps) {
  if (!(eps >= kRelTol && eps <= 0.1)) throw sim::InternalError("MaxMinSolver: precision out of [1e-9, 0.1] (this is a bug)");
  precision_ = eps;
}

void MaxMinSolver::reserve(std::size_t flows, std::size_t links_per_flow) {
  reserve_touched(flows_, flows);
  reserve_touched(hot_, flows);
  reserve_touched(link_pool_, flows * links_per_flow);
  reserve_touched(slot_pool_, flows * links_per_flow);
  reserve_touched(set_, flows);
  reserve_touched(changed_, flows);
  reserve_touched(heap_, links_.size());
  reserve_touched(set_links_, links_.size());
  reserve_touched(moved_links_, links_.size());
  reserve_touched(touched_, links_.size());
  // Members: each link's share of flows x links_per_flow, at least a few.
  const std::size_t per_link = links_.empty() ? 0 : std::max<std::size_t>(4, 2 * flows * links_per_flow / links_.size());
  for (Link& l : links_) {
    reserve_touched(l.members, per_link);
    reserve_touched(l.bneck_flows, per_link / 2);
  }
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
  const auto len = static_cast<std::uint32_t>(links.size());
  if (len > f.cap) {
    f.off = static_cast<std::uint32_t>(link_pool_.size());
    f.cap = len;
    link_pool_.resize(link_pool_.size() + len);
    slot_pool_.resize(link_pool_.size());
  }
  f.len = len;
  std::copy(links.begin(), links.end(), link_pool_.begin() + f.off);
  if (hot_.size() < flows_.size()) hot_.resize(flows_.size());
  hot_[id] = Hot{};
  f.old_rate = -1.0;  // never equal to a solved rate: a new flow is always reported as changed
  f.alive = true;
  for (std::uint32_t i = 0; i < len; ++i) {
    auto& members = links_[links[i]].members;
    slot_pool_[f.off + i] = static_cast<std::uint32_t>(members.size());
    members.push_back(Member{id, i});
  }
  pending_flows_.push_back(id);
  return id;
}

void MaxMinSolver::remove_flow(FlowId id) {
  Flow& f = flows_[id];
  if (!f.alive) throw sim::InternalError("MaxMinSolver: removing a dead flow (this is a bug)");
  const double rate = hot_[id].rate;
  for (std::uint32_t i = 0; i < f.len; ++i) {
    const LinkId l = link_pool_[f.off + i];
    Link& link = links_[l];
    link.load -= rate;
    if (rate > 0.0 && rate >= link.max_rate) link.max_exact = false;
    auto& members = link.members;
    const std::uint32_t s = slot_pool_[f.off + i];
    members[s] = members.back();
    members.pop_back();
    if (s < members.size()) slot_pool_[flows_[members[s].flow].off + members[s].hop] = s;
    if (members.empty()) {
      link.load = 0.0;
      link.max_rate = 0.0;
      link.max_exact = true;
    }
    pending_links_.push_back(l);
  }
  f.len = 0;
  f.alive = false;
  hot_[id].rate = 0.0;
  free_flows_.push_back(id);
}

std::vector<MaxMinSolver::FlowId> MaxMinSolver::flows_on(LinkId link) const {
  std::vector<FlowId> out;
  for (const auto& m : links_[link].members) out.push_back(m.flow);
  std::sort(out.begin(), out.end());
  return out;
}

double MaxMinSolver::link_load(LinkId link) const {
  double load = 0.0;
  for (const auto& m : links_[link].members) load += hot_[m.flow].rate;
  return load;
}

void MaxMinSolver::add_link_to_set(LinkId l) {
  Link& link = links_[l];
  if (link.mark == epoch_) return;
  link.mark = epoch_;
  link.set_count = 0;
  link.set_load = 0.0;
  link.set_max = 0.0;
  set_links_.push_back(l);
}

void MaxMinSolver::add_to_set(FlowId id) {
  Flow& f = flows_[id];
  Hot& h = hot_[id];
  if (h.mark == epoch_) return;
  h.mark = epoch_;
  if (f.old_rate >= 0.0) f.old_rate = h.rate;
  set_.push_back(id);
  for (std::uint32_t i = 0; i < f.len; ++i) {
    const LinkId l = link_pool_[f.off + i];
    add_link_to_set(l);
    Link& link = links_[l];
    // Move the flow into the link's set prefix.
    const std::uint32_t slot = slot_pool_[f.off + i];
    const std::uint32_t front = link.set_count++;
    if (slot != front) {
      const Member other = link.members[front];
      link.members[front] = link.members[slot];
      link.members[slot] = other;
      slot_pool_[f.off + i] = front;
      slot_pool_[flows_[other.flow].off + other.hop] = slot;
    }
    link.set_load += h.rate;
    link.set_max = std::max(link.set_max, h.rate);
  }
}

void MaxMinSolver::add_all_to_set() {
  // Every live flow joins (links without flows keep load 0 and need no fill). Then every member
  // of a set link is in the set, so each member list is its own set prefix as it stands: no
  // swaps, and no set sums (fill_set reads neither for a link whose members are all in the set).
  for (FlowId id = 0; id < flows_.size(); ++id) {
    Flow& f = flows_[id];
    if (!f.alive) continue;
    Hot& h = hot_[id];
    if (h.mark == epoch_) continue;
    h.mark = epoch_;
    if (f.old_rate >= 0.0) f.old_rate = h.rate;
    set_.push_back(id);
    for (std::uint32_t i = 0; i < f.len; ++i) add_link_to_set(link_pool_[f.off + i]);
  }
  for (LinkId l : set_links_) {
    Link& link = links_[l];
    link.set_count = static_cast<std::uint32_t>(link.members.size());
    link.set_load = link.load;
    link.set_max = link.max_rate;
  }
}

std::size_t MaxMinSolver::sift_down(std::size_t i) {
  const std::size_t n = heap_.size();
  const HeapEntry e = heap_[i];
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && heap_[c + 1].share < heap_[c].share) ++c;
    if (!(heap_[c].share < e.share)) break;
    heap_[i] = heap_[c];
    heap_pos_[heap_[i].item] = static_cast<std::uint32_t>(i);
    i = c;
  }
  heap_[i] = e;
  heap_pos_[e.item] = static_cast<std::uint32_t>(i);
  return i;
}

std::size_t MaxMinSolver::sift_up(std::size_t i) {
  const HeapEntry e = heap_[i];
  while (i > 0) {
    const std::size_t p = (i - 1) / 2;
    if (!(e.share < heap_[p].share)) break;
    heap_[i] = heap_[p];
    heap_pos_[heap_[i].item] = static_cast<std::uint32_t>(i);
    i = p;
  }
  heap_[i] = e;
  heap_pos_[e.item] = static_cast<std::uint32_t>(i);
  return i;
}

void MaxMinSolver::heap_remove_top() {
  heap_pos_[heap_.front().item] = kNotInHeap;
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  if (heap_.empty()) return;
  heap_[0] = last;
  sift_down(0);
}

void MaxMinSolver::heap_erase(std::size_t pos) {
  heap_pos_[heap_[pos].item] = kNotInHeap;
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  if (pos == heap_.size()) return;
  heap_[pos] = last;
  sift_up(sift_down(pos));
}

void MaxMinSolver::set_bneck(FlowId id, LinkId l) {
  Hot& h = hot_[id];
  if (h.bneck == l) return;
  h.bneck = l;
  // The entry in the old link's list goes stale, dropped when that list is next read: cheaper
  // than finding it now, on every freeze.
  Link& link = links_[l];
  link.bneck_flows.push_back(id);
  if (link.bneck_flows.size() > 2 * link.members.size() + 8) bneck_flows(l);
}

const std::vector<MaxMinSolver::FlowId>& MaxMinSolver::bneck_flows(LinkId l) {
  auto& list = links_[l].bneck_flows;
  if (++seen_stamp_ == 0) restart_stamp(seen_stamp_);
  std::size_t kept = 0;
  for (FlowId id : list) {
    Flow& f = flows_[id];
    if (!f.alive || hot_[id].bneck != l || f.seen == seen_stamp_) continue;
    f.seen = seen_stamp_;
    list[kept++] = id;
  }
  list.resize(kept);
  return list;
}

void MaxMinSolver::rescan(Link& link) {
  double load = 0.0;
  double max_rate = 0.0;
  for (const auto& m : link.members) {
    const double r = hot_[m.flow].rate;
    load += r;
    max_rate = std::max(max_rate, r);
  }
  link.load = load;
  link.max_rate = max_rate;
  link.max_exact = true;
}

void MaxMinSolver::fill_set() {
  last_solve_filled_ += set_.size();
  // Every set flow unfrozen, without a pass over the set.
  if (++fill_stamp_ == 0) restart_stamp(fill_stamp_);
  const auto n_links = static_cast<std::uint32_t>(links_.size());
  if (heap_pos_.size() < links_.size() + flows_.size()) heap_pos_.resize(links_.size() + flows_.size(), kNotInHeap);
  // What outside flows leave on each set link: capacity - (load - the set flows' rates), or the
  // whole capacity when every member is in the set (exact, and it clears rounding drift).
  //
  // Indexed binary min-heap keyed by fair share, built in the same pass. Shares only grow as
  // flows freeze, so a touched entry is sifted down in place: no stale entries, the heap never
  // exceeds the set links (a plain heap with lazy deletion grew with frozen flows x path
  // length). A link with one set flow keeps its share (what is left of it) until that flow
  // freezes, so such links are not entries of their own: each flow has one entry for the least
  // of them, its private cap (most links of a large fill carry one flow: a permutation's
  // 6,000 links become about 1,000 entries). The result is the same: a link enters the fill
  // only through its smallest share, and only the least private link of a flow can be smallest.
  heap_.clear();
  capped_flows_.clear();
  for (LinkId l : set_links_) {
    Link& link = links_[l];
    link.unfrozen = link.set_count;
    link.whole = link.set_count == link.members.size();
    link.remaining = link.whole ? link.capacity : link.capacity - (link.load - link.set_load);
    link.last_share = 0.0;
    if (link.unfrozen == 1) {
      Flow& f = flows_[link.members[0].flow];
      const double cap = std::max(0.0, link.remaining);
      if (f.cap_stamp != fill_stamp_) {
        f.cap_stamp = fill_stamp_;
        f.cap_share = cap;
        f.cap_link = l;
        capped_flows_.push_back(link.members[0].flow);
      } else if (cap < f.cap_share) {
        f.cap_share = cap;
        f.cap_link = l;
      }
    } else if (link.unfrozen > 1) {
      heap_pos_[l] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(HeapEntry{std::max(0.0, link.remaining) / link.unfrozen, l});
    }
  }
  for (FlowId id : capped_flows_) {
    heap_pos_[n_links + id] = static_cast<std::uint32_t>(heap_.size());
    heap_.push_back(HeapEntry{flows_[id].cap_share, n_links + id});
  }
  for (std::size_t i = heap_.size() / 2; i-- > 0;) sift_down(i);  // keeps heap_pos_ current

  // Freezes flow `id` at `share` with bottleneck `bneck`: its links give up the share.
  const auto freeze = [&](FlowId id, double share, LinkId bneck) {
    Hot& h = hot_[id];
    h.frozen = fill_stamp_;
    h.rate = share;
    set_bneck(id, bneck);
    const std::uint32_t pos = heap_pos_[n_links + id];
    if (pos != kNotInHeap) heap_erase(pos);  // its private cap no longer matters
    for (LinkId l2 : links_of(id)) {
      Link& other = links_[l2];
      other.remaining -= share;
      other.last_share = std::max(other.last_share, share);  // an ulp of rounding may lower a share
      --other.unfrozen;
      if (other.touched != touch_stamp_) {
        other.touched = touch_stamp_;
        touched_.push_back(l2);
      }
    }
  };
  while (!heap_.empty()) {
    const HeapEntry e = heap_.front();
    heap_remove_top();
    const double share = e.share;
    if (++touch_stamp_ == 0) restart_stamp(touch_stamp_);
    touched_.clear();
    if (e.item >= n_links) {
      const FlowId id = e.item - n_links;
      freeze(id, share, flows_[id].cap_link);
    } else {
      const Link& link = links_[e.item];
      for (std::uint32_t i = 0; i < link.set_count; ++i) {
        const FlowId id = link.members[i].flow;
        if (hot_[id].frozen != fill_stamp_) freeze(id, share, e.item);
      }
    }
    for (LinkId l2 : touched_) {
      const std::uint32_t pos = heap_pos_[l2];
      if (pos == kNotInHeap) continue;  // the link just popped, a private one, or one left earlier
      const Link& other = links_[l2];
      if (other.unfrozen == 0) {
        heap_erase(pos);  // nothing left to freeze there (most links of a big fill end so)
        continue;
      }
      heap_[pos].share = std::max(0.0, other.remaining) / other.unfrozen;
      // Keys normally grow (sift down); rounding may lower one by an ulp (sift up).
      sift_up(sift_down(pos));
    }
  }
  // Loads and largest rates from what the fill left: outside flows kept their rates, so the new
  // load is the capacity minus what is left, and the set's new largest rate is the last share.
  moved_links_.clear();
  for (LinkId l : set_links_) {
    Link& link = links_[l];
    const double load = link.capacity - link.remaining;
    const double new_set_load = link.whole ? load : load - (link.load - link.set_load);
    const double new_set_max = link.last_share;
    const double max_before = link.max_rate;
    if (link.whole || new_set_max > max_before) {
      // Above every outside rate (<= the old bound) and every set rate: the largest, exactly.
      link.max_rate = new_set_max;
      link.max_exact = true;
    } else if (link.set_max >= max_before && new_set_max < link.set_max) {
      link.max_exact = false;  // a set flow held the largest rate and dropped: an upper bound now
    }
    // An outside flow bottlenecked here loses (B) only if the link falls below saturation or its
    // largest rate grows: a load that rose (the set took slack) or fell but stays saturated, and
    // a largest rate that only dropped, leave it bottlenecked. Exact comparison on purpose: a
    // move by rounding that unsaturates the link re-checks its outside flows.
    if ((load != link.load && !(load >= link.capacity * (1.0 - precision_) - 1e-300)) || link.max_rate > max_before ||
        link.dirty == epoch_) {
      moved_links_.push_back(l);
    }
    link.dirty = 0;
    link.set_load = new_set_load;
    link.load = load;
    link.set_max = new_set_max;
  }
}

bool MaxMinSolver::bottleneck_on(FlowId id, LinkId l) {
  if (l == kNoLink) return false;
  Link& link = links_[l];
  if (!saturated(link)) return false;
  const double r = hot_[id].rate;
  if (r >= link.max_rate * (1.0 - precision_)) return true;
  if (link.max_exact) return false;
  rescan(link);  // the bound was stale: is f the largest after all?
  return saturated(link) && r >= link.max_rate * (1.0 - precision_);
}

bool MaxMinSolver::find_bottleneck(FlowId id) {
  for (LinkId l : links_of(id)) {
    if (bottleneck_on(id, l)) {
      set_bneck(id, l);
      return true;
    }
  }
  return false;
}

void MaxMinSolver::restart_stamp(std::uint32_t& stamp) {
  // The stamp wrapped after 2^32 bumps (a long flow-mode run): clear every field that holds
  // this stamp's values, so that no stale value equals a future one, and start again at 1.
  if (&stamp == &epoch_) {
    for (Link& link : links_) link.mark = link.dirty = 0;
    for (Hot& h : hot_) h.mark = 0;
  } else if (&stamp == &seen_stamp_) {
    for (Flow& f : flows_) f.seen = 0;
  } else if (&stamp == &fill_stamp_) {
    for (Hot& h : hot_) h.frozen = 0;
    for (Flow& f : flows_) f.cap_stamp = 0;
  } else {
    for (Link& link : links_) link.touched = 0;
  }
  stamp = 1;
}

void MaxMinSolver::run(bool full) {
  if (++epoch_ == 0) restart_stamp(epoch_);
  set_.clear();
  set_links_.clear();
  changed_.clear();
  // Many new flows at once (a collective step, a permutation starting): they and the flows
  // they share links with are most of the fabric, so one fill of everything costs less than
  // seeding, filling and checking the set.
  full = full || (!pending_flows_.empty() && pending_flows_.size() * kEscalateDenominator >= flow_count());
  if (full) {
    add_all_to_set();
  } else {
    // Seeds: new flows and everything sharing a link with them (they will take bandwidth from
    // those), and every flow on a link whose load or capacity changed.
    for (FlowId id : pending_flows_) {
      if (!flows_[id].alive) continue;
      add_to_set(id);
      for (LinkId l : links_of(id)) {
        links_[l].dirty = epoch_;
        for (const auto& m : links_[l].members) add_to_set(m.flow);
      }
    }
    // A flow left: only the flows whose bottleneck was one of its links can lose (B) (every
    // other flow's bottleneck kept its load and largest rate).
    for (LinkId l : pending_links_) {
      // Left empty (remove_flow zeroed its load): nothing to re-share, and every name in its
      // bottleneck list is stale.
      if (links_[l].members.empty()) {
        links_[l].bneck_flows.clear();
        continue;
      }
      // Still loaded to within eps of capacity: the flows bottlenecked there keep (B) within eps
      // (a departure cannot raise the largest rate), so the freed bandwidth waits as slack until
      // further departures push the link below saturation. At eps = kRelTol only a departure of
      // a rate below kRelTol of capacity is absorbed so.
      if (saturated(links_[l]) && links_[l].dirty != epoch_) continue;
      add_link_to_set(l);
      links_[l].dirty = epoch_;
      for (FlowId id : bneck_flows(l)) add_to_set(id);
    }
    // A capacity changed: the link may now be over-full, so all its flows are re-shared.
    for (LinkId l : pending_capacity_links_) {
      add_link_to_set(l);
      links_[l].dirty = epoch_;
      for (const auto& m : links_[l].members) add_to_set(m.flow);
    }
  }
  pending_flows_.clear();
  pending_links_.clear();
  pending_capacity_links_.clear();

  last_solve_rounds_ = 0;
  last_solve_filled_ = 0;
  for (;;) {
    fill_set();
    ++last_solve_rounds_;
    if (full) break;
    joiners_.clear();
    // An outside flow keeps its bottleneck unless one of its links moved in this fill: before
    // the fill, it had one (the previous solve's fixed point, or an earlier pass's check).
    // Its remembered bottleneck is still valid unless that very link moved.
    candidates_.clear();
    for (LinkId l : moved_links_) {
      if (links_[l].bneck_flows.empty()) continue;
      for (FlowId id : bneck_flows(l)) {
        if (hot_[id].mark != epoch_) candidates_.push_back(id);
      }
    }
    for (FlowId id : candidates_) {
      if (!find_bottleneck(id)) joiners_.push_back(id);
    }
    for (FlowId id : set_) {
      // Usually the link it froze on is its bottleneck; otherwise look at all its links.
      if (bottleneck_on(id, hot_[id].bneck) || find_bottleneck(id)) continue;
      // f is held back on a saturated link by outside flows taking more than it. The largest
      // of them join the set: they are the ones bottlenecked there, which give f bandwidth
      // when it grows; flows in between are bottlenecked elsewhere and keep their rates (if f
      // ends up needing them too, the next round pulls them in, as the largest left outside).
      const double rate = hot_[id].rate;
      for (LinkId l : links_of(id)) {
        const Link& link = links_[l];
        if (!saturated(link)) continue;
        double top = 0.0;  // outside flows come after the set prefix of the member list
        for (std::size_t i = link.set_count; i < link.members.size(); ++i) {
          top = std::max(top, hot_[link.members[i].flow].rate);
        }
        if (!(top > rate * (1.0 + precision_))) continue;
        for (std::size_t i = link.set_count; i < link.members.size(); ++i) {
          if (hot_[link.members[i].flow].rate >= top * (1.0 - precision_)) joiners_.push_back(link.members[i].flow);
        }
      }
    }
    if (joiners_.empty()) break;
    for (FlowId id : joiners_) add_to_set(id);
    // Above the percolation point of the bottleneck graph a change moves a large part of the
    // fabric; one fill of everything then costs less than more rounds of re-filling the set.
    if (set_.size() * kEscalateDenominator >= flow_count()) {
      add_all_to_set();
      fill_set();
      ++last_solve_rounds_;
      break;
    }
  }

  last_solve_size_ = set_.size();
  for (FlowId id : set_) {
    Flow& f = flows_[id];
    const double rate = hot_[id].rate;
    if (f.old_rate < 0.0 || std::abs(rate - f.old_rate) > kRelTol * std::max(rate, f.old_rate)) {
      changed_.push_back(id);
    }
    f.old_rate = rate;
  }
}

void MaxMinSolver::solve() { run(false); }

void MaxMinSolver::solve_from_scratch() { run(true); }

}  // namespace dcsim::models::network
