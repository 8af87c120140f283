#include "models/network/topology.hpp"

#include <algorithm>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::network {

NodeId Topology::add_host() {
  if (host_count_ != nodes_.size()) throw sim::InternalError("Topology: hosts come before switches (this is a bug)");
  nodes_.push_back(NodeInfo{NodeKind::kHost, 0, 0, 0, 0});
  boost::add_vertex(graph_);
  ++host_count_;
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Topology::add_switch(int tier, int radix, const std::string& model) {
  std::uint8_t m = 0;
  if (!model.empty()) {
    const auto it = std::find(switch_models_.begin(), switch_models_.end(), model);
    m = static_cast<std::uint8_t>(it - switch_models_.begin());
    if (it == switch_models_.end()) {
      if (switch_models_.size() > UINT8_MAX) throw sim::InternalError("Topology: too many switch models (this is a bug)");
      switch_models_.push_back(model);
    }
  }
  nodes_.push_back(NodeInfo{NodeKind::kSwitch, tier, 0, radix, m});
  boost::add_vertex(graph_);
  max_tier_ = std::max(max_tier_, tier);
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Topology::connect(NodeId a, NodeId b, double bandwidth_bps, double cable_m, int tier, int cables,
                       bool bundle, std::int64_t switch_latency_ns, std::int64_t latency_override_ns) {
  const std::int64_t wire_ns = latency_override_ns >= 0
                                   ? latency_override_ns
                                   : static_cast<std::int64_t>(std::llround(cable_m * kPropagationNsPerM));
  auto latency_from = [&](NodeId n) {
    return wire_ns + (nodes_[n].kind == NodeKind::kSwitch ? switch_latency_ns : 0);
  };
  const int pairs = bundle ? 1 : cables;
  const int per_link = bundle ? cables : 1;
  for (int i = 0; i < pairs; ++i) {
    const auto ab = static_cast<LinkId>(links_.size());
    links_.push_back(LinkInfo{a, b, bandwidth_bps * per_link, latency_from(a), cable_m, tier, per_link, ab + 1});
    links_.push_back(LinkInfo{b, a, bandwidth_bps * per_link, latency_from(b), cable_m, tier, per_link, ab});
    boost::add_edge(a, b, ab, graph_);
    boost::add_edge(b, a, ab + 1, graph_);
  }
  nodes_[a].ports += cables;
  nodes_[b].ports += cables;
}

void Topology::copy_cable(NodeId a, NodeId b, const LinkInfo& forward, const LinkInfo& backward) {
  const auto ab = static_cast<LinkId>(links_.size());
  links_.push_back(LinkInfo{a, b, forward.bandwidth_bps, forward.latency_ns, forward.cable_m, forward.tier,
                            forward.cables, ab + 1});
  links_.push_back(LinkInfo{b, a, backward.bandwidth_bps, backward.latency_ns, backward.cable_m, backward.tier,
                            backward.cables, ab});
  boost::add_edge(a, b, ab, graph_);
  boost::add_edge(b, a, ab + 1, graph_);
  nodes_[a].ports += forward.cables;
  nodes_[b].ports += forward.cables;
}

void Topology::finalize(bool hosts_are_routers) {
  hosts_are_routers_ = hosts_are_routers;
  const std::size_t n = nodes_.size();
  out_begin_.assign(n + 1, 0);
  in_begin_.assign(n + 1, 0);
  out_.resize(links_.size());
  in_.resize(links_.size());
  // CSR from the Boost graph: out_edges / in_edges of each vertex, in insertion order.
  const auto index = boost::get(boost::edge_index, graph_);
  std::uint32_t o = 0, i = 0;
  for (std::size_t v = 0; v < n; ++v) {
    out_begin_[v] = o;
    for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) out_[o++] = index[*e];
    in_begin_[v] = i;
    for (auto [e, end] = boost::in_edges(v, graph_); e != end; ++e) in_[i++] = index[*e];
  }
  out_begin_[n] = o;
  in_begin_[n] = i;
  for (std::size_t v = 0; v < n; ++v) {
    if (nodes_[v].kind == NodeKind::kSwitch && nodes_[v].radix < nodes_[v].ports) nodes_[v].radix = nodes_[v].ports;
  }
}

std::string Topology::node_name(NodeId n) const {
  if (nodes_[n].kind == NodeKind::kHost) return "h" + std::to_string(n);
  return "s" + std::to_string(nodes_[n].tier) + "." + std::to_string(n - host_count_);
}

}  // namespace dcsim::models::network
