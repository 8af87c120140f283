#pragma once
// MaxMinSolver: max-min fair bandwidth sharing of flows over capacitated links, solved by
// progressive filling and re-solved incrementally for the part of the fabric a change touches.
//
// Units: capacities and rates in bits per second (any consistent unit works; the solver is
// unit-free). A flow is the ordered list of links it crosses (a link may be listed once only).
//
// The math. Links l have capacity c_l; flow f crosses the links P(f). An allocation r >= 0 is
// feasible when sum_{f : l in P(f)} r_f <= c_l for every l. It is max-min fair when no r_f can
// grow without shrinking some r_g <= r_f. It is unique and is characterised by bottlenecks:
//   r is max-min fair  <=>  every flow f has a link l in P(f) that is saturated
//                           (sum_{g on l} r_g = c_l) and on which f has the largest rate
//                           (r_f >= r_g for all g on l).                                   (B)
// Progressive filling computes it: all unfrozen flows grow together; the link whose fair share
//   s_l = (c_l - frozen load on l) / (number of unfrozen flows on l)
// is smallest saturates first; its unfrozen flows freeze at s_l; repeat. With a heap of links
// keyed by s_l (keys only grow as flows freeze, so stale heap entries are skipped lazily) this
// costs O(sum_f |P(f)| log L).
//
// Incremental re-solve. A change seeds a set S of flows: a new flow and every flow on its links
// (it takes bandwidth from them); for a flow that left, the flows whose remembered bottleneck
// (below) was one of its links, the only ones whose (B) it can break; every flow on a link whose
// capacity changed. The solver then repeats:
//   1. progressive filling for the flows in S only, every other flow's rate fixed (it takes
//      c_l - fixed load as capacity);
//   2. checks (B) where it may have broken: each flow remembers a link on which it satisfied (B)
//      (where it froze, or where the last check found one), which stays valid until that link's
//      load or max rate moves; so an outside flow is re-checked only when the fill moved its
//      remembered link, and joins S if it has no bottleneck left; a flow in S first tries the
//      link it froze on, and without a valid bottleneck pulls in the largest outside flows on
//      each of its saturated links where they take more than it (the flows bottlenecked there,
//      which must give it bandwidth; later rounds pull more if that was not enough);
// until nothing joins. At that fixed point every flow satisfies (B) — those far from the change
// kept links whose load did not move — so the result is THE max-min allocation, equal to a
// from-scratch solve up to floating-point rounding (the differential test checks it). The cost
// is proportional to the part of the fabric whose rates actually move (times path length and
// log L), not to the total number of flows nor to the flows per link: links keep their load,
// an upper bound on their largest rate, the set's members first in their member list and the
// flows bottlenecked on them, so neither the fill nor the checks walk a link's other flows
// (except to re-scan a largest rate that dropped). SimGrid's lmm re-solves the whole connected
// component at every change. Where the bottleneck graph percolates (random pairs at > ~3 flows
// per host link) the part that moves is itself a growing share of all flows:
// docs/fabric-benchmark.md measures it.
//
// Precision. A link is saturated when its load >= c_l (1 - eps); a flow is a link's largest when
// its rate >= max rate (1 - eps); eps = precision(), by default kRelTol (exact up to rounding).
// A larger eps (SimGrid's maxmin/precision is the absolute counterpart, in bytes/s) stops a
// change from propagating once it falls below eps of the rates it would move: the fixed point
// then satisfies (B) within eps (every flow has a link loaded to within eps of capacity on which
// no flow takes more than 1/(1 - eps) of its rate), and the allocation stays feasible exactly,
// because the fill gives the set only what outside flows leave. A departure that leaves a link
// loaded to within eps of capacity re-solves nothing there: the freed bandwidth waits as slack
// (at most eps of the capacity) until further departures unsaturate the link, and flows that
// grow elsewhere may take it without moving the link's own flows. The local slack can add up along
// chains: the tests measure rates within 5 eps of exact max-min at worst, about 1e-3 eps on
// average. Where the bottleneck graph percolates this cuts the work per change several-fold;
// docs/fabric-benchmark.md measures the cost and the drift in completion times. Rates that move
// by less than kRelTol are not reported as changed, at any precision.

#include <cstdint>
#include <span>
#include <vector>

namespace dcsim::models::network {

class MaxMinSolver {
 public:
  static constexpr double kRelTol = 1e-9;
  // Relative precision eps of the bottleneck conditions, in [kRelTol, 0.1].
  void set_precision(double eps);
  double precision() const { return precision_; }
  // An incremental solve whose set reaches 1/kEscalateDenominator of all flows finishes with
  // one fill of every flow, and one with that share of new flows starts as one (same result up
  // to rounding; fewer passes over a set that is most of the fabric).
  static constexpr std::size_t kEscalateDenominator = 8;
  using LinkId = std::uint32_t;
  using FlowId = std::uint32_t;

  // Capacity >= 0 (0: a dead link; a flow on it gets rate 0).
  LinkId add_link(double capacity);
  void set_capacity(LinkId link, double capacity);
  double capacity(LinkId link) const { return links_[link].capacity; }

  // Capacity for `flows` concurrent flows of about `links_per_flow` links, taken now (when the
  // fabric is built) rather than growing while the first flows start: a performance hint only.
  void reserve(std::size_t flows, std::size_t links_per_flow);
  // The flow takes rate 0 until the next solve(). Ids are recycled after remove_flow().
  FlowId add_flow(std::span<const LinkId> links);
  void remove_flow(FlowId flow);

  // Incremental re-solve of what changed since the last solve. Afterwards changed_flows() lists
  // every flow whose rate moved (new flows included), in no particular order.
  void solve();
  // Reference implementation: progressive filling over every flow.
  void solve_from_scratch();

  double rate(FlowId flow) const { return hot_[flow].rate; }
  std::span<const LinkId> flow_links(FlowId flow) const { return links_of(flow); }
  bool flow_alive(FlowId flow) const { return flow < flows_.size() && flows_[flow].alive; }
  std::span<const FlowId> changed_flows() const { return changed_; }
  // Flows currently on a link, in id order (not the member list's, which solves reshuffle: what
  // callers do with them, such as re-routing in turn, must not depend on the solver's history).
  std::vector<FlowId> flows_on(LinkId link) const;
  std::size_t flow_count_on(LinkId link) const { return links_[link].members.size(); }
  // Sum of rates of the flows on a link, as of the last solve.
  double link_load(LinkId link) const;
  std::size_t link_count() const { return links_.size(); }
  std::size_t flow_count() const { return flows_.size() - free_flows_.size(); }
  // Flows visited by the last solve() (set S at its fixed point): a measure of incrementality.
  std::size_t last_solve_size() const { return last_solve_size_; }
  // Fill rounds of the last solve() (1 when the seeds were enough).
  std::size_t last_solve_rounds() const { return last_solve_rounds_; }
  // Flows the fills of the last solve() re-computed, summed over its rounds: its main cost.
  std::size_t last_solve_filled() const { return last_solve_filled_; }

 private:
  static constexpr LinkId kNoLink = UINT32_MAX;
  struct Member {
    FlowId flow;
    std::uint32_t hop;  // index of this link in the flow's link list
  };
  // Two cache lines per link: the first holds what the freeze loop and remove_flow touch, the
  // second what a solve's set-up and wrap-up touch.
  struct alignas(64) Link {
    // Scratch for one fill: what is left for the set flows not yet frozen, and the share the
    // last of them froze at (shares only grow during a fill: the set's new largest rate).
    double remaining = 0.0;
    double last_share = 0.0;
    std::uint32_t unfrozen = 0;
    std::uint32_t touched = 0;  // == touch_stamp_: already queued for a heap update
    // The flows on the link. During a solve the set flows come first ([0, set_count), swapped
    // there as they join), so the fill never walks outside flows.
    std::vector<Member> members;
    // Kept between solves: the sum of the members' rates (capacity minus what a fill left,
    // re-summed exactly whenever the members are scanned), and an upper bound on their largest
    // rate (exact when max_exact; a member whose rate drops or leaves may make it stale, and the
    // next bottleneck check that needs it re-scans the members).
    double load = 0.0;
    double max_rate = 0.0;

    double capacity = 0.0;
    // Scratch for one solve: the set flows' sum and largest rate as of the last fill.
    double set_load = 0.0;
    double set_max = 0.0;
    std::uint32_t set_count = 0;
    std::uint32_t mark = 0;     // == epoch_: in set_links_
    // Flows whose remembered bottleneck (Hot::bneck) is this link: the only ones that can lose
    // their bottleneck when the link's load or largest rate moves. May hold stale entries (read
    // it through bneck_flows()).
    std::vector<FlowId> bneck_flows;
    std::uint32_t dirty = 0;    // == epoch_: membership or capacity changed before this solve
    bool max_exact = true;
    bool whole = false;         // every member is in the set: capacity and load exact
  };
  // A flow's links live in one shared pool (no allocation per flow): links at
  // link_pool_[off, off + len), its position in each link's member list at slot_pool_[same].
  // A recycled id reuses its chunk when the new path fits (cap), else takes a new one.
  struct Flow {
    double old_rate = 0.0;
    std::uint32_t seen = 0;  // == seen_stamp_: already kept by this bneck_flows() pass
    std::uint32_t off = 0;
    std::uint32_t len = 0;
    std::uint32_t cap = 0;
    bool alive = false;
    // Scratch for one fill (valid when cap_stamp == fill_stamp_): the least share of the
    // flow's links that carry no other set flow, and that link.
    std::uint32_t cap_stamp = 0;
    LinkId cap_link = 0;
    double cap_share = 0.0;
  };
  std::span<const LinkId> links_of(FlowId f) const { return {link_pool_.data() + flows_[f].off, flows_[f].len}; }
  // What the fill and the checks read for every member of a link, packed apart from the cold
  // per-flow data (four flows per cache line): the fill is bound by these random reads.
  struct Hot {
    double rate = 0.0;
    std::uint32_t mark = 0;    // == epoch_: in the set of this solve
    std::uint32_t frozen = 0;  // == fill_stamp_: frozen in this fill
    // A link on which the flow satisfied (B) when last checked or frozen. It stays valid until
    // that link's load or max rate moves, so an outside flow is re-checked only when its own
    // bottleneck moved, not whenever any of its links did.
    LinkId bneck = kNoLink;
  };
  struct HeapEntry {
    double share;
    std::uint32_t item;  // a link, or links_.size() + a flow: the flow's private cap (fill_set)
  };
  static constexpr std::uint32_t kNotInHeap = UINT32_MAX;

  std::size_t sift_down(std::size_t i);  // returns the final position
  std::size_t sift_up(std::size_t i);
  void heap_remove_top();
  void heap_erase(std::size_t pos);
  void add_to_set(FlowId f);
  // Every live flow into the set (a full solve).
  void add_all_to_set();
  void add_link_to_set(LinkId l);
  void fill_set();
  bool bottleneck_on(FlowId f, LinkId l);
  void set_bneck(FlowId f, LinkId l);
  // Link l's bottlenecked flows, its list cleared of stale entries and duplicates first.
  const std::vector<FlowId>& bneck_flows(LinkId l);
  // Re-sums the link's load and largest rate from its members (exact again).
  void rescan(Link& link);
  // Looks for a link satisfying (B) for f; remembers it in hot_[f].bneck.
  bool find_bottleneck(FlowId f);
  bool saturated(const Link& l) const { return l.load >= l.capacity * (1.0 - precision_) - 1e-300; }
  void run(bool full);
  // Called when a 32-bit stamp wrapped to 0 (stamps stay 32-bit to keep the hot structs small).
  void restart_stamp(std::uint32_t& stamp);
  // For tests: the stamps' values, to start them near the wrap.
 public:
  void set_stamps_for_test(std::uint32_t value) { epoch_ = seen_stamp_ = fill_stamp_ = touch_stamp_ = value; }

 private:

  std::vector<Link> links_;
  std::vector<Flow> flows_;
  std::vector<LinkId> link_pool_;
  std::vector<std::uint32_t> slot_pool_;
  std::vector<Hot> hot_;
  std::uint32_t fill_stamp_ = 0;
  std::vector<FlowId> free_flows_;
  std::vector<FlowId> pending_flows_;  // added since the last solve
  std::vector<LinkId> pending_links_;  // a member left since the last solve
  std::vector<LinkId> pending_capacity_links_;  // capacity changed since the last solve
  std::vector<FlowId> set_;
  std::vector<LinkId> set_links_;
  std::vector<FlowId> changed_;
  std::vector<HeapEntry> heap_;
  std::vector<std::uint32_t> heap_pos_;  // per heap item (HeapEntry::item): index in heap_, or kNotInHeap
  std::vector<FlowId> capped_flows_;  // flows with a private cap in this fill
  std::vector<FlowId> candidates_;
  std::vector<FlowId> joiners_;
  std::vector<LinkId> moved_links_;
  std::vector<LinkId> touched_;
  std::uint32_t touch_stamp_ = 0;  // links whose load, max rate or capacity moved in the last fill
  std::uint32_t epoch_ = 0;
  std::uint32_t seen_stamp_ = 0;
  double precision_ = kRelTol;
  std::size_t last_solve_size_ = 0;
  std::size_t last_solve_rounds_ = 0;
  std::size_t last_solve_filled_ = 0;
};

}  // namespace dcsim::models::network
