#include "models/collective/flow_collective.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "models/collective/collective_algorithm.hpp"
#include "models/collective/nvls_algorithm.hpp"
#include "models/collective/ring_algorithm.hpp"
#include "models/collective/size_ramp.hpp"
#include "models/collective/tree_algorithm.hpp"
#include "models/collective/hierarchical_algorithm.hpp"
#include "sim/error.hpp"

namespace dcsim::models::collective {

namespace {

struct Edge {
  network::NodeId src;
  network::NodeId dst;
  double bytes;  // wire bytes of one flow
  int channel;   // NIC ports at both ends (Router::route): NCCL binds channel c to NIC c
};

// Starts every edge as a concurrent fabric flow at `now` and drives the fabric until the last one
// finishes; returns that time (`now` when there are no edges). Flows of others on the fabric
// keep running and share links.
sim::Time run_flows(network::Fabric& fabric, sim::Time now, const std::vector<Edge>& edges,
                    std::uint64_t tag, FlowRunResult& r) {
  if (edges.empty()) return now;
  for (const auto& e : edges) fabric.start_flow(now, e.src, e.dst, e.bytes, tag, e.channel);
  std::size_t pending = edges.size();
  r.flows += pending;
  sim::Time last = now;
  std::vector<network::FinishedFlow> finished;
  while (pending > 0) {
    const sim::Time next = fabric.next_event_time();
    if (next.is_max()) throw sim::InternalError("fabric idle with collective flows pending (this is a bug)");
    finished.clear();
    fabric.advance(next, finished);
    for (const auto& f : finished) {
      if (f.tag != tag) continue;  // someone else's flow
      --pending;
      r.failed = r.failed || f.failed;
      last = std::max(last, f.finish);
    }
  }
  return last;
}

// Tags distinguish this collective's flows from others on the fabric: a high base, one per step.
constexpr std::uint64_t kTagBase = 0xC011EC7100000000ull;

void check_args(const std::vector<network::NodeId>& hosts, double bytes, const CollectiveSystem& s,
                int channels) {
  if (static_cast<int>(hosts.size()) != s.nodes) {
    throw sim::ConfigError("hosts", "need one fabric host per node");
  }
  if (channels < 1) throw sim::ConfigError("channels", "must be a positive integer");
  if (!(bytes > 0.0)) throw sim::ConfigError("bytes", "message size must be positive");
}

// The ring's protocol latency (Simple), as the analytic model adds it, without the fabric's
// path latency (the fabric adds that to every flow itself).
double ring_latency_s(const CollectiveTuning& t, double steps, double inter_steps) {
  const int pi = static_cast<int>(Protocol::kSimple);
  return (t.ring_base_latency_us[pi] + (steps - inter_steps) * t.ring_nvlink_step_us[pi] +
          inter_steps * t.ring_net_step_us[pi]) *
         1e-6;
}

// `steps` lock-step steps; in each every node sends `node_bytes` (payload) to its successor as
// `channels` fabric flows, and the step lasts at least `floor_s` (its NVLink edges, and what the
// channels NCCL gives the size can move: ramp_floor_s). Returns the end time.
sim::Time lockstep_ring(network::Fabric& fabric, const std::vector<network::NodeId>& hosts,
                        int steps, double node_bytes, double floor_s, const CollectiveTuning& t,
                        int channels, sim::Time start, std::uint64_t tag0, FlowRunResult& r,
                        bool skip_last_edge = false) {
  const int nodes = static_cast<int>(hosts.size());
  const double wire = node_bytes / channels / t.network_efficiency;
  sim::Time now = start;
  std::vector<Edge> edges;
  for (int step = 0; step < steps; ++step) {
    sim::Time step_end = now + sim::Time::ceil_from_seconds(floor_s);
    edges.clear();
    if (nodes > 1) {
      // A pipelined broadcast never sends back into the root node.
      const int senders = skip_last_edge ? nodes - 1 : nodes;
      for (int node = 0; node < senders; ++node) {
        for (int c = 0; c < channels; ++c) {
          edges.push_back({hosts[static_cast<std::size_t>(node)],
                           hosts[static_cast<std::size_t>((node + 1) % nodes)], wire, c});
        }
      }
    }
    step_end = std::max(step_end, run_flows(fabric, now, edges, tag0 + static_cast<std::uint64_t>(step), r));
    now = step_end;
  }
  return now;
}

// The size ramp in flow mode (size_ramp.hpp): below NCCL's full-channel size a collective runs
// on fewer channels (thread blocks), each at most its share of the full rate, so a step moving
// `bytes` over an edge of `edge_bandwidth` takes at least bytes / (edge_bandwidth x fraction).
// That is a limit of the GPUs' SMs, not of the links: the fabric, which moves the same bytes at
// line rate, can only make the step slower. 0 at full channels (the fabric and NVLink decide).
double ramp_floor_s(double bytes, double edge_bandwidth, double fraction) {
  return fraction < 1.0 && edge_bandwidth > 0.0 ? bytes / (edge_bandwidth * fraction) : 0.0;
}

}  // namespace

bool flow_mode_supports(CollectiveOp op, std::string_view algorithm) {
  if (algorithm == "ring") return true;
  if (algorithm == "tree" || algorithm == "nvls") return op == CollectiveOp::kAllReduce;
  if (algorithm == "hierarchical") return op != CollectiveOp::kBroadcast;
  return false;
}

bool flow_mode_supports(CollectiveOp op, std::string_view algorithm, const CollectiveSystem& s) {
  if (!flow_mode_supports(op, algorithm)) return false;
  // The closed forms' own limits (NVLS: one NVSwitch domain with NVLS hardware).
  if (algorithm == "nvls") return NvlsAlgorithm{}.supports(op, s);
  if (algorithm == "tree") return TreeAlgorithm{}.supports(op, s);
  if (algorithm == "hierarchical") return HierarchicalAlgorithm{}.supports(op, s);
  return RingAlgorithm{}.supports(op, s);
}

std::string flow_mode_algorithms() {
  return "ring (all_reduce, all_gather, reduce_scatter, broadcast, all_to_all, point_to_point), "
         "tree (all_reduce), nvls (all_reduce inside one node with NVLS), hierarchical "
         "(all_reduce, all_gather, reduce_scatter, all_to_all, point_to_point)";
}

DoubleBinaryTree double_binary_tree(int ranks) {
  if (ranks < 1) throw sim::ConfigError("nodes", "a tree needs at least one rank");
  DoubleBinaryTree t;
  // Tree 0 (NCCL ncclGetBtree): clear the lowest set bit b of r and set bit 2b; if that leaves
  // the range, only clear it. Rank 0 is the root.
  auto btree_parent = [ranks](int r) {
    if (r == 0) return -1;
    const int bit = r & -r;
    const int up = (r ^ bit) | (bit << 1);
    return up < ranks ? up : (r ^ bit);
  };
  t.parent[0].resize(static_cast<std::size_t>(ranks));
  t.parent[1].resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    t.parent[0][static_cast<std::size_t>(r)] = btree_parent(r);
    int p1 = -1;
    if (ranks % 2 == 1) {
      // Shift by one: r sits where r - 1 sits in tree 0.
      const int u = btree_parent((r - 1 + ranks) % ranks);
      p1 = u < 0 ? -1 : (u + 1) % ranks;
    } else {
      const int u = btree_parent(ranks - 1 - r);  // mirror
      p1 = u < 0 ? -1 : ranks - 1 - u;
    }
    t.parent[1][static_cast<std::size_t>(r)] = p1;
  }
  t.depth = ranks > 1 ? static_cast<int>(std::ceil(std::log2(static_cast<double>(ranks)))) : 0;
  return t;
}

FlowRunResult collective_on_fabric(network::Fabric& fabric,
                                   const std::vector<network::NodeId>& hosts, CollectiveOp op,
                                   double bytes, const CollectiveSystem& s,
                                   const CollectiveTuning& t, std::string_view algorithm,
                                   int channels, sim::Time start) {
  check_args(hosts, bytes, s, channels);
  if (!flow_mode_supports(op, algorithm)) {
    throw sim::ConfigError("algorithm", "flow mode does not run " + std::string(op_name(op)) +
                                            " with '" + std::string(algorithm) +
                                            "'; flow mode runs " + flow_mode_algorithms());
  }
  if (!flow_mode_supports(op, algorithm, s)) {
    std::string why = std::string(algorithm) + " cannot run " + std::string(op_name(op)) + " on " +
                      std::to_string(s.nodes) + " node(s) x " + std::to_string(s.gpus_per_node) +
                      " GPUs";
    if (algorithm == "nvls") {
      why += ": NVLS reduces inside one NVSwitch domain (one node with NVLS hardware, 2 or more "
             "GPUs); across nodes use tree, ring or hierarchical";
    }
    throw sim::ConfigError("algorithm", why);
  }
  FlowRunResult r;
  const int n = s.ranks();
  if (n <= 1) return r;
  const double g = s.gpus_per_node;
  const double nodes = s.nodes;
  const double nvl = nvlink_bandwidth(s, t);
  const int pi = static_cast<int>(Protocol::kSimple);

  if (algorithm == "nvls") {
    // In-switch reduction: no byte crosses the fabric; the closed form is the mechanism.
    const auto e = NvlsAlgorithm{}.estimate(op, bytes, s, t, Protocol::kSimple);
    if (!e) throw sim::ConfigError("algorithm", "nvls needs the Simple protocol enabled");
    r.steps = 2;
    r.bandwidth_s = e->bandwidth_s;
    r.latency_s = e->latency_s;
    r.time_s = e->time_s;
    return r;
  }

  if (algorithm == "tree") {
    // Double binary tree all_reduce: one steady-state step in which every edge of both trees
    // streams S/2 up (reduce) and S/2 down (broadcast) as `channels` flows each, while the
    // NVLink chain inside every node moves 2 S at the tree's bandwidth factor.
    const double factor = t.tree_bw_factor * t.tree_protocol_bw_factor[pi];
    // The size ramp: fewer channels below the full-channel size and NCCL's mid-size tree
    // correction (size_ramp.hpp), as the closed form applies them to the whole tree.
    const double ramp = std::min(1.0, channel_fraction(bytes, n, Protocol::kSimple, t, false) *
                                          tree_correction(Protocol::kSimple, bytes, t));
    const double chain_s = s.gpus_per_node > 1 ? 2.0 * bytes / (nvl * factor * ramp) : 0.0;
    // The closed form's network bandwidth of the tree (node NICs, per-channel cap).
    const double per_channel = t.tree_per_channel_GBps[node_count_index(s.nodes)] * 1e9;
    const double tree_net = std::min(node_network_bandwidth(s, t) * t.tree_bw_factor, t.ring_channels * per_channel) *
                            t.tree_protocol_bw_factor[pi];
    const double net_floor_s = s.nodes > 1 ? ramp_floor_s(2.0 * bytes, tree_net, ramp) : 0.0;
    const DoubleBinaryTree tree = double_binary_tree(s.nodes);
    const double wire = bytes / 2.0 / channels / (t.network_efficiency * factor);
    std::vector<Edge> edges;
    for (const auto& parent : tree.parent) {
      for (int v = 0; v < s.nodes; ++v) {
        const int p = parent[static_cast<std::size_t>(v)];
        if (p < 0) continue;
        const auto child = hosts[static_cast<std::size_t>(v)];
        const auto up = hosts[static_cast<std::size_t>(p)];
        for (int c = 0; c < channels; ++c) {
          edges.push_back({child, up, wire, c});  // reduce
          edges.push_back({up, child, wire, c});  // broadcast
        }
      }
    }
    const sim::Time end = std::max(start + sim::Time::ceil_from_seconds(std::max(chain_s, net_floor_s)),
                                   run_flows(fabric, start, edges, kTagBase, r));
    r.steps = 2 * (s.gpus_per_node - 1 + tree.depth);
    r.bandwidth_s = (end - start).seconds();
    r.latency_s = (t.tree_base_latency_us[pi] +
                   2.0 * ((g - 1.0) * t.tree_nvlink_step_us[pi] + tree.depth * t.tree_net_step_us[pi])) *
                  1e-6;
    r.time_s = r.bandwidth_s + r.latency_s;
    return r;
  }

  if (op == CollectiveOp::kPointToPoint) {
    // Rank 0 -> rank n-1 (nodes 0 and N-1). Across nodes: `channels` flows, and the sender's own
    // injection limit (its share of the node's NICs, at least one NIC), which the fabric does not
    // model, as a floor; the fabric can only make it slower.
    const double factor = t.ring_protocol_bw_factor[pi];
    const bool multi = s.nodes > 1;
    double floor_s = bytes / (nvl * factor);
    std::vector<Edge> edges;
    if (multi) {
      const double net = node_network_bandwidth(s, t) * factor;
      const double one_nic = s.nic_bandwidth_bps / 8.0 * t.network_efficiency * factor;
      floor_s = bytes / std::min(nvl * factor, std::max(net / g, one_nic));
      const double wire = bytes / channels / t.network_efficiency;
      for (int c = 0; c < channels; ++c) edges.push_back({hosts.front(), hosts.back(), wire, c});
    }
    const sim::Time end = std::max(start + sim::Time::ceil_from_seconds(floor_s),
                                   run_flows(fabric, start, edges, kTagBase, r));
    r.steps = 1;
    r.bandwidth_s = (end - start).seconds();
    r.latency_s = (t.ring_base_latency_us[pi] +
                   (multi ? t.ring_net_step_us[pi] : t.ring_nvlink_step_us[pi])) *
                  1e-6;
    r.time_s = r.bandwidth_s + r.latency_s;
    return r;
  }

  if (op == CollectiveOp::kAllToAll) {
    // One step: every rank sends S/n to every other rank at once. Inside a node over NVLink
    // ((g-1) S/n per GPU), between nodes one fabric flow per (source rank, destination rank).
    const double intra_s = s.gpus_per_node > 1 ? (g - 1.0) / n * bytes / nvl : 0.0;
    std::vector<Edge> edges;
    const double wire = bytes / n / t.network_efficiency;
    for (int a = 0; a < s.nodes; ++a) {
      for (int b = 0; b < s.nodes; ++b) {
        if (a == b) continue;
        for (int k = 0; k < s.gpus_per_node * s.gpus_per_node; ++k) {
          // PXN: the data crosses NVLink to the GPU on the destination GPU's rail first.
          edges.push_back({hosts[static_cast<std::size_t>(a)], hosts[static_cast<std::size_t>(b)], wire,
                           k % s.gpus_per_node});
        }
      }
    }
    r.steps = 1;
    const sim::Time end = std::max(start + sim::Time::ceil_from_seconds(intra_s),
                                   run_flows(fabric, start, edges, kTagBase, r));
    r.bandwidth_s = (end - start).seconds();
    r.latency_s = (t.ring_base_latency_us[pi] +
                   (s.nodes > 1 ? t.ring_net_step_us[pi] : t.ring_nvlink_step_us[pi])) *
                  1e-6;
    r.time_s = r.bandwidth_s + r.latency_s;
    return r;
  }

  if (algorithm == "hierarchical") {
    // NVLink phases inside every node are analytic ((g-1)/g S / B_nvlink each); between them
    // every rail runs a ring across the nodes as flows, S/(g N) per rail per step: S/N per node
    // boundary, over `channels` flows.
    //  all_reduce:     NVLink reduce_scatter, rail all_reduce (2(N-1) steps), NVLink all_gather
    //  all_gather:     rail all_gather (N-1 steps), then NVLink all_gather
    //  reduce_scatter: NVLink reduce_scatter, then rail reduce_scatter (N-1 steps)
    const double intra_s = (g - 1.0) / g * bytes / nvl;
    const bool all_reduce = op == CollectiveOp::kAllReduce;
    const int inter_steps = (all_reduce ? 2 : 1) * (s.nodes - 1);
    const int intra_phases = all_reduce ? 2 : 1;
    sim::Time now = start;
    if (op != CollectiveOp::kAllGather) now = now + sim::Time::ceil_from_seconds(intra_s);
    now = lockstep_ring(fabric, hosts, inter_steps, bytes / nodes, 0.0, t, channels, now, kTagBase, r);
    if (op != CollectiveOp::kReduceScatter) now = now + sim::Time::ceil_from_seconds(intra_s);
    r.steps = inter_steps + intra_phases * (s.gpus_per_node - 1);
    r.bandwidth_s = (now - start).seconds();
    r.latency_s = ring_latency_s(t, r.steps, inter_steps);
    r.time_s = r.bandwidth_s + r.latency_s;
    return r;
  }

  // Ring. nccl-tests sizes: all_reduce and broadcast S per rank, all_gather / reduce_scatter S
  // in total; every step moves S/n per rank.
  const double chunk = bytes / n;
  double inter = 0.0;
  // The size ramp (size_ramp.hpp): a small message gets fewer channels, and every edge of the
  // ring, NVLink or network, moves its bytes at that fraction of its full rate at most.
  const double ramp = channel_fraction(bytes, n, Protocol::kSimple, t, true);
  const double net = s.nodes > 1 ? node_network_bandwidth(s, t) : 0.0;
  const auto step_floor_s = [&](double step_bytes) {
    const double nvlink_s = s.gpus_per_node > 1 ? step_bytes / (nvl * ramp) : 0.0;
    return std::max(nvlink_s, ramp_floor_s(step_bytes, net, ramp));
  };
  if (op == CollectiveOp::kBroadcast) {
    // Pipelined ring broadcast: in steady state every edge of the chain root -> ... -> last rank
    // streams the whole message at once, so it runs as one step in which each node boundary
    // (but the one back into the root's node) carries S over `channels` flows while the NVLink
    // edges carry S. The pipeline's fill (n-2 chunk times) is left out, as in the closed form.
    r.steps = n - 1;
    inter = nodes - 1.0;
    const sim::Time end = lockstep_ring(fabric, hosts, 1, bytes, step_floor_s(bytes), t, channels, start,
                                        kTagBase, r, /*skip_last_edge=*/true);
    r.bandwidth_s = (end - start).seconds();
  } else {
    const bool twice = op == CollectiveOp::kAllReduce;
    r.steps = (twice ? 2 : 1) * (n - 1);
    inter = (twice ? 2.0 : 1.0) * (nodes - 1.0);
    const sim::Time end = lockstep_ring(fabric, hosts, r.steps, chunk, step_floor_s(chunk), t, channels,
                                        start, kTagBase, r);
    r.bandwidth_s = (end - start).seconds();
  }
  r.latency_s = ring_latency_s(t, r.steps, inter);
  r.time_s = r.bandwidth_s + r.latency_s;
  return r;
}

FlowRunResult ring_all_reduce_on_fabric(network::Fabric& fabric,
                                        const std::vector<network::NodeId>& hosts, double bytes,
                                        const CollectiveSystem& s, const CollectiveTuning& t,
                                        int channels, sim::Time start) {
  return collective_on_fabric(fabric, hosts, CollectiveOp::kAllReduce, bytes, s, t, "ring",
                              channels, start);
}

}  // namespace dcsim::models::collective
