// A fat-tree sized to the cluster (fat_tree.hpp) through the whole stack: `nodes` defaults to the
// cluster's, the built fabric is the smallest non-blocking one of the switch preset's radix, it
// trains no slower than an oversubscribed leaf-spine, and economics prices what was built.

#include <catch2/catch.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "tests/table_test_support.hpp"
#include "tests/tools/run/run_test_support.hpp"
#include "tools/scenario/fabric_mapping.hpp"

namespace {

// 128 HGX H100 nodes (8 x 400G NICs) on NVIDIA QM9700s (64 x 400G): a fat-tree of k = 64.
nlohmann::json hgx_128() {
  return nlohmann::json::parse(R"({
    "name": "128 HGX nodes on a fat-tree of 64-port switches", "duration": "1 h",
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 128, "nodes_per_rack": 4 },
    "fabric": { "topology": "fat_tree", "nics_per_node": 8, "link_bandwidth_bps": "400 Gbps",
                "switch": "nvidia_qm9700" } })");
}

nlohmann::json with_training(nlohmann::json doc) {
  doc["workload"] = nlohmann::json::parse(R"({ "training": [ { "name": "llama3-8b", "model": "llama3-8b",
    "nodes": 128, "parallelism": { "tp": 8 }, "micro_batch_size": 1, "global_batch": 1024, "steps": 2 } ] })");
  return doc;
}

// Every price zero but a switch's: the network's capex is switches x that price (+ spares).
nlohmann::json with_economics(nlohmann::json doc, double switch_usd) {
  doc["economics"] = nlohmann::json::parse(R"({
    "node_price": "hgx-h100", "site_prices": "us", "electricity": "0.10 USD/kWh", "spares_fraction": 0.05,
    "depreciation": { "method": "straight_line", "years": 5 },
    "fabric_prices_params": { "dac_400g_usd": 0, "aoc_400g_usd": 0, "transceiver_400g_usd": 0,
                              "nic_port_400g_usd": 0, "fibre_usd_per_m": 0 },
    "cloud": [ { "offer": "aws-p5-on-demand" } ] })");
  doc["economics"]["fabric_prices_params"]["switch_400g_64_port_usd"] = switch_usd;
  return doc;
}

std::map<int, int> switches_per_tier(const dcsim::models::network::Topology& t) {
  std::map<int, int> out;
  for (auto n = static_cast<dcsim::models::network::NodeId>(t.host_count()); n < t.node_count(); ++n)
    ++out[t.node(n).tier];
  return out;
}

}  // namespace

TEST_CASE("a 128-node HGX cluster with a 64-port switch preset gets a fat-tree of 48 switches",
          "[network][fat_tree]") {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const auto scenario = dcsim::tools::scenario::load_scenario_json(hgx_128(), "<test>", {}, {}, registries);
  REQUIRE(scenario.fabric);
  const auto topology = dcsim::tools::scenario::build_topology(*scenario.fabric, registries, "<test>");
  // By hand (fat_tree.hpp): 32 edges of 4 nodes x 8 NICs, their 1,024 uplinks on 16 spines of
  // 64 ports; before, k = 64 took the full three-tier tree: 8,192 hosts and 5,120 switches.
  CHECK(topology.host_count() == 128);
  CHECK(switches_per_tier(topology) == std::map<int, int>{{1, 32}, {2, 16}});
  const auto& fabric = scenario.resolved.at("fabric");
  CHECK(fabric.at("nodes") == 128);
  CHECK(fabric.at("tiers") == 2);
  CHECK(fabric.at("k") == 64);
  // The size comes from the cluster: a size the switches cannot build points there.
  CHECK_THAT(dcsim::test::input_error_of(hgx_128(), {"cluster.nodes=9000"}),
             Catch::Contains("/cluster/nodes: 9000 nodes need 71 pods"));
}

TEST_CASE("the sized fat-tree trains no slower than a 2:1 leaf-spine of the same switches", "[network][fat_tree]") {
  const auto fat_tree = dcsim::test::run_scenario_json(with_training(hgx_128()));
  const auto leaf_spine = dcsim::test::run_scenario_json(
      with_training(hgx_128()), {"fabric.topology=leaf_spine", "fabric.leaves=32", "fabric.hosts_per_leaf=4",
                                 "fabric.oversubscription=2"});
  const auto step = [](const dcsim::test::RunOutputs& r) {
    return std::get<double>(dcsim::tests::row_cell(r.sink, "jobs", "llama3-8b", "step_time_s"));
  };
  CHECK(step(*fat_tree) <= step(*leaf_spine));
  CHECK(fat_tree->number("network/switches") == 48);
  CHECK(leaf_spine->number("network/switches") == 40);
}

TEST_CASE("economics prices the fat-tree that was built", "[network][fat_tree]") {
  // A switch price 1,000 USD higher raises the capex by the built switches x 1,000 x 1.05
  // (spares): 48 switches sized to the cluster; 96 for the full two-tier k = 64 tree, which has
  // 256 hosts for the 128 nodes.
  const auto capex = [](double switch_usd, const std::vector<std::string>& sets) {
    return dcsim::test::run_scenario_json(with_economics(hgx_128(), switch_usd), sets)->number("cost/capex_usd");
  };
  CHECK(capex(2000, {}) - capex(1000, {}) == Approx(48 * 1000 * 1.05));
  const std::vector<std::string> full = {"fabric.nodes=0", "fabric.tiers=2"};
  CHECK(capex(2000, full) - capex(1000, full) == Approx(96 * 1000 * 1.05));
  CHECK(dcsim::test::run_scenario_json(with_economics(hgx_128(), 1000), full)->number("network/hosts") == 256);
}

TEST_CASE("switch \"none\", its documented default, is accepted", "[network][fat_tree]") {
  nlohmann::json doc = hgx_128();
  doc["fabric"]["switch"] = "none";
  doc["fabric"]["k"] = 64;
  CHECK(dcsim::test::input_error_of(doc) == "no error");
}
