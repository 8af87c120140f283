#include "tools/topo/topology_export.hpp"

#include <ostream>
#include <string>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <fmt/format.h>

namespace dcsim::tools::topo {

namespace net = models::network;

namespace {

struct VertexProps {
  std::string name;
  std::string kind;  // host or switch
  int tier = 0;
};
struct EdgeProps {
  std::string links;  // "a/b": the two directed link ids of the cable (bundle)
  double bandwidth_bps = 0.0;
  std::int64_t latency_ns = 0;
  int tier = 0;
  int cables = 1;
};
using CableGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps, EdgeProps>;

// The model keeps each direction as its own link (its own max-min constraint); a drawing wants
// one edge per cable, so directions are folded into their lower id.
CableGraph cable_graph(const net::Topology& t) {
  CableGraph g(t.node_count());
  for (std::size_t n = 0; n < t.node_count(); ++n) {
    const auto id = static_cast<net::NodeId>(n);
    g[id].name = t.node_name(id);
    g[id].kind = t.node(id).kind == net::NodeKind::kHost ? "host" : "switch";
    g[id].tier = t.node(id).tier;
  }
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    const net::LinkInfo& info = t.link(static_cast<net::LinkId>(l));
    if (info.reverse < l) continue;
    boost::add_edge(info.src, info.dst,
                    EdgeProps{std::to_string(l) + "/" + std::to_string(info.reverse), info.bandwidth_bps,
                              info.latency_ns, info.tier, info.cables},
                    g);
  }
  return g;
}

}  // namespace

void write_dot(const net::Topology& t, std::ostream& out) {
  const CableGraph g = cable_graph(t);
  boost::write_graphviz(
      out, g,
      [&g](std::ostream& o, CableGraph::vertex_descriptor v) {
        const VertexProps& p = g[v];
        o << fmt::format("[label=\"{}\", shape={}, tier={}]", p.name, p.kind == "host" ? "ellipse" : "box", p.tier);
      },
      [&g](std::ostream& o, CableGraph::edge_descriptor e) {
        const EdgeProps& p = g[e];
        o << fmt::format("[label=\"{}\", links=\"{}\", bandwidth_bps={:.17g}, latency_ns={}, cables={}]",
                         p.cables > 1 ? fmt::format("{} x{}", p.links, p.cables) : p.links, p.links,
                         p.bandwidth_bps, p.latency_ns, p.cables);
      },
      [](std::ostream& o) { o << "graph [overlap=false];\nnode [fontsize=10];\nedge [fontsize=7];\n"; },
      boost::get(&VertexProps::name, g));
}

void write_graphml(const net::Topology& t, std::ostream& out) {
  CableGraph g = cable_graph(t);
  boost::dynamic_properties dp;
  dp.property("name", boost::get(&VertexProps::name, g));
  dp.property("kind", boost::get(&VertexProps::kind, g));
  dp.property("tier", boost::get(&VertexProps::tier, g));
  dp.property("links", boost::get(&EdgeProps::links, g));
  dp.property("bandwidth_bps", boost::get(&EdgeProps::bandwidth_bps, g));
  dp.property("latency_ns", boost::get(&EdgeProps::latency_ns, g));
  dp.property("link_tier", boost::get(&EdgeProps::tier, g));
  dp.property("cables", boost::get(&EdgeProps::cables, g));
  boost::write_graphml(out, g, dp, true);
}

void write_link_table(const net::Topology& t, std::ostream& out) {
  out << "link,src,dst,bandwidth_bps,latency_ns,tier,cables,reverse\n";
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    const net::LinkInfo& i = t.link(static_cast<net::LinkId>(l));
    out << fmt::format("{},{},{},{:.17g},{},{},{},{}\n", l, t.node_name(i.src), t.node_name(i.dst), i.bandwidth_bps,
                       i.latency_ns, i.tier, i.cables, i.reverse);
  }
}

}  // namespace dcsim::tools::topo
