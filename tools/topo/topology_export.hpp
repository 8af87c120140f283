#pragma once
// Exports of a fabric's topology for people and for other simulators:
//  - Graphviz dot and GraphML (Boost.Graph's write_graphviz / write_graphml): one vertex per host
//    or switch (id = the name `network/flows` and faults use: h3, s2.5), one undirected edge per
//    cable (bundle), labelled with its two directed link ids, bandwidth and latency;
//  - the link table: one CSV row per directed link (the ids in the flows table's route column),
//    so a run can be replayed and checked flow by flow elsewhere.

#include <iosfwd>

#include "models/network/topology.hpp"

namespace dcsim::tools::topo {

void write_dot(const models::network::Topology& topology, std::ostream& out);
void write_graphml(const models::network::Topology& topology, std::ostream& out);
// Header: link,src,dst,bandwidth_bps,latency_ns,tier,cables,reverse
void write_link_table(const models::network::Topology& topology, std::ostream& out);

}  // namespace dcsim::tools::topo
