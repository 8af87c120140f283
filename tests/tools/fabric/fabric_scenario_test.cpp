// The scenario format's fabric and traffic sections: mapping to the network configs, the errors
// the issue names (with their exact messages), and the CSV readers' file:line errors.

#include <catch2/catch.hpp>

#include "fabric_test_support.hpp"
#include "sim/error.hpp"

using namespace dcsim::tools;
using namespace dcsim::tools::fabric_testing;
namespace net = dcsim::models::network;

TEST_CASE("fabric and traffic sections map onto the network configs", "[tools][fabric][scenario]") {
  const auto s = load(R"({
    "name": "m", "seed": 11,
    "fabric": { "topology": "fat_tree", "k": 4, "tiers": 2, "nics_per_node": 2,
                "link_bandwidth_bps": "400 Gbps", "nic_bandwidth_bps": "200 Gbps",
                "host_cable_m": "3 m", "switch_latency": "0.5 us",
                "routing": { "mode": "spray", "qps_per_connection": 4 },
                "roce": { "pfc": true, "mtu": "1 KiB" },
                "faults": [ { "at": "2 ms", "kind": "link", "link": 3, "state": "up" },
                            { "at": "1 ms", "kind": "switch", "switch": "s2.5" },
                            { "at": "1 ms", "kind": "nic_port", "host": 1, "port": 1 } ] },
    "traffic": { "pattern": "permutation", "size": { "kind": "lognormal", "median": "1 MB", "sigma": 0.5 } }
  })");
  CHECK_FALSE(s.has_cluster);
  REQUIRE(s.fabric);
  const auto& f = *s.fabric;
  CHECK(f.topology == "fat_tree");
  CHECK(f.topology_config.k == 4);
  CHECK(f.topology_config.tiers == 2);
  CHECK(f.topology_config.nics_per_node == 2);
  CHECK(f.topology_config.link_bandwidth_bps == 400e9);
  CHECK(f.topology_config.nic_bandwidth_bps == 200e9);
  CHECK(f.topology_config.host_cable_m == 3.0);
  CHECK(f.topology_config.switch_latency_ns == 500);
  CHECK(f.options.routing.mode == net::RoutingMode::kSpray);
  CHECK(f.options.routing.qps_per_flow == 4);
  CHECK(f.options.routing.seed == 11);  // hash seed defaults to the scenario seed
  CHECK(f.options.roce.enabled);        // PFC switches RoCE on
  CHECK(f.options.roce.pfc);
  CHECK(f.options.roce.mtu_bytes == 1024);
  CHECK(f.options.record_routes);
  // Faults come sorted by time (stable for equal times); the switch name is resolved to its node:
  // k=4, 2 tiers, 2 NICs per host: 4 leaves x 1 host each... see the builder: hosts first.
  REQUIRE(f.faults.size() == 3);
  CHECK(f.faults[0].kind == scenario::FabricFault::Kind::kSwitch);
  CHECK(f.faults[1].kind == scenario::FabricFault::Kind::kNicPort);
  CHECK(f.faults[1].port == 1);
  CHECK(f.faults[2].kind == scenario::FabricFault::Kind::kLink);
  CHECK(f.faults[2].up);
  // Written in the format before /faults: the entries moved there, and the loader says so.
  REQUIRE(s.notices.size() == 1);
  CHECK(s.notices[0] == "s.json: /fabric/faults is the format before /faults: its 3 entries are /faults/0 to "
                        "/faults/2 now (move them there to silence this)");
  REQUIRE(s.traffic);
  CHECK_FALSE(s.traffic->replay);
  CHECK(s.traffic->config.size.kind == net::SizeDistribution::Kind::kLognormal);
  CHECK(s.traffic->config.size.bytes == 1e6);
  CHECK(s.traffic->config.seed == 11);
  // A permutation: one flow per host.
  const auto hosts = static_cast<std::size_t>(4 * 2 / 2);  // k leaves x (k/2 ports / 2 NICs)
  CHECK(s.traffic->records.size() == hosts);
}

TEST_CASE("a fabric scenario resolves without a cluster, and the resolved document omits absent sections",
          "[tools][fabric][scenario]") {
  const auto s = load(R"({"name": "t", "fabric": {"topology": "torus", "dims": [4, 4]}})");
  CHECK_FALSE(s.resolved.contains("cluster"));
  CHECK_FALSE(s.resolved.contains("traffic"));
  CHECK(s.resolved["fabric"]["roce"]["mtu"] == 4096.0);
  CHECK(s.resolved["fabric"]["routing"]["mode"] == "ecmp");
  // The torus's own parameters are filled from the builder's defaults, in SI units; a fat-tree's
  // k is not one of them.
  CHECK(s.resolved["fabric"]["links_per_node"] == 1);
  CHECK(s.resolved["fabric"]["link_bandwidth_bps"] == 100e9);
  CHECK_FALSE(s.resolved["fabric"].contains("switch_latency"));  // a torus has no switches
  // A duration resolves in seconds, so its key carries no unit: the former `switch_latency_ns`
  // (which resolved to seconds despite its name) is an unknown key now, not silently ignored.
  CHECK(load_errors(R"({"name": "t", "fabric": {"topology": "torus", "switch_latency_ns": "1 ns"}})")
            .find("/fabric/switch_latency_ns: unknown key") != std::string::npos);
  CHECK_FALSE(s.resolved["fabric"].contains("k"));
  // The quickstart's shape is untouched: no fabric appears in a cluster scenario.
  const auto q = load(R"({"name": "c", "cluster": {"nodes": 2}})");
  CHECK(q.has_cluster);
  CHECK_FALSE(q.resolved.contains("fabric"));
  CHECK_FALSE(q.fabric);
}

TEST_CASE("an override switches the topology of a scenario that states both topologies' keys",
          "[tools][fabric][scenario]") {
  const std::string text = R"({"name": "x", "fabric": {"topology": "fat_tree", "k": 4, "dims": [4, 4]},
                               "traffic": {"pattern": "ring", "size": {"kind": "fixed", "value": "1 MB"}}})";
  CHECK(load(text).traffic->records.size() == 16);
  const auto torus = load(text, "s.json", {"fabric.topology=torus"});
  CHECK(torus.fabric->topology == "torus");
  CHECK(torus.traffic->records.size() == 16);
}

TEST_CASE("the bad fabric inputs of issue 3 name their JSON pointer", "[tools][fabric][scenario][errors]") {
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "fat_tree", "k": 7}})") ==
        "s.json:/fabric/k: must be an even integer >= 2, got 7\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "fat_tree", "links_per_node": 0}})") ==
        "s.json:/fabric/links_per_node: expected a positive integer, got 0\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "leaf_spine", "oversubscription": 0.9}})") ==
        "s.json:/fabric/oversubscription: expected a number >= 1, got 0.9\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "fat_tree", "k": 4, "nics_per_node": 3}})") ==
        "s.json:/fabric/nics_per_node: 3 NICs x 1 links per node cannot be wired to the 2 host ports of a k=4 "
        "edge switch\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "hypercube"}})").find(
            "s.json:/fabric/topology: unknown topology 'hypercube'") == 0);
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "torus", "dims": [4]}})") ==
        "s.json:/fabric/dims: a torus needs 2 or 3 dimensions, got 1\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "ring", "nodes": 4},
                        "traffic": {"pattern": "permutation"}})") ==
        "s.json:/traffic/size: missing required key; expected a size distribution {\"kind\": \"fixed\", "
        "\"value\": \"1 MB\"} or a size_file\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "ring", "nodes": 4},
                        "traffic": {"pattern": "ring", "size": {"kind": "uniform", "low": "1 B", "high": "2 B"}}})") ==
        "s.json:/traffic/size/kind: expected a flow size kind, one of: fixed, lognormal, got \"uniform\"\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "ring", "nodes": 4},
                        "faults": [{"at": "1 s", "kind": "nic_port", "host": 1, "port": 2}]})") ==
        "s.json:/faults/0/port: expected a port below 2 (the ports of host 1), got 2\n");
  CHECK(load_errors(R"({"name": "x", "fabric": {"topology": "ring", "nodes": 4},
                        "workload": {"jobs": [{"name": "j", "work": "1 h"}]}})") ==
        "s.json:/workload/jobs: expected no jobs without a /cluster to run them, got 1\n");
}

TEST_CASE("flow traces replay from CSV; their errors name file and line", "[tools][fabric][scenario][csv]") {
  TempDir dir("csv");
  const auto scenario_with = [&](const std::string& csv) {
    dir.write("flows.csv", csv);
    return dir.write("s.json", R"({"name": "r", "fabric": {"topology": "fat_tree", "k": 4},
                                   "traffic": {"pattern": "replay", "file": "flows.csv"}})");
  };
  const auto errors_for = [&](const std::string& csv) {
    const std::string path = scenario_with(csv);
    try {
      scenario::load_scenario_file(path, {}, std::nullopt, registries());
    } catch (const dcsim::sim::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string file = (dir.path / "flows.csv").string();

  {
    const auto s = scenario::load_scenario_file(
        scenario_with("src,dst,bytes,start_s\n# a comment\nh0,h5,1000000,0\n3,h15,0,1.5e-3\n\n"), {}, std::nullopt,
        registries());
    REQUIRE(s.traffic->records.size() == 2);
    CHECK(s.traffic->replay);
    CHECK(s.traffic->records[0].dst == 5);
    CHECK(s.traffic->records[1].src == 3);
    CHECK(s.traffic->records[1].start.ns() == 1'500'000);
  }
  CHECK(errors_for("src,dst,bytes,start_s\nh0,h1,10,0\nh0,h99,10,0\n") ==
        file + ":3: unknown host 'h99' (the fabric has hosts h0 .. h15)");
  CHECK(errors_for("src,dst,bytes,start_s\nh0,h1,-5,0\n") == file + ":2: column bytes: expected a size >= 0, got -5");
  CHECK(errors_for("src,dst,bytes,start_s\nh0,h1,ten,0\n") ==
        file + ":2: column bytes: expected a number, got 'ten'");
  CHECK(errors_for("src,dst,bytes,start_s\nh0,h1,10\n") == file + ":2: expected 4 cells (src,dst,bytes,start_s), got 3");
  CHECK(errors_for("source,destination\n") ==
        file + ":1: expected the header src,dst,bytes,start_s, got 'source,destination'");
  CHECK(errors_for("src,dst,bytes,start_s\nx1,h1,10,0\n") == file + ":2: expected a host such as h3 or 3, got 'x1'");
  CHECK(errors_for("src,dst,bytes,start_s\nh1,h1,10,-1\n") ==
        file + ":2: column start_s: expected a time >= 0, got -1");
}

TEST_CASE("flow sizes from a CSV are drawn from its list", "[tools][fabric][scenario][csv]") {
  TempDir dir("sizes");
  dir.write("sizes.csv", "bytes\n1000\n2000\n");
  const std::string path = dir.write(
      "s.json", R"({"name": "r", "fabric": {"topology": "fat_tree", "k": 4},
                    "traffic": {"pattern": "random_pairs", "flows": 50, "size_file": "sizes.csv"}})");
  const auto s = scenario::load_scenario_file(path, {}, std::nullopt, registries());
  REQUIRE(s.traffic->records.size() == 50);
  for (const auto& r : s.traffic->records) CHECK((r.bytes == 1000 || r.bytes == 2000));

  dir.write("sizes.csv", "1000\n-3\n");
  CHECK_THROWS_WITH(scenario::load_scenario_file(path, {}, std::nullopt, registries()),
                    (dir.path / "sizes.csv").string() + ":2: expected a size >= 0, got -3");
}

TEST_CASE("every topology parameter the registry documents is a key of /fabric", "[tools][fabric][scenario]") {
  const auto spec = scenario::scenario_spec(registries());
  const auto* fabric = spec.child("fabric");
  REQUIRE(fabric != nullptr);
  for (const auto& entry : registries().topologies.entries()) {
    for (const auto& p : entry.params) {
      INFO(entry.name << "." << p.name);
      CHECK(fabric->child(p.name) != nullptr);
    }
  }
}
