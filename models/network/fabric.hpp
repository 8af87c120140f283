#pragma once
// Fabric: flows on a Topology, sharing bandwidth max-min fairly (MaxMinSolver), routed by a
// Router, with RoCE v2 approximations and link/switch/NIC failures. Time is passed in (int64 ns):
// the fabric is a continuous model with one seam, next_event_time() / advance(now), so one
// engine event drives any number of flows (FabricSimulation), and the benchmark can drive it in
// a plain loop. We keep flows in our own arrays instead of one sim::Activity each: an activity
// per flow would cost an engine event per rate change, and a completion changes the rate of
// every flow it shared a bottleneck with. fabric.cpp holds flow bookkeeping, the solve and the
// events; fabric_failover.cpp link, switch and port failures; fabric_pfc.cpp PFC.
//
// Flow life: start_flow(now) -> the flow (each of its subflows) takes no bandwidth during its
// route latency (sum of link latencies: cable 5 ns/m plus switch port-to-port), like SimGrid's
// latency phase -> it drains at its max-min rate -> it finishes when its last subflow drains.
// Finish times are whole nanoseconds, rounded up: finish = activation + ceil(bits / rate).
// A flow between a host and itself finishes at once. Flows are numbered in start order
// (flow_number), which also numbers their QPs for ECMP hashing.
//
// RoCE v2 (all off by default: pure max-min, comparable with SimGrid CM02 without latency
// weighting). Documented approximations, each with a test showing it acts:
//  - goodput: payload rate = link share x mtu / (mtu + header_bytes). Headers per packet: Ethernet
//    14 + FCS 4 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 62 B (IPv6: 82 B; add 20 B of preamble
//    and inter-frame gap to count the wire exactly).
//  - PFC incast: a link carrying >= pfc_incast_fanin flows is paused part of the time; its usable
//    capacity becomes pfc_efficiency x capacity (lossless, so nothing is retransmitted, but
//    pause/resume cycles waste time).
//  - PFC congestion spreading (pfc_spreading): a switch egress link L in incast (>= fan-in
//    flows) that is saturated fills the ingress queues feeding it, so the switch pauses the
//    upstream links U that carry L's flows. Flow-level approximation, recomputed after every
//    solve: U is paused a fraction p_U = max(0, 1 - r_I / (c_U x n_I / n_U)) of the time, where
//    r_I is the sum of the max-min rates L gives its n_I flows that cross U, and c_U x n_I / n_U
//    is what U would give them unpaused (an equal share of U's capacity, n_U flows on U). A flow
//    on U that does not go to L (a victim: head-of-line blocked in the shared ingress queue of
//    the same priority) moves only while U is not paused: its rate is its max-min rate x
//    (1 - p_U) (x the product over every link where it is a victim). The bandwidth victims lose
//    is not given to other flows (pauses idle the link). pfc_spreading_hops = h applies the same
//    rule h links upstream of L along L's flows (1: the links into L's switch only). The
//    incast flows themselves keep their rate (they are limited by L).
//  - DCQCN: each time a subflow starts or its rate drops (a collision), it pays
//    dcqcn_recovery_ns x new rate x dcqcn_loss_fraction of extra transfer (the rate dips and
//    recovers: the lost area of the rate curve, as a triangle-like fraction).
//
// Failures: a link (or every link of a switch, or a host NIC port) going down reroutes the
// subflows crossing it (bond failover for a NIC: the host's other ports remain candidates); a
// flow with no path left fails with a reason. A link, switch or port coming back up: with
// standard ECMP (RoutingConfig::resilient_hashing false) the switches recompute their hash
// buckets, so every active subflow whose route() now differs moves to the new route with its
// remaining bytes (flows in their latency phase take the new route at once, keeping their
// activation time); with resilient hashing flows stay and the restored link serves new flows.
// A moved subflow starts from rate 0 at the next solve, like a new one (so DCQCN charges its ramp
// again). rerouted_subflows() counts the moves of both kinds.
//
// Resources: capacities that flows share beside the links (a drive's read or write bandwidth, a
// recovery throttle), in the same max-min solve: a flow names them at start and each of its
// subflows crosses them after its route. A resource's capacity is payload bits per second (the
// RoCE goodput factor does not apply to it), and it adds no latency. A flow between a host and
// itself that names a resource drains through it (a local drive write) instead of finishing at
// once. Failing a resource fails the flows on it, as a link with no path left does.
//
// Complexity: start/finish O(path) plus amortised event queue moves (RadixQueue) plus the
// incremental solve, which touches the flows whose rates move (see max_min_solver.hpp). Memory
// O(concurrent flows): finished flows are handed back and their slots reused.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/network/finished_flow.hpp"
#include "models/network/max_min_solver.hpp"
#include "models/network/radix_queue.hpp"
#include "models/network/routing.hpp"
#include "models/network/topology.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

struct RoceConfig {
  bool enabled = false;
  int mtu_bytes = 4096;
  int header_bytes = 62;
  bool pfc = false;
  int pfc_incast_fanin = 8;
  double pfc_efficiency = 0.9;
  bool pfc_spreading = false;     // pauses spread to upstream links and block victims (needs pfc)
  int pfc_spreading_hops = 1;     // how many links upstream of the congested port, >= 1
  bool dcqcn = false;
  std::int64_t dcqcn_recovery_ns = 20'000;
  double dcqcn_loss_fraction = 0.5;
};

struct FabricOptions {
  RoutingConfig routing;
  RoceConfig roce;
  bool record_routes = false;      // keep the link ids of each route for the trace
  bool track_link_bytes = true;    // per-link carried bytes, for utilisation
  // Per-link utilisation series, off when 0: payload bytes each link carried in each interval
  // of this length (needs track_link_bytes). Bounded for big fabrics: memory is links x
  // link_series_max_buckets doubles; a run longer than that many intervals merges adjacent
  // pairs and doubles the interval, so the series always spans the whole run.
  std::int64_t link_series_interval_ns = 0;
  std::size_t link_series_max_buckets = 256;
  // Relative precision of the max-min solve (MaxMinSolver::set_precision), in [1e-9, 1e-2]: the
  // default is exact up to rounding; a larger one trades a bounded drift in rates for speed on
  // fabrics where every change ripples through most flows (docs/fabric-benchmark.md).
  double max_min_precision = MaxMinSolver::kRelTol;
};



class Fabric {
 public:
  Fabric(Topology topology, FabricOptions options);

  // Starts a flow at `now` (not before the last advance). bytes >= 0, hosts in range (else
  // ConfigError). Returns its flow_number. A flow with no path fails at the next advance().
  // channel >= 0 pins the flow's NIC ports at both ends (Router::route): NCCL channel c on NIC c.
  // `resources` (add_resource) are crossed by every subflow after its route.
  std::uint64_t start_flow(sim::Time now, NodeId src, NodeId dst, double bytes, std::uint64_t tag = 0,
                           int channel = -1, std::span<const ResourceId> resources = {});
  // A new resource of `capacity_bps` payload bits per second (> 0). Ids count from 0.
  ResourceId add_resource(double capacity_bps);
  // From `now` on (flows settle at their old rates first).
  void set_resource_capacity(sim::Time now, ResourceId r, double capacity_bps);
  double resource_capacity_bps(ResourceId r) const;
  std::size_t resource_count() const { return resource_capacity_.size(); }
  // Fails every flow crossing the resource now (appended to `finished`, with `reason`); the
  // resource keeps its capacity for flows started later.
  void fail_resource_flows(sim::Time now, ResourceId r, const std::string& reason,
                           std::vector<FinishedFlow>& finished);
  // Fails every flow from or to `host` now (the host died: its flows end where they are).
  void fail_host_flows(sim::Time now, NodeId host, const std::string& reason, std::vector<FinishedFlow>& finished);
  // Payload bytes that crossed each resource so far (settled like link_bytes()).
  double resource_bytes(ResourceId r) const { return resource_bytes_[r]; }
  // Bytes every resource has carried up to `now` (not before the last advance), the flows in
  // flight included at their current rates: resource_bytes() settles only when a rate changes.
  // O(live flows that cross a resource, and their subflows).
  void resource_bytes_at(sim::Time now, std::vector<double>& out) const;
  // Payload rate through a resource now (sum over its flows, as of the last solve).
  double resource_load_bps(ResourceId r) const;
  // Earliest activation or completion; Time::max() when nothing is pending.
  sim::Time next_event_time() const;
  // Processes everything due at or before `now`, re-solves rates, appends the flows that
  // finished or failed. Call with now = next_event_time() (or any later event's time).
  void advance(sim::Time now, std::vector<FinishedFlow>& finished);

  // State changes at `now`. Failed flows are appended to `finished`.
  void set_link_state(sim::Time now, LinkId link, bool up, std::vector<FinishedFlow>& finished);
  void set_switch_state(sim::Time now, NodeId sw, bool up, std::vector<FinishedFlow>& finished);
  // NIC port `port` of a host = its port-th outgoing link (builder order: NIC 0 first).
  void set_nic_port_state(sim::Time now, NodeId host, int port, bool up, std::vector<FinishedFlow>& finished);

  const Topology& topology() const { return topology_; }
  Router& router() { return router_; }
  const MaxMinSolver& solver() const { return solver_; }
  std::size_t active_flows() const { return live_flows_; }
  // Payload bytes carried so far by each link (settled at the last rate change of each flow).
  const std::vector<double>& link_bytes() const { return link_bytes_; }
  double bytes_delivered() const { return bytes_delivered_; }
  double bytes_started() const { return bytes_started_; }
  double goodput_factor() const { return goodput_; }
  // Subflows moved to another route while active (a link down, or rebalancing on link up).
  std::uint64_t rerouted_subflows() const { return rerouted_; }
  // Current payload rate of a live flow (sum over its subflows; 0 when finished or not yet
  // active). O(live flows): for tests and reports, not for inner loops.
  double flow_rate_bps(std::uint64_t flow_number) const;
  // Utilisation series (FabricOptions::link_series_interval_ns). Bucket b spans
  // [b x interval, (b + 1) x interval); bytes settle when a flow's rate changes or it ends, so
  // the series is complete once no flow is active. Summed over buckets, a link's bytes equal
  // link_bytes() (bytes conservation, tested).
  std::int64_t link_series_interval_ns() const { return series_interval_ns_; }
  std::size_t link_series_buckets() const {
    return topology_.link_count() ? series_.size() / topology_.link_count() : 0;
  }
  double link_series_bytes(std::size_t bucket, LinkId link) const {
    return series_[bucket * topology_.link_count() + link];
  }

 private:
  struct Subflow {
    std::uint32_t flow = 0;
    std::uint32_t solver_id = UINT32_MAX;  // in the solver while draining
    int index = 0;
    double remaining_bytes = 0.0;
    double rate_bps = 0.0;  // payload rate
    std::int64_t last_ns = 0;
    std::uint32_t next = UINT32_MAX;  // next subflow of the same flow
    double pfc_factor = 1.0;          // share of time not blocked by upstream PFC pauses
    double pfc_new = 1.0;             // scratch while recomputing pfc_factor
    std::vector<LinkId> route;
  };
  struct Flow {
    std::uint64_t number = 0;
    std::uint64_t tag = 0;
    NodeId src = 0, dst = 0;
    int channel = -1;  // pinned NIC ports (Router::route), -1: hashed
    double bytes = 0.0;
    std::int64_t start_ns = 0;
    int left = 0;
    int n_subs = 0;
    bool alive = false;
    std::uint32_t first_sub = UINT32_MAX;  // subflows chained by Subflow::next, in index order
    std::vector<ResourceId> resources;     // crossed after the route (add_resource)
  };
  enum class EventKind : std::uint8_t { kActivate, kComplete };
  // At most one pending event per subflow (RadixQueue): whatever makes it obsolete (a rate
  // change, a re-route, the flow's end) moves or erases it, so every queued event is current.
  struct Event {
    std::int64_t t;
    std::uint32_t id;  // the subflow
    EventKind kind;
  };

  std::uint32_t new_sub();
  void push_event(std::int64_t t, std::uint32_t sub, EventKind kind);
  // When `remaining_bytes` at `rate_bps` from `now` end; INT64_MAX when beyond the time range.
  static std::int64_t completion_ns(std::int64_t now, double remaining_bytes, double rate_bps);
  void unschedule(std::uint32_t sub);  // drops its pending event, if any
  void settle(Subflow& s, std::int64_t now);
  void activate(std::uint32_t sub, std::int64_t now, std::vector<FinishedFlow>& finished);
  void complete_sub(std::uint32_t sub, std::int64_t now, std::vector<FinishedFlow>& finished);
  void finish_flow(std::uint32_t flow, std::int64_t now, bool failed, std::string reason,
                   std::vector<FinishedFlow>& finished);
  void record_route(const Flow& flow, std::string& out);  // FinishedFlow::route
  void update_pfc(std::span<const LinkId> route);
  void update_pfc_link(LinkId l);
  double usable_capacity(LinkId l) const;
  void solve_and_reschedule(std::int64_t now);
  std::int64_t route_latency(const std::vector<LinkId>& route) const;
  void add_to_series(const std::vector<LinkId>& route, std::int64_t t0, std::int64_t t1, double bytes);
  void reroute_link(std::int64_t now, LinkId link, std::vector<FinishedFlow>& finished);
  void rebalance(std::int64_t now);
  void move_subflow(std::uint32_t si, std::int64_t now);
  void apply_pfc_spreading(std::int64_t now);
  void attach(std::uint32_t si);

  Topology topology_;
  FabricOptions options_;
  Router router_;
  MaxMinSolver solver_;
  double goodput_ = 1.0;
  std::vector<Flow> flows_;
  std::vector<std::uint32_t> free_flows_;
  std::vector<Subflow> subs_;
  std::vector<std::uint32_t> free_subs_;
  std::vector<std::uint32_t> solver_to_sub_;
  // Pending activations and completions, one per subflow: a rescheduled subflow moves its
  // entry in place instead of leaving a stale one behind (lazy deletion grew the queue with
  // every rate change: 1.6 GB at 30,000 random flows).
  RadixQueue<Event> events_;
  std::vector<Event> due_;  // scratch: the events advance() handles at one time
  static constexpr std::uint8_t kPfcOn = 1;      // pausing: capacity x pfc_efficiency
  static constexpr std::uint8_t kPfcListed = 2;  // in pfc_links_
  std::vector<std::uint8_t> pfc_on_;
  std::vector<double> link_bytes_;
  std::int64_t series_interval_ns_ = 0;
  std::vector<double> series_;  // bucket-major: [bucket x link_count + link]
  std::vector<LinkId> scratch_route_;
  std::vector<MaxMinSolver::LinkId> scratch_solver_path_;  // route + resources, for the solver
  std::vector<double> resource_capacity_;
  std::vector<double> resource_bytes_;
  std::vector<std::uint32_t> unrouted_;  // flows with no path, failed at the next advance
  // PFC spreading scratch: links with PFC on (lazily compacted), subflows whose pfc_factor is
  // not 1, per-link stamps for the upstream links of one congested link.
  std::vector<LinkId> pfc_links_;
  std::vector<std::uint32_t> pfc_touched_;
  std::vector<std::uint32_t> pfc_next_;
  std::vector<std::uint32_t> link_stamp_;
  std::uint32_t stamp_ = 0;
  std::vector<LinkId> upstream_;
  std::uint64_t rerouted_ = 0;
  std::uint64_t next_number_ = 0;
  std::size_t live_flows_ = 0;
  std::int64_t last_now_ = 0;
  double bytes_delivered_ = 0.0;
  double bytes_started_ = 0.0;
};

}  // namespace dcsim::models::network
