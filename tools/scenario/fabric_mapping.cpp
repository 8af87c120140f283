#include "tools/scenario/fabric_mapping.hpp"

#include "tools/scenario/fabric_key_check.hpp"
#include "tools/scenario/faults_spec.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "models/network/fat_tree.hpp"
#include "models/network/switch_presets.hpp"
#include "models/network/traffic.hpp"
#include "tools/scenario/fabric_spec.hpp"
#include "tools/scenario/flow_csv.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace net = models::network;

namespace {

sim::Time duration_of(const json& v) { return sim::Time::from_seconds(v.get<double>()); }

bool topology_reads(const models::ModelRegistries& registries, const std::string& topology, const std::string& key) {
  const auto& params = registries.topologies.get(topology).params;
  return std::any_of(params.begin(), params.end(), [&key](const auto& p) { return p.name == key; });
}

// `switch` (every tier) and `leaf_switch` / `spine_switch` / `core_switch`: each tier's radix is
// the preset's ports at the link rate (switch_presets.hpp); its latency applies unless
// switch_latency is given (the leaf's, else the first named). A fat-tree without `k` takes the
// leaf's radix.
void map_switch_presets(const json& fabric_json, const std::string& source, FabricScenario& out,
                        std::vector<std::string>& errors) {
  const std::string& section = out.section;
  net::TopologyConfig& c = out.topology_config;
  static const char* const kTierKeys[] = {"leaf_switch", "spine_switch", "core_switch"};
  const std::string topology = fabric_json.at("topology").get<std::string>();
  bool latency_set = fabric_json.contains("switch_latency");
  for (int tier = 0; tier < 3; ++tier) {
    const char* key = fabric_json.contains(kTierKeys[tier]) ? kTierKeys[tier] : fabric_json.contains("switch") ? "switch" : nullptr;
    if (key == nullptr) continue;
    const std::string name = fabric_json.at(key).get<std::string>();
    const net::SwitchPreset* preset = net::find_switch_preset(name);
    if (preset == nullptr) continue;  // the schema names the presets
    const int radix = preset->radix_at(c.link_bandwidth_bps);
    if (radix == 0) {
      std::ostringstream gbps;
      gbps << c.link_bandwidth_bps / 1e9;
      errors.push_back(located(source, pointer_append(section, key),
                               name + " has no " + gbps.str() + " Gb/s ports (link_bandwidth_bps); it offers " +
                                   preset->breakouts()));
      return;  // one message per preset: the other tiers would repeat it
    }
    c.tier_radix[static_cast<std::size_t>(tier)] = radix;
    c.tier_model[static_cast<std::size_t>(tier)] = name;
    if (!latency_set) {
      c.switch_latency_ns = preset->latency_ns;
      latency_set = true;
    }
    if (tier == 0 && topology == "fat_tree" && !fabric_json.contains("k")) {
      c.k = radix;
      out.derived["k"] = pointer_append(section, key);
    }
  }
}

FabricScenario map_fabric(const json& fabric_json, const models::ModelRegistries& registries, bool frontend,
                          std::uint64_t scenario_seed, const std::string& source, std::vector<std::string>& errors) {
  FabricScenario out;
  out.section = frontend ? "/frontend" : "/fabric";
  fabric_bindings(registries, frontend).apply(fabric_json, out);
  // What no single key says.
  if (!fabric_json.at("routing").contains("hash_seed")) out.options.routing.seed = scenario_seed;
  net::RoceConfig& roce = out.options.roce;
  // Spreading is a PFC effect: asking for it switches PFC on. PFC and DCQCN are RoCE effects:
  // asking for one means RoCE is on.
  roce.pfc = roce.pfc || roce.pfc_spreading;
  roce.enabled = roce.enabled || roce.pfc || roce.dcqcn;
  for (const char* key : {"mtu", "header"}) {
    const double bytes = fabric_json.at("roce").at(key).get<double>();
    if (bytes != std::floor(bytes) || bytes > 1e6) {
      errors.push_back(
          located(source, out.section + "/roce/" + key,
                  "expected a whole number of bytes up to 1 MB, got " + fabric_json.at("roce").at(key).dump() + " B"));
    }
  }
  map_switch_presets(fabric_json, source, out, errors);
  // The flows table holds every route, so a run can be checked against another simulator.
  out.options.record_routes = true;
  // A port the scripted faults name (map_fabric_faults) that the model finds missing.
  out.derived["nic_port"] = "/faults";
  return out;
}

// The fabric's scripted faults: /faults entries of kinds link, switch and nic_port (the cross-field
// check made sure they have their keys), naming links, switches and host ports by what `dcsim
// topo` prints; checked against the built topology. A fault with a duration comes back up then.
std::vector<FabricFault> map_fabric_faults(const json& faults, const net::Topology& t, const std::string& source,
                                           std::vector<std::string>& errors) {
  std::vector<FabricFault> out;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const json& x = faults[i];
    const std::string kind = x.at("kind").get<std::string>();
    if (fault_target(kind) != FaultTarget::kFabric) continue;
    const std::string base = "/faults/" + std::to_string(i);
    FabricFault fault;
    fault.at = duration_of(x.at("at"));
    fault.up = x.at("state").get<std::string>() == "up";
    if (kind == "link") {
      fault.kind = FabricFault::Kind::kLink;
      fault.link = x.at("link").get<net::LinkId>();
      if (fault.link >= t.link_count()) {
        errors.push_back(located(source, base + "/link",
                                 "expected a link id below " + std::to_string(t.link_count()) +
                                     " (`dcsim topo --links` lists them), got " + x.at("link").dump()));
        continue;
      }
    } else if (kind == "switch") {
      fault.kind = FabricFault::Kind::kSwitch;
      const auto name = x.at("switch").get<std::string>();
      bool found = false;
      for (std::size_t n = t.host_count(); n < t.node_count() && !found; ++n) {
        if (t.node_name(static_cast<net::NodeId>(n)) == name) {
          fault.node = static_cast<net::NodeId>(n);
          found = true;
        }
      }
      if (!found) {
        errors.push_back(located(source, base + "/switch",
                                 "expected a switch name of this fabric such as \"" +
                                     (t.node_count() > t.host_count()
                                          ? t.node_name(static_cast<net::NodeId>(t.host_count()))
                                          : std::string("s1.0")) +
                                     "\" (`dcsim topo --links` lists them), got \"" + name + "\""));
        continue;
      }
    } else {
      fault.kind = FabricFault::Kind::kNicPort;
      fault.node = x.at("host").get<net::NodeId>();
      fault.port = x.at("port").get<int>();
      if (fault.node >= t.host_count()) {
        errors.push_back(located(source, base + "/host",
                                 "expected a host index below " + std::to_string(t.host_count()) + ", got " +
                                     x.at("host").dump()));
        continue;
      }
      if (static_cast<std::size_t>(fault.port) >= t.out_links(fault.node).size()) {
        errors.push_back(located(source, base + "/port",
                                 "expected a port below " + std::to_string(t.out_links(fault.node).size()) +
                                     " (the ports of host " + std::to_string(fault.node) + "), got " +
                                     x.at("port").dump()));
        continue;
      }
    }
    out.push_back(fault);
    if (x.contains("duration")) {
      FabricFault repair = fault;
      repair.at = fault.at + duration_of(x.at("duration"));
      repair.up = true;
      out.push_back(repair);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const FabricFault& a, const FabricFault& b) { return a.at < b.at; });
  return out;
}

double requested_flows(const json& tr, double hosts) {
  if (tr.at("pattern") == "replay") return 0;
  net::TrafficConfig c;
  traffic_bindings().apply(tr, c);
  return traffic_flow_count(c, hosts);
}

TrafficScenario map_traffic(const json& tr, std::uint64_t scenario_seed, const std::string& source,
                            const MemoryEstimate& fabric_estimate, const ResourceLimits& limits,
                            std::size_t hosts, std::vector<std::string>& errors) {
  TrafficScenario out;
  net::TrafficConfig& c = out.config;
  const Bindings<net::TrafficConfig> bindings = traffic_bindings();
  bindings.apply(tr, c);
  if (!tr.contains("seed")) c.seed = scenario_seed;
  if (tr.at("pattern") == "replay") {
    out.replay = true;
    if (!tr.contains("file")) {
      errors.push_back(located(source, "/traffic/file", "missing required key for pattern replay; expected a CSV file"));
      return out;
    }
    out.file = beside(source, tr.at("file").get<std::string>());
    out.records = read_flow_csv(out.file, out.file, hosts, source + ":/traffic/file");
    return out;
  }
  if (tr.contains("size") == tr.contains("size_file")) {
    errors.push_back(located(source, "/traffic/size",
                             tr.contains("size") ? "expected either size or size_file, got both"
                                                 : "missing required key; expected a size distribution "
                                                   "{\"kind\": \"fixed\", \"value\": \"1 MB\"} or a size_file"));
    return out;
  }
  if (tr.contains("size")) {
    if (const auto kind = tr.at("size").at("kind").get<std::string>(); kind != "fixed" && kind != "lognormal") {
      errors.push_back(located(source, "/traffic/size/kind",
                               "expected a flow size kind, one of: fixed, lognormal, got \"" + kind + "\""));
      return out;
    }
  } else {
    const std::string file = beside(source, tr.at("size_file").get<std::string>());
    c.size.kind = net::SizeDistribution::Kind::kList;
    c.size.list = read_size_csv(file, file, source + ":/traffic/size_file");
  }
  // Before generating (again, now with the built fabric's host count): all_to_all on 100,000
  // hosts is 1e10 flows.
  MemoryEstimate estimate = fabric_estimate;
  estimate.add(traffic_memory(traffic_flow_count(c, static_cast<double>(hosts))));
  check_memory(estimate, limits, source, "/traffic/pattern");
  try {
    out.records = net::generate_traffic(c, hosts);
  } catch (const sim::ConfigError& e) {
    const auto pointer = bindings.pointer_of(e.field(), "/traffic", &tr);
    errors.push_back(pointer ? located(source, *pointer, e.detail())
                             : source + ":/traffic: " + e.field() + ": " + e.detail());
  }
  return out;
}

// The resolved document states the whole fabric that runs: the chosen topology's parameters the
// scenario left out are filled with the builder's defaults, in the resolved (SI) units.
void fill_topology_defaults(const FabricScenario& f, const models::ModelRegistries& registries, json& fabric) {
  FabricScenario built = f;
  net::TopologyConfig& c = built.topology_config;
  // A fat-tree's tier count and host count as built (fat_tree.hpp): tiers 0 means the fewest that
  // hold the nodes, and its `nodes` is fat_tree_nodes (0: the full tree).
  const bool fat_tree = f.topology == "fat_tree";
  if (fat_tree && c.tiers == 0) {
    try {
      c.tiers = net::fat_tree_shape(f.topology_config).tiers;
    } catch (const sim::ConfigError&) {
    }
  }
  c.nic_bandwidth_bps = c.nic_bandwidth_bps > 0 ? c.nic_bandwidth_bps : c.link_bandwidth_bps;
  c.core_cable_m = c.core_cable_m > 0 ? c.core_cable_m : c.switch_cable_m;
  json values = json::object();
  fabric_bindings(registries, f.section == "/frontend").fill_from(built, values);
  values["nodes"] = fat_tree ? c.fat_tree_nodes : c.nodes;
  values["switch_latency"] = static_cast<double>(c.switch_latency_ns) * 1e-9;
  for (const auto& p : registries.topologies.get(f.topology).params) {
    // (one edge switch is the whole fat-tree: 1 tier, which the key does not take)
    if (p.name == "tiers" && fat_tree && (c.tiers < 2 || c.tiers > 3)) continue;
    if (values.contains(p.name) && !fabric.contains(p.name)) fabric[p.name] = values.at(p.name);
  }
}

}  // namespace

std::string fabric_error(const FabricScenario& fabric, const models::ModelRegistries& registries,
                         const std::string& source, const sim::ConfigError& error) {
  std::optional<std::string> pointer;
  for (const auto& [field, at] : fabric.derived) {
    if (names_field(error.field(), {field})) pointer = at;
  }
  if (!pointer)
    pointer = fabric_bindings(registries, fabric.section == "/frontend").pointer_of(error.field(), fabric.section);
  // A model's own derived field reads "<section>: <field>: ...".
  if (!pointer) return source + ":" + fabric.section + ": " + error.field() + ": " + error.detail();
  return located(source, *pointer, error.detail());
}

net::Topology build_topology(const FabricScenario& fabric, const models::ModelRegistries& registries,
                             const std::string& source) {
  try {
    return registries.topologies.get(fabric.topology).factory(fabric.topology_config);
  } catch (const sim::ConfigError& e) {
    throw sim::InputError(fabric_error(fabric, registries, source, e));
  }
}

namespace {

// A network section (/fabric or /frontend) mapped and its keys checked against its topology (a
// --set of a key the topology does not read is an error, one written in the file a notice).
// Topology parameters left to the builder's defaults are written into the resolved document
// (fill_topology_defaults), so a complaint about one points at a key that is there.
FabricScenario map_network(const json& resolved, const std::string& key, const models::ModelRegistries& registries,
                           Scenario& out, std::vector<std::string>& errors) {
  FabricScenario network = map_fabric(resolved.at(key), registries, key == "frontend", out.seed, out.source, errors);
  // A topology sized by a host count holds the cluster's nodes unless told otherwise (cluster
  // node i is host i): a fat-tree for 128 nodes is not the full tree of its switches' radix.
  if (out.has_cluster && !resolved.at(key).contains("nodes") && topology_reads(registries, network.topology, "nodes")) {
    network.topology_config.nodes = out.cluster.nodes;
    network.topology_config.fat_tree_nodes = out.cluster.nodes;
    network.derived["nodes"] = "/cluster/nodes";
    network.derived["fat_tree_nodes"] = "/cluster/nodes";
  }
  const TopologyKeyUse use = topology_key_use(registries.topologies);
  for (auto& e : unused_topology_keys(key, resolved.at(key), network.topology, use, out.overrides, out.source)) {
    errors.push_back(std::move(e));
  }
  if (out.given.contains(key)) {
    for (auto& note : unread_file_topology_keys(key, out.given.at(key), network.topology, use, out.overrides, out.source)) {
      out.notices.push_back(std::move(note));
    }
  }
  return network;
}

// Without a switch preset a builder gives each switch the ports its wiring needs. Where that is
// more than any registered part offers at the link rate, the run still works (an idealised
// fabric), but its BOM, switch power and capex count switches nobody sells: say so, and how to
// build it from real parts.
void note_unbuildable_switches(const FabricScenario& network, const net::Topology& topology, Scenario& out) {
  const double link_bps = network.topology_config.link_bandwidth_bps;
  const net::SwitchPreset* largest = net::largest_switch_preset_at(link_bps);
  if (largest == nullptr) return;
  const int radix = largest->radix_at(link_bps);
  std::int64_t count = 0;
  int most = 0;
  for (net::NodeId n = static_cast<net::NodeId>(topology.host_count()); n < topology.node_count(); ++n) {
    const net::NodeInfo& node = topology.node(n);
    if (node.kind != net::NodeKind::kSwitch || !topology.switch_model(n).empty() || node.ports <= radix) continue;
    ++count;
    most = std::max(most, node.ports);
  }
  if (count == 0) return;
  std::ostringstream note;
  note << out.source << ": " << network.section << ": " << count << " switch(es) have more ports than any switch "
       << "preset offers at " << link_bps / 1e9 << " Gb/s (up to " << most << ", against " << radix << " on "
       << largest->name << "): the fabric is idealised, and its bill of materials, switch power and capex count "
       << "parts nobody sells. Name one with " << network.section
       << "/switch (dcsim list \"switch preset\") and the builder grows the tiers its radix forces";
  out.notices.push_back(note.str());
}

// The model's own checks of a network's RoCE knobs and routing, with pointers.
void probe_fabric_options(const FabricScenario& network, const net::Topology& topology,
                          const models::ModelRegistries& registries, const std::string& source,
                          std::vector<std::string>& errors) {
  try {
    net::Fabric probe(net::Topology(topology), network.options);
  } catch (const sim::ConfigError& e) {
    errors.push_back(fabric_error(network, registries, source, e));
  }
}

std::string gbps_text(double bps) {
  std::ostringstream out;
  out << bps / 1e9 << " Gb/s";
  return out.str();
}

// The front-end network's hosts are the nodes' storage NICs: NIC count and rate default to the
// node's, and may not exceed them (a network cannot use NICs the node does not have).
void fit_frontend_to_node(FabricScenario& frontend, const json& given, const models::ModelRegistries& registries,
                          const models::hardware::NodeSpec& node, const std::string& source,
                          std::vector<std::string>& errors) {
  net::TopologyConfig& c = frontend.topology_config;
  if (topology_reads(registries, frontend.topology, "nics_per_node")) {
    if (!given.contains("nics_per_node")) {
      c.nics_per_node = node.storage_nics;
      frontend.derived["nics_per_node"] = "/cluster/node/storage_nics";
    } else if (c.nics_per_node > node.storage_nics) {
      errors.push_back(located(source, "/frontend/nics_per_node",
                               "the node has " + std::to_string(node.storage_nics) +
                                   " front-end NICs (/cluster/node/storage_nics): expected at most that, got " +
                                   std::to_string(c.nics_per_node)));
    }
  }
  if (topology_reads(registries, frontend.topology, "nic_bandwidth_bps")) {
    if (!given.contains("nic_bandwidth_bps")) {
      c.nic_bandwidth_bps = node.storage_nic_bandwidth_bps;
      frontend.derived["nic_bandwidth_bps"] = "/cluster/node/storage_nic_bandwidth";
    } else if (c.nic_bandwidth_bps > node.storage_nic_bandwidth_bps) {
      errors.push_back(located(source, "/frontend/nic_bandwidth_bps",
                               "the node's front-end NICs run at " + gbps_text(node.storage_nic_bandwidth_bps) +
                                   " (/cluster/node/storage_nic_bandwidth): expected at most that, got " +
                                   gbps_text(c.nic_bandwidth_bps)));
    }
  }
  // A NIC's cables and planes share its line rate: ports x rate may not exceed what it carries
  // (Alibaba HPN: a 400G NIC as 2 x 200G ports, one per plane).
  const bool switched = topology_reads(registries, frontend.topology, "nic_bandwidth_bps");
  const int nics = std::min(c.nics_per_node, node.storage_nics);
  const int ports_per_nic = std::max(1, c.links_per_node) * std::max(1, switched ? c.planes : 1);
  if (switched && errors.empty() && nics > 0 && ports_per_nic > 1 &&
      ports_per_nic * c.nic_bandwidth_bps > node.storage_nic_bandwidth_bps * (1 + 1e-12)) {
    const std::string key = c.planes > 1 ? "planes" : "links_per_node";
    errors.push_back(located(
        source, "/frontend/" + key,
        std::to_string(c.links_per_node) + " cable(s) x " + std::to_string(c.planes) + " plane(s) x " +
            gbps_text(c.nic_bandwidth_bps) + " per NIC is more than a front-end NIC carries (" +
            gbps_text(node.storage_nic_bandwidth_bps) +
            ", /cluster/node/storage_nic_bandwidth): give each port its share (nic_bandwidth_bps " +
            gbps_text(node.storage_nic_bandwidth_bps / ports_per_nic) + ")"));
  }
}

}  // namespace

void map_fabric_sections(const json& resolved, const models::ModelRegistries& registries, const ResourceLimits& limits,
                         Scenario& out) {
  std::vector<std::string> errors;
  if (resolved.contains("traffic") && !resolved.contains("fabric")) {
    throw sim::InputError(out.source + ":/traffic: expected a /fabric section to carry the traffic, got none");
  }
  if (!resolved.contains("fabric")) return;
  FabricScenario fabric = map_network(resolved, "fabric", registries, out, errors);
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  // The size from the builder's formula first: a k=100,000 fat-tree must not be built to be refused.
  const net::TopologySize size = registries.topologies.get(fabric.topology).factory.size(fabric.topology_config);
  const MemoryEstimate fabric_estimate = fabric_memory(size);
  check_memory(fabric_estimate, limits, out.source, "/fabric");
  if (resolved.contains("traffic")) {
    MemoryEstimate with_traffic = fabric_estimate;
    with_traffic.add(traffic_memory(requested_flows(resolved.at("traffic"), size.hosts)));
    check_memory(with_traffic, limits, out.source, "/traffic/pattern");
  }
  const net::Topology topology = build_topology(fabric, registries, out.source);
  note_unbuildable_switches(fabric, topology, out);
  fabric.faults = map_fabric_faults(resolved.at("faults"), topology, out.source, errors);
  probe_fabric_options(fabric, topology, registries, out.source, errors);
  if (resolved.contains("traffic")) {
    out.traffic = map_traffic(resolved.at("traffic"), out.seed, out.source, fabric_estimate, limits,
                              topology.host_count(), errors);
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  fill_topology_defaults(fabric, registries, out.resolved["fabric"]);
  out.fabric = std::move(fabric);
}

void map_frontend_section(const json& resolved, const models::ModelRegistries& registries,
                          const ResourceLimits& limits, Scenario& out) {
  if (!resolved.contains("frontend")) return;
  if (!out.has_cluster) {
    throw sim::InputError(out.source + ":/frontend: expected a /cluster whose nodes it connects, got none");
  }
  std::vector<std::string> errors;
  FabricScenario frontend = map_network(resolved, "frontend", registries, out, errors);
  fit_frontend_to_node(frontend, resolved.at("frontend"), registries, out.cluster.node, out.source, errors);
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  const net::TopologySize size = registries.topologies.get(frontend.topology).factory.size(frontend.topology_config);
  check_memory(fabric_memory(size), limits, out.source, "/frontend");
  const net::Topology topology = build_topology(frontend, registries, out.source);
  note_unbuildable_switches(frontend, topology, out);
  probe_fabric_options(frontend, topology, registries, out.source, errors);
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  fill_topology_defaults(frontend, registries, out.resolved["frontend"]);
  out.frontend = std::move(frontend);
}

}  // namespace dcsim::tools::scenario
