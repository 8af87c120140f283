// /workload/training and the node hardware keys: mapping to model configs and error pointers.
#include <catch2/catch.hpp>

#include "models/workload/training_job.hpp"
#include <string>
#include <variant>

#include "scenario_test_support.hpp"
#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/cluster_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/training_spec.hpp"

using namespace dcsim::tools::scenario;
using nlohmann::json;
namespace mw = dcsim::models::workload;

namespace {
// The message of the InputError loading `doc` throws ("" and a failure when it loads).
std::string load_error(const json& doc, const dcsim::models::ModelRegistries& registries) {
  try {
    (void)load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  } catch (const dcsim::sim::InputError& e) {
    return e.what();
  }
  FAIL("expected an InputError");
  return "";
}
}  // namespace

TEST_CASE("training jobs and node hardware overrides map to the model configs", "[tools][scenario][training]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  const json doc = json::parse(R"({
    "name": "t",
    "cluster": { "node": { "preset": "hgx-h100", "compute_nics": 2, "nvme_write_bandwidth": "8 GB/s",
                           "gpu_hbm": "141 GB" }, "nodes": 4 },
    "workload": { "training": [ {
      "name": "llama", "model": "llama3-8b", "nodes": 4, "shape": { "layers": 16, "dropout": true },
      "sequence_length": 4096, "parallelism": { "tp": 2, "pp": 2, "zero_stage": 1 },
      "micro_batch_size": 2, "global_batch": 64, "precision": "fp8", "recompute": "full",
      "steps": 10, "arrival": "1 min",
      "checkpoint": { "interval": 5, "target": "remote", "remote_bandwidth": "100 Gbps" } } ] }
  })");
  const Scenario s = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  const auto& node = s.cluster.node;
  CHECK(node.compute_nics == 2);
  CHECK(node.nvme_write_bandwidth_bytes_per_s == Approx(8e9));
  CHECK(node.gpu.hbm_bytes == Approx(141e9));
  CHECK(node.compute_nic_bandwidth_bps == Approx(400e9));  // from the preset
  CHECK(s.resolved["cluster"]["node"]["nvlink_bandwidth"].get<double>() == Approx(450e9 * 8));
  REQUIRE(s.cluster.training_jobs.size() == 1);
  const mw::TrainingJobSpec& t = s.cluster.training_jobs[0];
  CHECK(t.job.name == "llama");
  CHECK(t.job.model.layers == 16);
  CHECK(t.job.model.hidden == 4096);  // the preset's
  CHECK(t.job.model.dropout);         // set: Llama's preset has none
  CHECK(t.job.model.seq_len == 4096);
  CHECK(t.job.nodes == 4);
  CHECK(t.job.parallelism.tp == 2);
  CHECK(t.job.parallelism.pp == 2);
  CHECK(t.job.parallelism.dp == 0);  // derived: 32 / (2 x 2)
  CHECK(t.job.parallelism.zero_stage == 1);
  CHECK(t.job.micro_batch_size == 2);
  CHECK(t.job.global_batch_sequences == 64);
  CHECK(t.job.precision == dcsim::models::compute::Precision::kFp8);
  CHECK(t.job.recompute == mw::Recompute::kFull);
  CHECK(t.steps == 10);
  CHECK(t.arrival == dcsim::sim::Time::from_seconds(60));
  CHECK(t.checkpoint.interval_steps == 5);
  CHECK(t.checkpoint.target == mw::CheckpointTarget::kRemote);
  CHECK(t.checkpoint.remote_bandwidth_bps == Approx(100e9));
  CHECK(t.fabric.nics_per_node == 2);
  CHECK(t.graph.max_dp_chunks == 8);  // the default
}

TEST_CASE("max_dp_chunks maps to the step graph and must be positive", "[tools][scenario][training]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 2},
    "workload": {"training": [{"name": "b", "model": "bert-large", "nodes": 2, "max_dp_chunks": 3}]}})");
  CHECK(load_scenario_json(doc, "t.json", {}, std::nullopt, registries).cluster.training_jobs[0].graph.max_dp_chunks == 3);
  doc["workload"]["training"][0]["max_dp_chunks"] = 0;
  CHECK_THROWS_WITH(load_scenario_json(doc, "t.json", {}, std::nullopt, registries),
                    Catch::Contains("/workload/training/0/max_dp_chunks"));
}

TEST_CASE("a checkpoint store host must be a host of its network that is not a cluster node",
          "[tools][scenario][training]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 2},
    "workload": {"training": [{"name": "b", "model": "bert-large", "nodes": 2, "steps": 2,
      "checkpoint": {"interval": 1, "target": "remote", "network": "backend", "store_host": 2}}]}})");
  dcsim::sim::MemoryTraceSink sink;
  const Scenario no_fabric = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  CHECK(no_fabric.cluster.training_jobs[0].checkpoint.store_host == 2);
  CHECK_THROWS_WITH(dcsim::tools::run::simulate(no_fabric, registries, sink, {}),
                    "t.json:/workload/training/0/checkpoint/store_host: is a host of the backend network (checkpoint "
                    "network `backend`), which needs the scenario's /fabric section, got 2");
  doc["fabric"] = json::parse(R"({"topology": "leaf_spine", "leaves": 1, "hosts_per_leaf": 3})");
  doc["workload"]["training"][0]["checkpoint"]["store_host"] = 1;
  const Scenario on_node = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  dcsim::sim::MemoryTraceSink sink2;
  CHECK_THROWS_WITH(dcsim::tools::run::simulate(on_node, registries, sink2, {}),
                    "t.json:/workload/training/0/checkpoint/store_host: must be a host of /fabric that is not a "
                    "cluster node (2 to 2), got 1");
  doc["fabric"]["hosts_per_leaf"] = 2;
  const Scenario no_spare = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  dcsim::sim::MemoryTraceSink sink3;
  CHECK_THROWS_WITH(dcsim::tools::run::simulate(no_spare, registries, sink3, {}),
                    Catch::Contains("(none: all 2 hosts of /fabric are cluster nodes; give it more hosts)"));
  // The front-end network (the default): its hosts, not the backend's.
  doc["workload"]["training"][0]["checkpoint"].erase("network");
  doc["workload"]["training"][0]["checkpoint"]["store_host"] = 2;
  dcsim::sim::MemoryTraceSink sink4;
  CHECK_THROWS_WITH(dcsim::tools::run::simulate(load_scenario_json(doc, "t.json", {}, std::nullopt, registries),
                                                registries, sink4, {}),
                    Catch::Contains("t.json:/workload/training/0/checkpoint/store_host: is a host of the front-end "
                                    "network (checkpoint network `frontend`, the default), which needs the "
                                    "scenario's /frontend section"));
  doc["frontend"] = json::parse(R"({"topology": "leaf_spine", "leaves": 1, "hosts_per_leaf": 3})");
  const Scenario on_frontend = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  // The front-end's NICs are the node's storage NICs unless the section says otherwise.
  CHECK(on_frontend.frontend->topology_config.nics_per_node == on_frontend.cluster.node.storage_nics);
  CHECK(on_frontend.frontend->topology_config.nic_bandwidth_bps == on_frontend.cluster.node.storage_nic_bandwidth_bps);
  CHECK(on_frontend.resolved["frontend"]["nics_per_node"] == on_frontend.cluster.node.storage_nics);
  dcsim::sim::MemoryTraceSink sink5;
  CHECK_NOTHROW(dcsim::tools::run::simulate(on_frontend, registries, sink5, {}));
}

namespace {
double job_cell(const dcsim::sim::MemoryTraceSink& sink, const std::string& job, const std::string& column) {
  const auto& table = sink.table("summary/jobs");
  std::size_t name = 0, col = 0;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == "name") name = i;
    if (table.columns[i].name == column) col = i;
  }
  for (const auto& row : table.rows) {
    if (std::get<std::string>(row[name]) == job) return std::get<double>(row[col]);
  }
  FAIL("no job " << job);
  return 0.0;
}
}  // namespace

TEST_CASE("scenarios/two-jobs-shared-fabric.json: jobs sharing oversubscribed uplinks each step slower than alone",
          "[tools][scenario][training][golden]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  const std::string file = (dcsim::tools::scenario::testing::source_dir() / "scenarios/two-jobs-shared-fabric.json").string();
  const auto run = [&](const std::vector<std::string>& overrides) {
    const Scenario s = load_scenario_file(file, overrides, std::nullopt, registries);
    dcsim::sim::MemoryTraceSink sink;
    dcsim::tools::run::simulate(s, registries, sink, {});
    return sink;
  };
  const auto shared = run({});
  const double alone = job_cell(shared, "alone", "step_time_s");
  const double a = job_cell(shared, "a", "step_time_s");
  const double b = job_cell(shared, "b", "step_time_s");
  INFO("alone " << alone << " s, a " << a << " s, b " << b << " s");
  // Together the two jobs' all-reduces (double binary trees over 3 nodes) share leaf 1's
  // uplinks: each gets half of them and outlasts the backward pass (measured: 24.9 ms alone,
  // 30.0 ms together).
  CHECK(a > 1.15 * alone);
  CHECK(b > 1.15 * alone);
  CHECK(job_cell(shared, "a", "exposed_comm_s") > job_cell(shared, "alone", "exposed_comm_s"));
  CHECK(job_cell(shared, "a", "compute_s") == Approx(job_cell(shared, "alone", "compute_s")));
  // Without oversubscription the uplinks carry both jobs' trees at line rate: no interference.
  const auto open = run({"fabric.oversubscription=1"});
  CHECK(job_cell(open, "a", "step_time_s") == Approx(job_cell(open, "alone", "step_time_s")).epsilon(0.01));
  CHECK(job_cell(open, "alone", "step_time_s") < alone);
}

TEST_CASE("training model errors point at the scenario keys", "[tools][scenario][training]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  {
    // The bindings' keys, where the step model's names differ from the keys.
    const json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 4},
      "workload": {"training": [{"name": "a", "model": "bert-large", "micro_batch_size": 4},
                                {"name": "b", "model": "bert-large", "micro_batch_size": 4, "global_batch": 64,
                                 "shape": {"layers": 12}}]}})");
    const auto s = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
    const auto at = [&](const char* field) { return cluster_pointer(field, registries, s.resolved).value_or(""); };
    CHECK(at("training[1].parallelism.tp") == "/workload/training/1/parallelism/tp");
    CHECK(at("training[1].global_batch_sequences") == "/workload/training/1/global_batch");
    CHECK(at("training[1].model.layers") == "/workload/training/1/shape/layers");
    // Not given (the preset's figure): still the key to set.
    CHECK(at("training[1].model.heads") == "/workload/training/1/shape/heads");
    CHECK(at("training[0].model.seq_len") == "/workload/training/0/sequence_length");
    CHECK(at("training[0].checkpoint.interval_steps") == "/workload/training/0/checkpoint/interval");
    // The hardware a job's plan checks is the cluster's node.
    CHECK(at("training[0].fabric.nics_per_node") == "/cluster/node/compute_nics");
    CHECK(at("training[1].model") == "/workload/training/1/shape");
    CHECK(at("training[0].dataset") == "/workload/training/0/dataset");
    CHECK(at("training[2].nodes") == "/workload/training");  // no such job: the list
  }

  const json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 1},
    "workload": {"training": [{"name": "b", "model": "bert-large", "micro_batch_size": 4, "global_batch": 36}]}})");
  CHECK_THROWS_WITH(load_scenario_json(doc, "t.json", {}, std::nullopt, registries),
                    "t.json:/workload/training/0/global_batch: 36 is not a multiple of "
                    "micro_batch_size x dp = 32");
}

// Issue 37 item 2: "parallelism": {"auto": true}. The search runs where the scenario is mapped
// (validate and run see the same plan), keeps the keys the scenario gives, and writes the plan
// into the resolved scenario, so a run of the resolved scenario evaluates that one plan again.
TEST_CASE("an automatic plan keeps the pinned keys and lands in the resolved scenario",
          "[tools][scenario][training][plan]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  const json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 4},
    "workload": {"training": [{"name": "llama", "model": "llama3-8b", "nodes": 4, "global_batch": 64,
                               "parallelism": {"auto": true, "tp": 2}, "recompute": "full"}]}})");
  const Scenario s = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  REQUIRE(s.plan_searches.size() == 1);
  const mw::TrainingJobSpec& t = s.cluster.training_jobs[0];
  CHECK(t.job.parallelism.tp == 2);
  CHECK(t.job.recompute == mw::Recompute::kFull);
  const auto& o = s.plan_searches[0].second;
  CHECK(o.evaluated > 1);
  CHECK(o.enumerated == o.pruned + o.evaluated);
  const json& r = s.resolved["workload"]["training"][0];
  CHECK(r["parallelism"]["auto"] == true);
  CHECK(r["parallelism"]["tp"] == 2);
  CHECK(r["parallelism"]["pp"] == t.job.parallelism.pp);
  CHECK(r["parallelism"]["dp"] == 32 / (2 * t.job.parallelism.pp * t.job.parallelism.cp));
  CHECK(r["micro_batch_size"] == t.job.micro_batch_size);
  CHECK(r["recompute"] == "full");

  // The recorded keys given again: every one pinned, the one plan evaluated.
  json again = doc;
  again["workload"]["training"][0]["parallelism"] = r["parallelism"];
  again["workload"]["training"][0]["micro_batch_size"] = r["micro_batch_size"];
  const Scenario s2 = load_scenario_json(again, "t.json", {}, std::nullopt, registries);
  REQUIRE(s2.plan_searches.size() == 1);
  CHECK(s2.plan_searches[0].second.evaluated == 1);
  CHECK(s2.plan_searches[0].second.plan == o.plan);
}

TEST_CASE("a plain parallelism object is not searched and its resolved form has no auto key",
          "[tools][scenario][training][plan]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  const json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 4},
    "workload": {"training": [{"name": "llama", "model": "llama3-8b", "nodes": 4, "global_batch": 64,
                               "parallelism": {"tp": 4, "zero_stage": 1}}]}})");
  const Scenario s = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  CHECK(s.plan_searches.empty());
  CHECK_FALSE(s.resolved["workload"]["training"][0]["parallelism"].contains("auto"));
  CHECK(s.cluster.training_jobs[0].job.parallelism.pp == 1);
}

TEST_CASE("an automatic plan that nothing fits exits with the pointer and the memory it needs",
          "[tools][scenario][training][plan]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  const json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 1},
    "workload": {"training": [{"name": "big", "model": "llama3-405b", "nodes": 1, "global_batch": 64,
                               "parallelism": {"auto": true}}]}})");
  const std::string m = load_error(doc, registries);
  INFO(m);
  CHECK(m.rfind("t.json:/workload/training/0/parallelism: no plan fits: 8 GPUs (1 x 8)", 0) == 0);
  CHECK(m.find("the least memory any plan needs is") != std::string::npos);
  CHECK(m.find("usable; more nodes") != std::string::npos);
  json no_batch = doc;
  no_batch["workload"]["training"][0].erase("global_batch");
  no_batch["workload"]["training"][0]["model"] = "llama3-8b";
  CHECK_THROWS_WITH(load_scenario_json(no_batch, "t.json", {}, std::nullopt, registries),
                    Catch::StartsWith("t.json:/workload/training/0/global_batch: an automatic plan is chosen at a "
                                      "fixed batch"));
}

// Issue 41 item 3: MoE jobs' bad input exits 2 at the key, with the value and what was expected.
TEST_CASE("MoE training errors point at the scenario keys with the numbers", "[tools][scenario][training][moe]") {
  const auto registries = dcsim::tools::scenario::testing::make_registries();
  const auto fails_with = [&](const char* job, const std::string& start) {
    const json doc =
        json::parse(std::string(R"({"name": "t", "cluster": {"nodes": 8}, "workload": {"training": [)") + job + "]}}");
    CHECK_THROWS_WITH(load_scenario_json(doc, "t.json", {}, std::nullopt, registries), Catch::StartsWith(start));
  };
  fails_with(R"({"name": "m", "model": "mixtral-8x7b", "nodes": 8, "parallelism": {"pp": 4, "ep": 16}})",
             "t.json:/workload/training/0/parallelism/ep: expert parallelism 16 must divide the 8 experts of "
             "mixtral-8x7b");
  fails_with(R"({"name": "m", "model": "mixtral-8x7b", "nodes": 8, "parallelism": {"tp": 8, "pp": 4, "ep": 32},
                 "shape": {"experts": 64}})",
             "t.json:/workload/training/0/parallelism/ep: expert parallelism 32 must divide tp x cp x dp = 16");
  fails_with(R"({"name": "m", "model": "mixtral-8x7b", "shape": {"experts_per_token": 9}})",
             "t.json:/workload/training/0/shape/experts_per_token: 9 experts per token with 8 experts");
  fails_with(R"({"name": "m", "model": "mixtral-8x7b", "shape": {"capacity_factor": 0.5}})",
             "t.json:/workload/training/0/shape/capacity_factor: 0.500000 would drop tokens");
  fails_with(R"({"name": "m", "model": "llama3-8b", "parallelism": {"ep": 2}})",
             "t.json:/workload/training/0/parallelism/ep: llama3-8b is dense");
  // Mixtral's 8 x 176M experts in each of 32 layers on every GPU of one stage do not fit.
  const json doc = json::parse(R"({"name": "t", "cluster": {"nodes": 1},
    "workload": {"training": [{"name": "m", "model": "mixtral-8x7b"}]}})");
  const std::string m = load_error(doc, registries);
  INFO(m);
  CHECK(m.rfind("t.json:/workload/training/0/parallelism: mixtral-8x7b with tp 1", 0) == 0);
  CHECK(m.find("8 of the 8 routed experts of every MoE layer per GPU with ep 1") != std::string::npos);
  CHECK(m.find("raise ep") != std::string::npos);
}
