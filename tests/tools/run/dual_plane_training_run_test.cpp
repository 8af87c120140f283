// Training in flow mode on a dual-plane fabric (network/planes.hpp: every NIC a 200G port on each
// of two planes, Alibaba HPN): the step graph's channels reach both planes, so the job trains as
// on one plane of 400G ports. With one channel per NIC every flow left on plane 0 at half rate
// (issue 41: the fabric comparison found the MoE step 40% slower on dual-plane for that reason).

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "tests/table_test_support.hpp"
#include "tests/tools/run/run_test_support.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace {

// BERT-Large data parallel on 4 HGX nodes (8 x 400G NICs), 2 per leaf of a leaf-spine: the
// gradient ring crosses the spines, bandwidth-bound at micro-batch 8.
nlohmann::json bert_4_nodes() {
  return nlohmann::json::parse(R"({
    "name": "BERT-Large on 4 nodes, one or two planes",
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 4, "nodes_per_rack": 2 },
    "fabric": { "topology": "leaf_spine", "leaves": 2, "hosts_per_leaf": 2, "nics_per_node": 8,
                "link_bandwidth_bps": "400 Gbps", "routing": { "mode": "ecmp" } },
    "workload": { "training": [ { "name": "bert", "model": "bert-large", "nodes": 4,
                                  "micro_batch_size": 8, "steps": 3 } ] } })");
}

double step_s(const dcsim::test::RunOutputs& r) {
  return std::get<double>(dcsim::tests::row_cell(r.sink, "jobs", "bert", "step_time_s"));
}

}  // namespace

TEST_CASE("on a dual-plane fabric training flows use both planes", "[network][planes][training][flow]") {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const std::vector<std::string> dual = {"fabric.planes=2", "fabric.nic_bandwidth_bps=200Gbps"};
  // 8 NICs x 2 planes: 16 channels per node pair, channel k on port k (plane k / 8).
  const auto scenario = dcsim::tools::scenario::load_scenario_json(bert_4_nodes(), "<test>", dual, {}, registries);
  REQUIRE(scenario.cluster.training_jobs.size() == 1);
  CHECK(scenario.cluster.training_jobs[0].graph.flows_per_node_pair == 16);
  const auto one = dcsim::tools::scenario::load_scenario_json(bert_4_nodes(), "<test>", {}, {}, registries);
  CHECK(one.cluster.training_jobs[0].graph.flows_per_node_pair == 0);  // one per NIC
  // Same NIC rate either way: the step agrees within ECMP's spread between the two builds.
  const auto single_plane = dcsim::test::run_scenario_json(bert_4_nodes());
  const auto dual_plane = dcsim::test::run_scenario_json(bert_4_nodes(), dual);
  INFO("one plane " << step_s(*single_plane) << " s, two planes " << step_s(*dual_plane) << " s");
  CHECK(step_s(*dual_plane) == Approx(step_s(*single_plane)).epsilon(0.05));
}
