#include "models/network/routing.hpp"

#include <algorithm>
#include <numeric>

#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {
std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}
}  // namespace

Router::Router(const Topology& topology, RoutingConfig config)
    : topology_(topology), config_(config), up_(topology.link_count(), 1),
      cache_slot_(topology.node_count(), UINT32_MAX) {
  if (config_.qps_per_flow < 1) throw sim::ConfigError("routing.qps_per_flow", "must be >= 1");
  if (config_.max_spray_paths < 1) throw sim::ConfigError("routing.max_spray_paths", "must be >= 1");
  precompute();
}

void Router::precompute() {
  std::vector<NodeId> anchors;
  if (adjacency_stale_) build_adjacency();
  for (NodeId h = 0; h < topology_.host_count(); ++h) {
    const NodeId a = anchor_of(h);
    if (forwards_[a]) {
      anchors.push_back(a);
      continue;
    }
    // A multi-homed host's table is derived from its switches' (distances()): those are the
    // forwarding tables to compute, one per rail switch rather than one per host.
    for (std::uint32_t i = in_start_[a], e = in_start_[a + 1]; i < e; ++i)
      if (forwards_[in_src_[i]]) anchors.push_back(in_src_[i]);
  }
  std::sort(anchors.begin(), anchors.end());
  anchors.erase(std::unique(anchors.begin(), anchors.end()), anchors.end());
  if (anchors.size() * forwarder_count_ > kPrecomputeEntries) return;
  cache_.reserve(anchors.size());
  for (NodeId a : anchors) distances(a);
}

void Router::set_link_up(LinkId link, bool up) {
  if ((up_[link] != 0) == up) return;
  up_[link] = up ? 1 : 0;
  ++link_epoch_;
  adjacency_stale_ = true;
  cache_.clear();
  std::fill(cache_slot_.begin(), cache_slot_.end(), UINT32_MAX);
}

NodeId Router::anchor_of(NodeId dst) {
  if (dst >= topology_.host_count()) return dst;
  if (adjacency_stale_) build_adjacency();
  return host_anchor_[dst];
}

NodeId Router::find_anchor(NodeId dst) const {
  if (topology_.hosts_are_routers() || topology_.node(dst).kind != NodeKind::kHost) return dst;
  NodeId only = UINT32_MAX;
  for (LinkId l : topology_.in_links(dst)) {
    if (!up_[l]) continue;
    const NodeId s = topology_.link(l).src;
    if (only == UINT32_MAX) only = s;
    else if (only != s) return dst;  // multi-homed: distances from the host itself
  }
  return only == UINT32_MAX ? dst : only;
}

void Router::build_adjacency() {
  const std::size_t n = topology_.node_count();
  const bool routers = topology_.hosts_are_routers();
  in_start_.assign(n + 1, 0);
  in_src_.clear();
  in_link_.clear();
  out_start_.assign(n + 1, 0);
  out_.clear();
  fwd_start_.assign(n + 1, 0);
  fwd_.clear();
  fin_start_.assign(n + 1, 0);
  fin_src_.clear();
  forwards_.assign(n, 0);
  forwarder_index_.assign(n, kNotForwarder);
  forwarder_count_ = 0;
  for (NodeId v = 0; v < n; ++v) {
    if (routers || topology_.node(v).kind != NodeKind::kHost) {
      forwards_[v] = 1;
      forwarder_index_[v] = forwarder_count_++;
    }
  }
  for (NodeId v = 0; v < n; ++v) {
    in_start_[v] = static_cast<std::uint32_t>(in_src_.size());
    fin_start_[v] = static_cast<std::uint32_t>(fin_src_.size());
    for (LinkId l : topology_.in_links(v)) {
      if (!up_[l]) continue;
      const NodeId from = topology_.link(l).src;
      in_src_.push_back(from);
      in_link_.push_back(l);
      if (forwards_[from]) fin_src_.push_back(forwarder_index_[from]);
    }
    out_start_[v] = static_cast<std::uint32_t>(out_.size());
    fwd_start_[v] = static_cast<std::uint32_t>(fwd_.size());
    for (LinkId l : topology_.out_links(v)) {
      if (!up_[l]) continue;
      const NodeId to = topology_.link(l).dst;
      out_.push_back(Hop{to, l});
      if (forwards_[to]) fwd_.push_back(ForwardHop{to, l, forwarder_index_[to]});
    }
    cand_.resize(std::max<std::size_t>(cand_.size(), out_.size() - out_start_[v]));
  }
  in_start_[n] = static_cast<std::uint32_t>(in_src_.size());
  out_start_[n] = static_cast<std::uint32_t>(out_.size());
  fwd_start_[n] = static_cast<std::uint32_t>(fwd_.size());
  fin_start_[n] = static_cast<std::uint32_t>(fin_src_.size());
  forwarder_node_.resize(forwarder_count_);
  for (NodeId v = 0; v < n; ++v)
    if (forwards_[v]) forwarder_node_[forwarder_index_[v]] = v;
  adjacency_stale_ = false;
  host_anchor_.resize(topology_.host_count());
  for (NodeId h = 0; h < topology_.host_count(); ++h) host_anchor_[h] = find_anchor(h);
}

const std::vector<std::uint16_t>& Router::distances(NodeId anchor) {
  if (cache_slot_[anchor] != UINT32_MAX) return cache_[cache_slot_[anchor]];
  if (adjacency_stale_) build_adjacency();
  // Over forwarding nodes only (indexed by forwarder_index_): a host that does not forward is
  // never passed through, so its distance is derived from its own links when it is a source.
  std::vector<std::uint16_t> d(forwarder_count_, kUnreached);
  queue_.clear();
  if (!forwards_[anchor]) {
    // A multi-homed host: the BFS would start from its switches at distance 1, so its table is
    // the element-wise minimum of theirs plus one (a rail-optimised host's 8 switch tables, not
    // a search of the whole fabric per host). Each switch table is merged before the next is
    // looked up: looking one up may grow cache_.
    bool any = false;
    for (std::uint32_t i = in_start_[anchor], e = in_start_[anchor + 1]; i < e; ++i) {
      const NodeId u = in_src_[i];
      if (!forwards_[u]) continue;
      any = true;
      const std::vector<std::uint16_t>& du = distances(u);
      for (std::uint32_t v = 0; v < forwarder_count_; ++v) {
        const std::uint16_t via = du[v] == kUnreached ? kUnreached : static_cast<std::uint16_t>(du[v] + 1);
        if (via < d[v]) d[v] = via;
      }
    }
    if (any) {
      cache_slot_[anchor] = static_cast<std::uint32_t>(cache_.size());
      cache_.push_back(std::move(d));
      return cache_.back();
    }
  }
  if (forwards_[anchor]) {
    d[forwarder_index_[anchor]] = 0;
    queue_.push_back(forwarder_index_[anchor]);
  } else {  // a multi-homed host: its switches are one hop away
    for (std::uint32_t i = in_start_[anchor], e = in_start_[anchor + 1]; i < e; ++i) {
      const NodeId u = in_src_[i];
      if (forwards_[u] && d[forwarder_index_[u]] == kUnreached) {
        d[forwarder_index_[u]] = 1;
        queue_.push_back(forwarder_index_[u]);
      }
    }
  }
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const std::uint32_t v = queue_[head];
    const NodeId node = forwarder_node_[v];
    const std::uint16_t dv = static_cast<std::uint16_t>(d[v] + 1);
    for (std::uint32_t i = fin_start_[node], e = fin_start_[node + 1]; i < e; ++i) {
      const std::uint32_t u = fin_src_[i];
      if (d[u] == kUnreached) {
        d[u] = dv;
        queue_.push_back(u);
      }
    }
  }
  cache_slot_[anchor] = static_cast<std::uint32_t>(cache_.size());
  cache_.push_back(std::move(d));
  return cache_.back();
}

std::uint16_t Router::distance(NodeId v, NodeId anchor, const std::vector<std::uint16_t>& d) const {
  if (v == anchor) return 0;
  if (forwards_[v]) return d[forwarder_index_[v]];
  // A host that does not forward: one hop more than its nearest neighbour (in BFS terms, the
  // first of its out-links' far ends that the search reached).
  std::uint16_t best = kUnreached;
  for (const Hop* hop = out_.data() + out_start_[v], *end = out_.data() + out_start_[v + 1]; hop != end; ++hop) {
    const std::uint16_t dn = hop->to == anchor ? 0 : forwards_[hop->to] ? d[forwarder_index_[hop->to]] : kUnreached;
    if (dn != kUnreached) best = std::min<std::uint16_t>(best, static_cast<std::uint16_t>(dn + 1));
  }
  return best;
}

std::size_t Router::candidates(NodeId cur, std::uint16_t d_cur, NodeId dst, NodeId anchor,
                               const std::vector<std::uint16_t>& d) {
  if (adjacency_stale_) build_adjacency();
  Hop* cand = cand_.data();
  std::size_t n = 0;
  if (cur == anchor && anchor != dst) {
    // The last hop: dst's links from cur (a host has a few in-links, a switch many out-links;
    // both lists are in link order, so the candidates come in the same order either way).
    for (std::uint32_t i = in_start_[dst], e = in_start_[dst + 1]; i < e; ++i)
      if (in_src_[i] == cur) cand[n++] = Hop{dst, in_link_[i]};
    return n;
  }
  // cur is on a shortest path and is not the anchor: d_cur >= 1.
  const std::uint16_t closer = static_cast<std::uint16_t>(d_cur - 1);
  if (closer == 0) {  // the next hop is the anchor itself, forwarding or not
    for (const Hop* hop = out_.data() + out_start_[cur], *end = out_.data() + out_start_[cur + 1]; hop != end; ++hop)
      if (hop->to == anchor) cand[n++] = *hop;
    return n;
  }
  // Further away: only a node that forwards can be next (a host other than dst or the anchor
  // never is), so hosts hanging off cur are not even looked at.
  for (const ForwardHop* hop = fwd_.data() + fwd_start_[cur], *end = fwd_.data() + fwd_start_[cur + 1]; hop != end; ++hop)
    if (d[hop->to_index] == closer) cand[n++] = Hop{hop->to, hop->link};
  return n;
}

int Router::subflow_count(NodeId src, NodeId dst) {
  if (config_.mode != RoutingMode::kSpray) return config_.qps_per_flow;
  if (src == dst) return 1;
  const NodeId anchor = anchor_of(dst);
  const auto& d = distances(anchor);
  std::uint16_t d_cur = distance(src, anchor, d);
  if (d_cur == kUnreached) return 1;
  // The minimal paths along the first walk (saturating: only whether it exceeds the cap
  // matters), and the port counts at both ends.
  const auto cap = static_cast<std::uint64_t>(config_.max_spray_paths);
  std::uint64_t paths = 1;
  std::uint64_t first_ports = 0, last_ports = 1;
  NodeId cur = src;
  while (cur != dst) {
    const std::size_t n = candidates(cur, d_cur--, dst, anchor, d);
    if (n == 0) return 1;
    if (first_ports == 0) first_ports = n;
    last_ports = n;
    paths = std::min<std::uint64_t>(paths * n, cap + 1);
    cur = cand_[0].to;
  }
  if (paths <= cap) return static_cast<int>(paths);
  // Capped: a whole number of subflows per port at both ends, so that no NIC carries more of the
  // flow than another (the flow ends with its slowest subflow). The path count is a multiple of
  // both port counts, so this stays at most the number of paths.
  const std::uint64_t ports = std::lcm(first_ports, last_ports);
  return static_cast<int>(std::min<std::uint64_t>((cap + ports - 1) / ports * ports, INT32_MAX / ports * ports));
}

namespace {
// Subflow j's proposal among n candidates when the hops before took D choices (see
// routing.hpp): for each value of j mod D the map from digit floor(j / D) mod n to the proposal
// is a bijection (the skew floor(y / lcm) shifts each of the D / gcd(D, n) residue runs by one),
// and any j < P lands evenly, because the proposals of consecutive y run through n in order.
// D is saturated at P by the caller: once D >= P every j < D, y = j and the skew is 0.
std::uint64_t spray_proposal(std::uint64_t j, std::uint64_t radix_before, std::uint64_t n) {
  const std::uint64_t y = j % (radix_before * n);
  return (y + y / std::lcm(radix_before, n)) % n;
}
}  // namespace

bool Router::spray_batch(NodeId src, NodeId dst, std::uint64_t flow_number, int subflows) {
  if (spray_.valid && spray_.src == src && spray_.dst == dst && spray_.flow_number == flow_number &&
      spray_.subflows == subflows && spray_.epoch == link_epoch_)
    return spray_.routed;
  spray_.valid = true;
  spray_.routed = false;
  spray_.src = src;
  spray_.dst = dst;
  spray_.flow_number = flow_number;
  spray_.subflows = subflows;
  spray_.epoch = link_epoch_;
  spray_.hops = 0;
  spray_.links.clear();
  const NodeId anchor = anchor_of(dst);
  const auto& d = distances(anchor);
  std::uint16_t d_cur = distance(src, anchor, d);
  if (d_cur == kUnreached) return false;
  const auto p = static_cast<std::size_t>(subflows);
  const auto p64 = static_cast<std::uint64_t>(subflows);
  const std::size_t hops = static_cast<std::size_t>(d_cur) + (anchor == dst ? 0 : 1);
  spray_.hops = hops;
  spray_.links.assign(p * hops, 0);
  spray_at_.assign(p, src);
  spray_radix_.assign(p, 1);
  spray_order_.resize(p);
  spray_pick_.resize(p);
  const std::uint64_t flow_key =
      mix64(config_.seed ^ mix64((static_cast<std::uint64_t>(src) << 32 | dst) ^ mix64(flow_number)));
  // Hop by hop: every minimal path has `hops` links, so the subflows move in step. Cost per hop:
  // O(P log P) to group them by node, O(degree) per distinct node for its candidates, O(P).
  for (std::size_t h = 0; h < hops; ++h, --d_cur) {
    for (std::size_t j = 0; j < p; ++j) spray_order_[j] = static_cast<std::uint32_t>(j);
    std::stable_sort(spray_order_.begin(), spray_order_.end(),
                     [this](std::uint32_t a, std::uint32_t b) { return spray_at_[a] < spray_at_[b]; });
    for (std::size_t begin = 0; begin < p;) {
      const NodeId u = spray_at_[spray_order_[begin]];
      std::size_t end = begin;
      while (end < p && spray_at_[spray_order_[end]] == u) ++end;
      const std::size_t n = candidates(u, d_cur, dst, anchor, d);
      if (n == 0) return false;
      spray_cand_.assign(cand_.begin(), cand_.begin() + static_cast<std::ptrdiff_t>(n));
      // The flow's turn of this hop's proposals: flows capped below their path count take
      // different subsets of the paths, as packets of different flows would. One turn per hop,
      // not per node: where paths rejoin (a destination NIC picked at each of several spines)
      // the proposals of the different nodes must stay one rotation of the index to spread.
      const std::uint64_t turn = mix64(flow_key ^ ((h + 1) * 0xD6E8FEB86659FD93ULL)) % n;
      spray_count_.assign(n, 0);
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t j = spray_order_[i];
        const auto pick = static_cast<std::uint32_t>((spray_proposal(j, spray_radix_[j], n) + turn) % n);
        spray_pick_[j] = pick;
        ++spray_count_[pick];
      }
      // Even out: the (M mod n) fullest candidates may hold ceil(M / n), the rest floor(M / n);
      // the surplus of over-full ones (their last subflows) moves to under-full ones in turn order.
      const std::size_t m = end - begin;
      spray_rank_.resize(n);
      for (std::size_t c = 0; c < n; ++c) spray_rank_[c] = static_cast<std::uint32_t>(c);
      std::stable_sort(spray_rank_.begin(), spray_rank_.end(),
                       [this](std::uint32_t a, std::uint32_t b) { return spray_count_[a] > spray_count_[b]; });
      spray_quota_.assign(n, static_cast<std::uint32_t>(m / n));
      for (std::size_t r = 0; r < m % n; ++r) ++spray_quota_[spray_rank_[r]];
      spray_seen_.assign(n, 0);
      std::size_t under = 0;
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t j = spray_order_[i];
        std::uint32_t& pick = spray_pick_[j];
        if (++spray_seen_[pick] <= spray_quota_[pick]) continue;
        while (spray_count_[(under + turn) % n] >= spray_quota_[(under + turn) % n]) ++under;
        --spray_count_[pick];
        pick = static_cast<std::uint32_t>((under + turn) % n);
        ++spray_count_[pick];
      }
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t j = spray_order_[i];
        const Hop& hop = spray_cand_[spray_pick_[j]];
        spray_.links[j * hops + h] = hop.link;
        spray_at_[j] = hop.to;
        spray_radix_[j] = std::min(spray_radix_[j] * n, p64);
      }
      begin = end;
    }
  }
  spray_.routed = true;
  return true;
}

bool Router::route(NodeId src, NodeId dst, std::uint64_t flow_number, int subflow, std::vector<LinkId>& out,
                   int channel, int subflows) {
  out.clear();
  if (src == dst) return true;
  if (config_.mode == RoutingMode::kSpray) {
    const int p = subflows > 0 ? subflows : subflow_count(src, dst);
    if (!spray_batch(src, dst, flow_number, p)) return false;
    const std::size_t j = static_cast<std::size_t>(subflow % p);
    const auto first = spray_.links.begin() + static_cast<std::ptrdiff_t>(j * spray_.hops);
    out.assign(first, first + static_cast<std::ptrdiff_t>(spray_.hops));
    return true;
  }
  const NodeId anchor = anchor_of(dst);
  const auto& d = distances(anchor);
  std::uint16_t d_cur = distance(src, anchor, d);
  if (d_cur == kUnreached) return false;
  out.reserve(static_cast<std::size_t>(d_cur) + 1);  // the path length: one allocation at most
  std::uint64_t key = 0;
  if (config_.mode == RoutingMode::kEcmp) {
    const std::uint64_t qp = config_.key == EcmpKey::kQueuePair
                                 ? flow_number * static_cast<std::uint64_t>(config_.qps_per_flow) + static_cast<std::uint64_t>(subflow)
                                 : static_cast<std::uint64_t>(subflow);
    key = mix64(config_.seed ^ mix64((static_cast<std::uint64_t>(src) << 32 | dst) ^ mix64(qp)));
  }
  std::uint64_t divisor = 1;
  NodeId cur = src;
  while (cur != dst) {
    const std::uint64_t n = candidates(cur, d_cur--, dst, anchor, d);
    if (n == 0) return false;
    std::uint64_t pick = 0;
    const bool pinned_hop = channel >= 0 && (cur == src || cand_[0].to == dst);
    if (pinned_hop) {
      pick = static_cast<std::uint64_t>(channel) % n;
    } else if (config_.mode == RoutingMode::kEcmp) {
      pick = mix64(key ^ (static_cast<std::uint64_t>(cur) * 0xD6E8FEB86659FD93ULL)) % n;
    } else {
      pick = (dst / divisor) % n;
      divisor *= n;
    }
    out.push_back(cand_[pick].link);
    cur = cand_[pick].to;
  }
  return true;
}

int Router::hops(NodeId src, NodeId dst) {
  if (src == dst) return 0;
  const NodeId anchor = anchor_of(dst);
  const std::uint16_t d_src = distance(src, anchor, distances(anchor));
  if (d_src == kUnreached) return -1;
  return d_src + (anchor == dst ? 0 : 1);
}

}  // namespace dcsim::models::network
