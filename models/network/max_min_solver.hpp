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
// Incremental re-solve. A change (flow added or removed, capacity changed) seeds a set S of flows
// (the new flows, and every flow on a touched link). The solver then repeats:
//   1. progressive filling for the flows in S only, every other flow's rate fixed (it takes
//      c_l - fixed load as capacity);
//   2. checks (B) where it may have broken: each flow remembers a link on which it satisfied (B)
//      (where it froze, or where the last check found one), which stays valid until that link's
//      load or max rate moves; so an outside flow is re-checked only when the fill moved its
//      remembered link, and joins S if it has no bottleneck left; a flow in S first tries the
//      link it froze on, and without a valid bottleneck pulls in the outside flows that take more
//      than it on its saturated links;
// until nothing joins. At that fixed point every flow satisfies (B) — those far from the change
// kept links whose load did not move — so the result is THE max-min allocation, equal to a
// from-scratch solve up to floating-point rounding (the differential test checks it). The cost
// is proportional to the part of the fabric whose rates actually move, not to the total number
// of flows: SimGrid's lmm re-solves the whole connected component at every change. Where the
// bottleneck graph percolates (random pairs at > ~3 flows per host link) the part that moves is
// itself a growing share of all flows: docs/fabric-benchmark.md measures it.
//
// Tolerances: a link is saturated when its load >= c_l (1 - kRelTol); rates are compared with the
// same relative tolerance. Rates that move by less than kRelTol are not reported as changed.

#include <cstdint>
#include <span>
#include <vector>

namespace dcsim::models::network {

class MaxMinSolver {
 public:
  static constexpr double kRelTol = 1e-9;
  // An incremental solve whose set reaches 1/kEscalateDenominator of all flows finishes with
  // one fill of every flow (same result; fewer passes over a set that is most of the fabric).
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
  // Flows currently on a link (order unspecified).
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
  struct Member {
    FlowId flow;
    std::uint32_t hop;  // index of this link in the flow's link list
  };
  struct Link {
    double capacity = 0.0;
    std::vector<Member> members;
    // Scratch for one solve.
    double remaining = 0.0;
    double load = 0.0;
    double max_rate = 0.0;
    std::uint32_t unfrozen = 0;
    std::uint32_t mark = 0;
    std::uint32_t dirty = 0;
    std::uint32_t touched = 0;  // == touch_stamp_: already queued for a heap push  // == epoch_: membership or capacity changed before this solve
  };
  // A flow's links live in one shared pool (no allocation per flow): links at
  // link_pool_[off, off + len), its position in each link's member list at slot_pool_[same].
  // A recycled id reuses its chunk when the new path fits (cap), else takes a new one.
  struct Flow {
    double old_rate = 0.0;
    std::uint32_t off = 0;
    std::uint32_t len = 0;
    std::uint32_t cap = 0;
    bool alive = false;
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
    LinkId bneck = 0;
  };
  struct HeapEntry {
    double share;
    LinkId link;
  };
  static constexpr std::uint32_t kNotInHeap = UINT32_MAX;

  std::size_t sift_down(std::size_t i);  // returns the final position
  std::size_t sift_up(std::size_t i);
  void heap_remove_top();
  void add_to_set(FlowId f);
  void add_link_to_set(LinkId l);
  void fill_set();
  bool bottleneck_on(FlowId f, LinkId l) const;
  // Looks for a link satisfying (B) for f; remembers it in hot_[f].bneck.
  bool find_bottleneck(FlowId f);
  bool saturated(const Link& l) const { return l.load >= l.capacity * (1.0 - kRelTol) - 1e-300; }
  void run(bool full);

  std::vector<Link> links_;
  std::vector<Flow> flows_;
  std::vector<LinkId> link_pool_;
  std::vector<std::uint32_t> slot_pool_;
  std::vector<Hot> hot_;
  std::uint32_t fill_stamp_ = 0;
  std::vector<FlowId> free_flows_;
  std::vector<FlowId> pending_flows_;  // added since the last solve
  std::vector<LinkId> pending_links_;  // touched since the last solve
  std::vector<FlowId> set_;
  std::vector<LinkId> set_links_;
  std::vector<FlowId> changed_;
  std::vector<HeapEntry> heap_;
  std::vector<std::uint32_t> heap_pos_;  // per link: index in heap_, or kNotInHeap
  std::vector<FlowId> joiners_;
  std::vector<LinkId> moved_links_;
  std::vector<LinkId> touched_;
  std::uint32_t touch_stamp_ = 0;  // links whose load, max rate or capacity moved in the last fill
  std::uint32_t epoch_ = 0;
  std::size_t last_solve_size_ = 0;
  std::size_t last_solve_rounds_ = 0;
  std::size_t last_solve_filled_ = 0;
};

}  // namespace dcsim::models::network
