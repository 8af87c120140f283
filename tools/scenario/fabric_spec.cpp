#include "tools/scenario/fabric_spec.hpp"

#include <map>

#include "models/network/switch_presets.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;
namespace net = models::network;

namespace {

struct RegistryParam {
  std::string default_value;
  std::string help;
  std::string topologies;  // "fat_tree, leaf_spine"
};

// Name -> what the registry says about it, merged over every topology that takes it.
std::map<std::string, RegistryParam> registry_params(const models::ModelRegistries& registries) {
  std::map<std::string, RegistryParam> out;
  for (const auto& entry : registries.topologies.entries()) {
    for (const auto& p : entry.params) {
      auto [it, fresh] = out.emplace(p.name, RegistryParam{p.default_value, p.help, entry.name});
      if (!fresh) it->second.topologies += ", " + entry.name;
    }
  }
  return out;
}

}  // namespace

namespace {

// `switch` takes a preset or its documented default, `none` (switches get the ports their wiring
// needs).
std::vector<std::string> switch_or_none() {
  std::vector<std::string> names = models::network::switch_preset_names();
  names.push_back("none");
  return names;
}

// The keys of a network section (/fabric or /frontend: the same model, other NICs).
Bindings<FabricScenario> network_bindings(const models::ModelRegistries& registries, const std::string& key,
                                          const std::string& description, const std::string& absent_note,
                                          bool frontend) {
  const auto params = registry_params(registries);
  // A topology key is absent unless given: the builder's own default applies. A key the chosen
  // topology does not read is an error when --set gave it (fabric_key_check.hpp); the file may
  // state it, so `--set fabric.topology=torus` can still switch a fat-tree scenario that also
  // states `dims`.
  const auto param = [&params, frontend](FieldSpec f) {
    if (const auto it = params.find(f.key); it != params.end()) {
      f.description = it->second.help + " (" + it->second.topologies + ").";
      f.default_note = "`" + it->second.default_value + "`";
    }
    // The front-end network's hosts are the nodes' storage NICs.
    if (frontend && f.key == "nics_per_node") f.default_note = "the node's `storage_nics`";
    if (frontend && f.key == "nic_bandwidth_bps") f.default_note = "the node's `storage_nic_bandwidth`";
    return f;
  };
  using F = FabricScenario;
  using T = net::TopologyConfig;
  const auto ns_of = [](const json& v) { return sim::Time::from_seconds(v.get<double>()).ns(); };

  using R = net::RoutingConfig;
  Bindings<R> routing(object_field("routing", "How flows pick among equal-cost paths.", {}));
  routing
      .bind_enum(with_default(enum_field("mode",
                                         "`ecmp`: per-switch hash of (src, dst, QP); `d_mod_k`: "
                                         "destination-based (SimGrid's fat-tree routing); `spray`: "
                                         "ideal packet spraying over the minimal paths, every switch and "
                                         "both hosts' ports spread evenly (upper bound).",
                                         "routing mode", {"ecmp", "d_mod_k", "spray"}),
                              "ecmp"),
                 &R::mode, "routing.mode",
                 {{"ecmp", net::RoutingMode::kEcmp},
                  {"d_mod_k", net::RoutingMode::kDestinationModK},
                  {"spray", net::RoutingMode::kSpray}})
      .bind_enum(with_default(enum_field("ecmp_key",
                                         "`queue_pair`: every flow has its own QPs; `connection`: "
                                         "QPs numbered per host pair, so a pair's flows share paths.",
                                         "ECMP key", {"queue_pair", "connection"}),
                              "queue_pair"),
                 &R::key, "routing.key",
                 {{"queue_pair", net::EcmpKey::kQueuePair}, {"connection", net::EcmpKey::kConnection}})
      .bind(integer_field("qps_per_connection", "Queue pairs per flow; each is hashed on its own.", at_least(1)),
            &R::qps_per_flow, "routing.qps_per_flow")
      .bind(integer_field("max_spray_paths",
                          "Subflows a sprayed flow is split into, each on its own "
                          "path: every minimal path once when there are at most "
                          "this many, else this many rounded up to a whole number "
                          "per port of both hosts.",
                          at_least(1)),
            &R::max_spray_paths, "routing.max_spray_paths")
      // Not given: the scenario seed (map_fabric).
      .bind(with_default_note(wide_integer(integer_field("hash_seed", "Seed of the switches' ECMP hash.", at_least(0))),
                              "the scenario seed"),
            &R::seed, "routing.seed")
      .bind(boolean_field("resilient_hashing",
                          "When a link comes back up, flows stay on their paths "
                          "(resilient ECMP). Off: the switches recompute their hash "
                          "buckets and every flow whose hash now picks another path "
                          "moves to it with its remaining bytes."),
            &R::resilient_hashing, "routing.resilient_hashing");

  using Q = net::RoceConfig;
  // Whole bytes up to 1 MB (map_fabric says so when not).
  const auto bytes = [](int Q::*m) {
    return [m](Q& q, const json& v) { q.*m = static_cast<int>(std::min(v.get<double>(), 1e6)); };
  };
  Bindings<Q> roce(object_field("roce", "RoCE v2 effects; all off by default (pure max-min sharing).", {}));
  roce.bind(boolean_field("enabled",
                          "Payload rate = link share x mtu / (mtu + header). "
                          "Switched on by `pfc` or `dcqcn` too."),
            &Q::enabled, "roce.enabled")
      .bind(with_default(quantity_field("mtu", "RoCE MTU (payload per packet).", QuantityKind::kDataSize, above(0)),
                         "4096 B"),
            "roce.mtu_bytes", bytes(&Q::mtu_bytes))
      .bind(with_default(quantity_field("header", "Headers per packet (Ethernet, IP, UDP, BTH, ICRC).",
                                        QuantityKind::kDataSize, at_least(0)),
                         "62 B"),
            "roce.header_bytes", bytes(&Q::header_bytes))
      .bind(boolean_field("pfc",
                          "PFC pauses: a link carrying at least "
                          "`pfc_incast_fanin` flows keeps `pfc_efficiency` of "
                          "its capacity."),
            &Q::pfc, "roce.pfc")
      .bind(integer_field("pfc_incast_fanin", "Flows on a link that trigger PFC pauses.", at_least(2)),
            &Q::pfc_incast_fanin, "roce.pfc_incast_fanin")
      .bind(number_field("pfc_efficiency", "Usable fraction of a pausing link.", Range{0.0, 1.0, true, false}),
            &Q::pfc_efficiency, "roce.pfc_efficiency")
      .bind(boolean_field("pfc_spreading",
                          "Congestion spreading (switches `pfc` on): a saturated switch port "
                          "in incast pauses the upstream links carrying its flows, "
                          "paused a fraction p = 1 - (incast rate) / (their equal share "
                          "of the link); other flows on those links (victims) keep "
                          "1 - p of their max-min rate."),
            &Q::pfc_spreading, "roce.pfc_spreading")
      .bind(integer_field("pfc_spreading_hops",
                          "Links upstream of the congested port that pauses reach "
                          "(1: the links into its switch).",
                          at_least(1)),
            &Q::pfc_spreading_hops, "roce.pfc_spreading_hops")
      .bind(boolean_field("dcqcn",
                          "DCQCN rate recovery cost when a flow starts or "
                          "its rate drops."),
            &Q::dcqcn, "roce.dcqcn")
      .bind(with_default(quantity_field("dcqcn_recovery", "DCQCN rate recovery time.", QuantityKind::kDuration,
                                        at_least(0)),
                         "20 us"),
            "roce.dcqcn_recovery_ns", [ns_of](Q& q, const json& v) { q.dcqcn_recovery_ns = ns_of(v); })
      .bind(number_field("dcqcn_loss_fraction", "Fraction of recovery time x rate lost per collision.", between(0, 1)),
            &Q::dcqcn_loss_fraction, "roce.dcqcn_loss_fraction");

  Bindings<F> network(optional_section(object_field(key, description, {}), absent_note));
  network
      .bind(required(enum_field("topology", "Topology builder (`dcsim list topology` describes each).",
                                registries.topologies.kind(), registries.topologies.names())),
            &F::topology, "topology")
      .bind(param(integer_field("k", "Switch radix.", at_least(2))), &F::topology_config, &T::k, "k")
      .bind(param(integer_field("tiers", "Switch tiers.", between(2, 3))), &F::topology_config, &T::tiers, "tiers")
      .bind(param(integer_field("leaves", "Leaf switches.", at_least(1))), &F::topology_config, &T::leaves, "leaves")
      .bind(param(integer_field("hosts_per_leaf", "Hosts under each leaf.", at_least(1))), &F::topology_config,
            &T::hosts_per_leaf, "hosts_per_leaf")
      .bind(param(number_field("oversubscription", "Leaf downlink / uplink bandwidth.", at_least(1))),
            &F::topology_config, &T::oversubscription, "oversubscription")
      // A fat-tree's `nodes` is the hosts it holds of the full tree (fat_tree_nodes).
      .bind(param(integer_field("nodes", "Hosts.", at_least(0))), at_key_for({"nodes", "fat_tree_nodes"}),
            [](F& f, const json& v) {
              f.topology_config.nodes = v.get<int>();
              if (f.topology == "fat_tree") f.topology_config.fat_tree_nodes = v.get<int>();
            })
      .bind(param(integer_field("nodes_per_rail_group", "Hosts per rail switch (0: all).", at_least(0))),
            &F::topology_config, &T::nodes_per_rail_group, "nodes_per_rail_group")
      .bind(param(min_items(integer_array_field("dims", "Hosts per dimension.", at_least(2)), 1)), &F::topology_config,
            &T::dims, "dims")
      // Switch presets: their radix and latency per tier (map_fabric).
      .key(param(
          enum_field("switch", "Switch preset of every tier (`none`: no preset).", "switch preset", switch_or_none())))
      .key(param(enum_field("leaf_switch", "Switch preset of tier 1.", "switch preset",
                            models::network::switch_preset_names())))
      .key(param(enum_field("spine_switch", "Switch preset of tier 2.", "switch preset",
                            models::network::switch_preset_names())))
      .key(param(enum_field("core_switch", "Switch preset of tier 3.", "switch preset",
                            models::network::switch_preset_names())))
      .bind(param(number_field("spine_oversubscription", "Pod spine downlink / uplink bandwidth.", at_least(1))),
            &F::topology_config, &T::spine_oversubscription, "spine_oversubscription")
      .bind(param(integer_field("spines", "Spines per pod (0: derived).", at_least(0))), &F::topology_config,
            &T::spines, "spines")
      .bind(param(integer_field("planes", "Independent switch planes.", between(1, 8))), &F::topology_config,
            &T::planes, "planes")
      .bind(param(integer_field("nodes_per_pod", "Hosts per pod (0: derived).", at_least(0))), &F::topology_config,
            &T::nodes_per_pod, "nodes_per_pod")
      .bind(param(quantity_field("core_cable_m", "Spine-to-core cable length.", QuantityKind::kLength, at_least(0))),
            &F::topology_config, &T::core_cable_m, "core_cable_m")
      .bind(param(integer_field("nics_per_node", "NICs per host.", at_least(1))), &F::topology_config,
            &T::nics_per_node, "nics_per_node")
      .bind(param(integer_field("links_per_node", "Cables per NIC.", at_least(1))), &F::topology_config,
            &T::links_per_node, "links_per_node")
      .bind(param(boolean_field("bundle_parallel_links", "Aggregate parallel cables into one link.")),
            &F::topology_config, &T::bundle_parallel_links, "bundle_parallel_links")
      .bind(param(quantity_field("link_bandwidth_bps",
                                 "Switch-to-switch link rate; at least 1 Mb/s (slower than any datacenter "
                                 "link, and a terabyte at 1 b/s outlasts the 292 years simulated time holds).",
                                 QuantityKind::kDataRate, at_least(1e6))),
            &F::topology_config, &T::link_bandwidth_bps, "link_bandwidth_bps")
      .bind(param(quantity_field("nic_bandwidth_bps", "Host NIC port rate; at least 1 Mb/s, as links.",
                                 QuantityKind::kDataRate, at_least(1e6))),
            &F::topology_config, &T::nic_bandwidth_bps, "nic_bandwidth_bps")
      .bind(param(quantity_field("host_cable_m", "Host cable length.", QuantityKind::kLength, at_least(0))),
            &F::topology_config, &T::host_cable_m, "host_cable_m")
      .bind(param(quantity_field("switch_cable_m", "Switch cable length.", QuantityKind::kLength, at_least(0))),
            &F::topology_config, &T::switch_cable_m, "switch_cable_m")
      // The struct holds integer ns, the scenario a duration.
      .bind(param(
                quantity_field("switch_latency", "Switch port-to-port latency.", QuantityKind::kDuration, at_least(0))),
            "switch_latency_ns", [ns_of](F& f, const json& v) { f.topology_config.switch_latency_ns = ns_of(v); })
      .bind(with_default(boolean_field("flow_table",
                                       "One row per finished or failed flow in the flows table (`network/flows`, "
                                       "`frontend/flows`). false: no rows; the summary still counts, sums and times "
                                       "every flow (a site year's checkpoint flows would be ~1e8 rows)."),
                         true),
            &F::flow_table, "flow_table")
      .bind(with_default(quantity_field("link_utilisation_interval",
                                        "Period of the per-link utilisation table "
                                        "(`network/link_utilisation`); 0 records none. Long runs "
                                        "merge adjacent intervals, so the table stays bounded.",
                                        QuantityKind::kDuration, at_least(0)),
                         "0 s"),
            "link_series_interval_ns", [ns_of](F& f, const json& v) { f.options.link_series_interval_ns = ns_of(v); })
      .bind(with_default(number_field("max_min_precision",
                                      "Relative precision of the max-min sharing (SimGrid's "
                                      "maxmin/precision is the absolute counterpart). 1e-9: "
                                      "exact. Larger: a change stops propagating once it moves "
                                      "rates by less than this fraction, and a link may keep "
                                      "up to this fraction of its capacity unused: "
                                      "links are never over-full, rates stay within a few times "
                                      "this fraction of exact max-min (flow completion times "
                                      "within 0.1% on average at 1e-2), and fabrics with tens of "
                                      "flows per link run several times faster "
                                      "(docs/fabric-benchmark.md).",
                                      between(1e-9, 1e-2)),
                         1e-9),
            &F::options, &net::FabricOptions::max_min_precision, "max_min_precision")
      .object(
          std::move(routing), [](F& f) -> R& { return f.options.routing; }, "routing")
      .object(
          std::move(roce), [](F& f) -> Q& { return f.options.roce; }, "roce");
  if (frontend) return network;
  // Training jobs' steps on the backend (ClusterConfig::training_sample_every).
  network
      .bind_enum(with_default(enum_field("training_resolution",
                                         "How training jobs run their steps on this fabric: `steps`, every step as "
                                         "its step graph with its PP and DP traffic as flows (exact); `sampled`, one "
                                         "step as flows at each run's start (so after every fault, re-placement or "
                                         "restart), again every `training_sample_every` and after a link, switch or "
                                         "port changes state, analytic segments at the measured step time between: "
                                         "O(1) per segment, for site-scale runs "
                                         "(docs/models/training-and-collectives.md).",
                                         "training resolution", {"steps", "sampled"}),
                              "steps"),
                 &F::training_sampled, "training_resolution", {{"steps", false}, {"sampled", true}})
      .bind(with_default(quantity_field("training_sample_every",
                                        "`sampled` resolution: simulated time between a training run's samples "
                                        "(each the step in flight at its time).",
                                        QuantityKind::kDuration, above(0)),
                         "6 h"),
            &F::training_sample_every, "training_sample_every");
  return network;
}

}  // namespace

Bindings<FabricScenario> fabric_bindings(const models::ModelRegistries& registries, bool frontend) {
  if (frontend) {
    return network_bindings(
        registries, "frontend",
        "The front-end network of the nodes' storage NICs (`storage_nics`), beside the backend /fabric: the "
        "same keys and model. Cluster node i is its host i; hosts beyond the nodes are stores. Checkpoints "
        "to a `store_host` go over it unless the job's `checkpoint.network` is `backend`, so they share no "
        "link with the collectives. Reported under `frontend/` (flows, bill of materials); its switches "
        "count in the facility's IT power and in capex.",
        "(absent: the storage NICs write at their line rate, no front-end flows)", true);
  }
  return network_bindings(
      registries, "fabric",
      "The RoCE v2 backend network of the GPUs' compute NICs: topology, routing and RoCE effects (its "
      "scripted faults are /faults). A key the topology does not use (`dcsim list topology`) is an error "
      "when `--set` gives it; the file may state it (so `--set fabric.topology=...` can switch a file that "
      "states the keys of several topologies).",
      "(absent: no network)", false);
}

FieldSpec fabric_section(const models::ModelRegistries& registries) {
  return fabric_bindings(registries, false).spec();
}

FieldSpec frontend_section(const models::ModelRegistries& registries) {
  return fabric_bindings(registries, true).spec();
}

Bindings<net::TrafficConfig> traffic_bindings() {
  using C = net::TrafficConfig;
  using Kind = net::SizeDistribution::Kind;
  // A size's kind says which key its bytes came from.
  const auto size_key = [](std::string_view field, const std::string& at,
                           const json* value) -> std::optional<std::string> {
    // (a list of sizes is size_file's)
    if (!names_field(field, {"size"}) || names_field(field, {"size.list"})) return std::nullopt;
    const bool lognormal = value != nullptr && value->is_object() && value->value("kind", "") == "lognormal";
    if (field == "size.bytes") return pointer_append(at, lognormal ? "median" : "value");
    if (field == "size.sigma") return pointer_append(at, "sigma");
    return at;
  };
  Bindings<C> traffic(optional_section(
      object_field("traffic",
                   "Flows on the fabric, for fabric-only studies: a pattern over all hosts, random pairs, or "
                   "the replay of a flow trace. Needs /fabric.",
                   {}),
      "(absent: no fabric traffic)"));
  traffic
      // The pattern decides which hosts take part; `replay` reads `file` instead (map_traffic).
      .bind_enum(required(enum_field("pattern",
                                     "`permutation` (a random derangement), `all_to_all`, `incast`, `ring` "
                                     "(host i to i+1), `random_pairs`, or `replay` of `file`.",
                                     "traffic pattern",
                                     {"permutation", "all_to_all", "incast", "ring", "random_pairs", "replay"})),
                 &C::pattern, "hosts",
                 {{"permutation", net::TrafficPattern::kPermutation},
                  {"all_to_all", net::TrafficPattern::kAllToAll},
                  {"incast", net::TrafficPattern::kIncast},
                  {"ring", net::TrafficPattern::kRing},
                  {"random_pairs", net::TrafficPattern::kRandomPairs}})
      // Not given: the scenario seed (map_traffic).
      .bind(with_default_note(wide_integer(integer_field("seed", "Seed of the pattern's draws.", at_least(0))),
                              "the scenario seed"),
            &C::seed, "seed")
      .bind(with_default(quantity_field("start",
                                        "When the pattern's flows start (random pairs: the "
                                        "first arrival).",
                                        QuantityKind::kDuration, at_least(0)),
                         "0 s"),
            &C::start, "start")
      .bind(with_default_note(distribution_field("size",
                                                 "Flow size: kind `fixed` or `lognormal` (median, "
                                                 "sigma). Not with `size_file` or `replay`.",
                                                 QuantityKind::kDataSize, at_least(0)),
                              "required unless size_file is given or pattern is replay"),
            size_key,
            [](C& c, const json& v) {
              if (v.at("kind") == "fixed") {
                c.size.kind = Kind::kFixed;
                c.size.bytes = v.at("value").get<double>();
              } else if (v.at("kind") == "lognormal") {
                c.size.kind = Kind::kLognormal;
                c.size.bytes = v.at("median").get<double>();
                c.size.sigma = v.at("sigma").get<double>();
              }  // another kind: map_traffic says which it takes
            })
      // Read from the file by map_traffic.
      .key(string_field("size_file",
                        "CSV of flow sizes in bytes (one per line, header `bytes` optional), drawn "
                        "uniformly; relative to the scenario's folder."),
           at_key_for({"size.list"}))
      .bind(integer_field("incast_senders",
                          "Senders of an incast (the lowest host ids "
                          "other than the target).",
                          at_least(1)),
            &C::incast_senders, "incast_senders")
      .bind(integer_field("incast_target", "Receiving host of an incast.", at_least(0)), &C::incast_target,
            "incast_target")
      .bind(wide_integer(integer_field("flows", "Flows of `random_pairs`.", at_least(0))), &C::flows, "flows")
      .bind(number_field("arrival_rate_per_s",
                         "Poisson arrival rate of `random_pairs` flows (per second); 0 "
                         "starts them all at `start`.",
                         at_least(0)),
            &C::arrival_rate_per_s, "arrival_rate_per_s")
      .key(string_field("file",
                        "Flow trace for `replay`: CSV with header `src,dst,bytes,start_s` (hosts as "
                        "`h12` or `12`, bytes >= 0, start in seconds); relative to the scenario's "
                        "folder."));
  return traffic;
}

FieldSpec traffic_section() { return traffic_bindings().spec(); }

}  // namespace dcsim::tools::scenario
