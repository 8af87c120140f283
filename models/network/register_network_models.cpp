#include "models/network/topology_builders.hpp"

namespace dcsim::models::network {

namespace {
std::vector<sim::ParamSpec> attachment_params() {
  return {
      {"nics_per_node", "", "1", "x >= 1", "NICs per host (bonded: flows hash over them)"},
      {"links_per_node", "", "1", "x >= 1", "cables per NIC (per NIC and neighbour in direct topologies)"},
      {"bundle_parallel_links", "", "true", "", "aggregate parallel cables into one link (LAG)"},
      {"link_bandwidth_bps", "data rate", "\"100 Gbps\"", "x > 0", "switch-to-switch (and direct) link rate"},
      {"nic_bandwidth_bps", "data rate", "link rate", "x > 0", "host NIC port rate"},
      {"host_cable_m", "length", "\"2 m\"", "x >= 0", "host cable length (5 ns/m)"},
      {"switch_cable_m", "length", "\"20 m\"", "x >= 0", "switch-to-switch cable length (5 ns/m)"},
      {"switch_latency", "duration", "\"0 ns\"", "x >= 0", "switch port-to-port latency"},
  };
}
// Switch presets and the radix-bound Clos (clos.hpp, switch_presets.hpp).
std::vector<sim::ParamSpec> switch_params(bool pods) {
  std::vector<sim::ParamSpec> out = {
      {"switch", "", "none", "a switch preset", "switch preset of every tier; its radix at the link rate bounds the fabric (none: switches get the ports their wiring needs)"},
      {"leaf_switch", "", "switch", "a switch preset", "switch preset of tier 1 (leaf, edge or rail switches)"},
      {"spine_switch", "", "switch", "a switch preset", "switch preset of tier 2 (spines, aggregation)"},
      {"core_switch", "", "switch", "a switch preset", "switch preset of tier 3 (cores, grown when the spines run out of ports)"},
      {"core_cable_m", "length", "switch_cable_m", "x >= 0", "spine-to-core cable length"},
      {"planes", "", "1", "1 to 8", "independent copies of the switches, every NIC with a port (nic_bandwidth_bps) on each: Alibaba HPN's dual-plane (planes.hpp)"},
  };
  if (pods) {
    out.push_back({"spine_oversubscription", "", "1", "x >= 1", "pod spine downlink / uplink bandwidth (three tiers)"});
    out.push_back({"spines", "", "0", "x >= 0, divides a leaf's uplinks", "spines per pod (per fabric with two tiers); 0: derived"});
    out.push_back({"nodes_per_pod", "", "0", "x >= 0", "hosts per pod of a three-tier fabric; 0: derived from the spine radix"});
  }
  return out;
}
// Hosts, for the topologies sized by a host count (fat_tree, rail_optimized, ring): one
// description, as the scenario has one `nodes` key. The scenario layer defaults it to the
// cluster's nodes.
sim::ParamSpec nodes_param() {
  return {"nodes", "", "the cluster's nodes (no /cluster: fat_tree 0, the full tree; others 8)", "x >= 0",
          "hosts; fat_tree builds the smallest non-blocking fat-tree of radix k that holds them"};
}
std::vector<sim::ParamSpec> with(std::vector<sim::ParamSpec> own, std::vector<sim::ParamSpec> more = {}) {
  own.insert(own.end(), more.begin(), more.end());
  auto common = attachment_params();
  own.insert(own.end(), common.begin(), common.end());
  return own;
}
// Direct topologies have no switches: host-to-host links at link_bandwidth_bps, no NIC-to-switch
// rate, switch cable or switch latency to read.
std::vector<sim::ParamSpec> direct(std::vector<sim::ParamSpec> own) {
  auto all = with(std::move(own));
  std::erase_if(all, [](const sim::ParamSpec& p) {
    return p.name == "nic_bandwidth_bps" || p.name == "switch_cable_m" || p.name == "switch_latency";
  });
  return all;
}
}  // namespace

void register_network_models(sim::Registry<TopologyFactory>& topologies) {
  topologies.add({"fat_tree", "the non-blocking fabric for N nodes: the smallest k-ary fat-tree that holds `nodes` "
                              "(default: the cluster's) x their NICs, k the switch preset's radix, with partly "
                              "filled pods and fewer cores; refused with the shape to use when three tiers cannot "
                              "hold them. `nodes` 0: the full tree (k^2/2 or k^3/4 host ports)",
                  with({{"k", "", "4", "even, x >= 2", "switch radix"},
                        {"tiers", "", "the fewest that hold nodes (full tree: 3)", "2 or 3", "switch tiers"},
                        nodes_param()},
                       switch_params(false)),
                  {build_fat_tree, fat_tree_size}});
  topologies.add({"leaf_spine", "every leaf wired to every spine, spines sized by oversubscription; with a switch preset, a third tier of pods and cores when the spines run out of ports",
                  with({{"leaves", "", "4", "x >= 1", "leaf switches"},
                        {"hosts_per_leaf", "", "4", "x >= 1", "hosts under each leaf"},
                        {"oversubscription", "", "1", "x >= 1", "leaf downlink / uplink bandwidth"}},
                       switch_params(true)),
                  {build_leaf_spine, leaf_spine_size}});
  topologies.add({"rail_optimized", "NIC r of every host on rail switch r of its group; rails joined by spines (per pod, with cores between pods when a switch preset's radix runs out)",
                  with({nodes_param(),
                        {"nodes_per_rail_group", "", "0", "divides nodes", "hosts per rail switch (0: all)"},
                        {"oversubscription", "", "1", "x >= 1", "rail downlink / uplink bandwidth"}},
                       switch_params(true)),
                  {build_rail_optimized, rail_optimized_size}});
  topologies.add({"mesh", "1-D to 3-D mesh of hosts that forward traffic, no wrap-around",
                  direct({{"dims", "", "[4, 4]", "each x >= 2", "hosts per dimension"}}), {build_mesh, mesh_size}});
  topologies.add({"ring", "1-D ring of hosts that forward traffic",
                  direct({nodes_param()}), {build_ring, ring_size}});
  topologies.add({"torus", "2-D or 3-D torus of hosts that forward traffic (wrap-around)",
                  direct({{"dims", "", "[4, 4]", "2 or 3 dims, each x >= 2", "hosts per dimension"}}), {build_torus, torus_size}});
}

}  // namespace dcsim::models::network
