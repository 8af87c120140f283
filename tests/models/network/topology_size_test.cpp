// Every registered topology states its size from its config alone (topology_size.hpp): what the
// resource guard multiplies before anything is built. The formula must bound the built topology
// from above, and not by much (an estimate four times too high refuses runs that fit).

#include <catch2/catch.hpp>

#include <vector>

#include "models/network/topology_builders.hpp"
#include "sim/registry.hpp"

using namespace dcsim::models::network;

namespace {

// Configs every builder accepts, varied in what each reads.
std::vector<TopologyConfig> sample_configs() {
  std::vector<TopologyConfig> out;
  TopologyConfig c;
  out.push_back(c);
  c.k = 8;
  c.tiers = 2;
  c.leaves = 6;
  c.hosts_per_leaf = 8;
  c.oversubscription = 2;
  c.nodes = 16;
  c.nodes_per_rail_group = 8;
  c.nics_per_node = 2;
  c.links_per_node = 2;
  c.dims = {3, 4, 5};
  out.push_back(c);
  c.k = 12;
  c.tiers = 3;
  c.nics_per_node = 1;
  c.links_per_node = 1;
  c.bundle_parallel_links = false;
  c.oversubscription = 1;
  c.nodes_per_rail_group = 0;
  c.dims = {6, 6};
  out.push_back(c);
  // Spines named: a leaf's uplinks spread over fewer spines, several cables to each.
  c.k = 8;
  c.tiers = 2;
  c.hosts_per_leaf = 8;
  c.nodes = 16;
  c.spines = 2;
  out.push_back(c);
  // A fat-tree sized to its hosts (fat_tree.hpp): two tiers, three with a partly filled pod, and
  // a single edge switch.
  c.spines = 0;
  c.fat_tree_nodes = 20;
  c.tiers = 0;
  out.push_back(c);
  c.fat_tree_nodes = 50;
  out.push_back(c);
  c.fat_tree_nodes = 3;
  out.push_back(c);
  return out;
}

}  // namespace

TEST_CASE("every registered topology's size bounds the built one within a factor of two",
          "[models][network][topology]") {
  dcsim::sim::Registry<TopologyFactory> reg("topology");
  register_network_models(reg);
  for (const auto& e : reg.entries()) {
    for (const TopologyConfig& c : sample_configs()) {
      INFO(e.name << " k=" << c.k << " tiers=" << c.tiers << " nics=" << c.nics_per_node);
      const Topology t = e.factory(c);
      const TopologySize size = e.factory.size(c);
      const double hosts = static_cast<double>(t.host_count());
      const double switches = static_cast<double>(t.node_count() - t.host_count());
      // Each cable is two directed links; bundling may merge parallel cables into one.
      const double cables = static_cast<double>(t.link_count()) / 2;
      CHECK(size.hosts == hosts);  // hosts are exact: the cluster maps onto them
      CHECK(size.switches >= switches);
      CHECK(size.switches <= 2 * switches + 1);
      CHECK(size.cables >= cables);
      CHECK(size.cables <= 2 * cables * c.links_per_node + 1);
    }
  }
}

TEST_CASE("a topology's size can be stated far beyond what could be built", "[models][network][topology]") {
  // k=100,000: 2.5e14 hosts. The formula runs in doubles and overflows nothing.
  TopologyConfig c;
  c.k = 100000;
  const TopologySize size = fat_tree_size(c);
  CHECK(size.hosts == Approx(2.5e14));
  CHECK(size.switches == Approx(1.25e10));
  CHECK(size.cables == Approx(7.5e14));
}
