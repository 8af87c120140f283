#include <catch2/catch.hpp>
#include <functional>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/cluster_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using namespace dcsim::tools::scenario::testing;
using nlohmann::json;
using sim::Distribution;
using sim::Time;

namespace {

constexpr double kTol = 1e-12;

Scenario load_fixture(const std::string& name, const std::vector<std::string>& sets = {},
                      std::optional<std::uint64_t> seed = std::nullopt) {
  const auto registries = make_registries();
  return load_scenario_file((source_dir() / "tests/data/scenarios" / name).string(), sets, seed,
                            registries);
}

std::vector<std::string> errors_of(const json& doc, const std::vector<std::string>& sets = {}) {
  const auto registries = make_registries();
  try {
    load_scenario_json(doc, "t.json", sets, std::nullopt, registries);
  } catch (const sim::InputErrors& e) {
    return e.messages();
  }
  return {};
}

json minimal() {
  return json::parse(R"({"name": "m", "cluster": {"nodes": 4},
                         "workload": {"jobs": [{"name": "a", "work": "1 h"}]}})");
}

}  // namespace

TEST_CASE("a scenario with every key maps to the config it states", "[tools][scenario]") {
  const Scenario s = load_fixture("full.json");
  CHECK(s.name == "full");
  CHECK(s.description == "Every key of the format, with values unlike the defaults.");
  CHECK(s.seed == 42);
  const auto& c = s.cluster;
  CHECK(c.seed == 42);
  CHECK(c.duration == Time::from_s(7 * 86400));
  CHECK(c.telemetry_interval == Time::from_s(10));
  CHECK(c.scheduler == "fifo");

  CHECK(c.node.preset == "hgx-h100");
  CHECK(c.node.gpus == 4);
  CHECK(c.node.gpu.idle_power_w == 90.0);
  CHECK(c.node.gpu.max_power_w == 650.0);  // "0.65 kW", read as 0.65e3: exact
  CHECK(c.node.other_idle_power_w == 1200.0);
  CHECK(c.node.other_max_power_w == 4600.0);
  CHECK(c.nodes == 16);
  CHECK(c.nodes_per_rack == 2);

  REQUIRE(c.jobs.size() == 2);
  CHECK(c.jobs[0].name == "pretrain");
  CHECK(c.jobs[0].arrival == Time::from_s(600));
  CHECK(c.jobs[0].nodes == 8);
  CHECK(c.jobs[0].work == Time::from_s(9000));  // "2 h 30 min"
  CHECK(c.jobs[0].gpu_utilization == 0.9);
  CHECK(c.jobs[1].name == "eval");
  CHECK(c.jobs[1].arrival == Time::zero());
  CHECK(c.jobs[1].nodes == 1);
  CHECK(c.jobs[1].work == Time::from_ns(1500));  // exact through seconds and back
  CHECK(c.jobs[1].gpu_utilization == 1.0);

  REQUIRE(c.generators.size() == 3);
  const auto& batch = c.generators[0];
  CHECK(batch.name == "batch");
  CHECK(batch.count == 100);
  CHECK(batch.start == Time::from_s(3600));
  CHECK(batch.interarrival_s.kind == Distribution::Kind::kExponential);
  CHECK(batch.interarrival_s.a == 300.0);
  CHECK(batch.work_s.kind == Distribution::Kind::kLognormal);
  CHECK(batch.work_s.a == 1800.0);
  CHECK(batch.work_s.b == 1.2);
  CHECK(batch.node_choices == std::vector<int>{1, 2, 4});
  CHECK(batch.gpu_utilization == 0.7);
  const auto& sweep = c.generators[1];
  CHECK(sweep.start == Time::zero());
  CHECK(sweep.interarrival_s.kind == Distribution::Kind::kFixed);
  CHECK(sweep.interarrival_s.a == 0.0);
  CHECK(sweep.work_s.kind == Distribution::Kind::kUniform);
  CHECK(sweep.work_s.a == 600.0);
  CHECK(sweep.work_s.b == 1200.0);
  CHECK(sweep.node_choices == std::vector<int>{1});
  CHECK(sweep.gpu_utilization == 1.0);
  const auto& lng = c.generators[2];
  CHECK(lng.interarrival_s.kind == Distribution::Kind::kWeibull);
  CHECK(lng.interarrival_s.a == 86400.0);
  CHECK(lng.interarrival_s.b == 0.7);
}

TEST_CASE("a minimal scenario gets every default", "[tools][scenario]") {
  const auto registries = make_registries();
  const Scenario s = load_fixture("minimal.json");
  const auto preset = registries.node_presets.get("hgx-h100").factory();
  const auto& c = s.cluster;
  CHECK(s.seed == 1);
  CHECK(s.description.empty());
  CHECK(c.duration == Time::max());  // no limit: run until every job has finished
  CHECK(c.telemetry_interval == Time::zero());
  CHECK(c.scheduler == "fifo");
  CHECK(c.nodes == 4);
  CHECK(c.nodes_per_rack == 4);
  CHECK(c.node.preset == "hgx-h100");
  CHECK(c.node.gpus == preset.gpus);
  CHECK(c.node.gpu.max_power_w == preset.gpu.max_power_w);
  CHECK(c.node.other_idle_power_w == preset.other_idle_power_w);
  CHECK(c.node.compute_nics == preset.compute_nics);  // not in the format: kept from the preset
  REQUIRE(c.jobs.size() == 1);
  CHECK(c.jobs[0].arrival == Time::zero());
  CHECK(c.jobs[0].nodes == 1);
  CHECK(c.jobs[0].work == Time::from_s(3600));
  CHECK(c.generators.empty());
}

TEST_CASE("the resolved document states the full scenario in SI numbers", "[tools][scenario]") {
  const auto registries = make_registries();
  const auto preset = registries.node_presets.get("hgx-h100").factory();
  const Scenario s = load_fixture("minimal.json");
  const json& r = s.resolved;
  CHECK(r["seed"] == 1);
  CHECK_FALSE(r.contains("duration"));
  CHECK_FALSE(r.contains("description"));
  CHECK(r["cluster"]["nodes_per_rack"] == 4);
  CHECK(r["cluster"]["node"]["preset"] == "hgx-h100");
  CHECK(r["cluster"]["node"]["gpus"] == preset.gpus);
  CHECK(r["cluster"]["node"]["gpu_max_power"].get<double>() == preset.gpu.max_power_w);
  CHECK(r["workload"]["jobs"][0]["work"].get<double>() == 3600.0);
  CHECK(r["workload"]["jobs"][0]["arrival"].get<double>() == 0.0);
  CHECK(r["workload"]["generators"] == json::array());
  CHECK(r["policies"]["scheduler"] == "fifo");
  CHECK(r["outputs"]["telemetry_interval"].get<double>() == 0.0);
  // "given" is the document as read: no defaults added.
  CHECK_FALSE(s.given.contains("seed"));
  CHECK(s.given["workload"]["jobs"][0]["work"] == "1 h");

  const Scenario f = load_fixture("full.json");
  CHECK(f.resolved["duration"].get<double>() == 604800.0);
  CHECK(f.resolved["workload"]["generators"][0]["work"] ==
        json::parse(R"({"kind": "lognormal", "median": 1800.0, "sigma": 1.2})"));
  CHECK(f.resolved["cluster"]["node"]["gpu_max_power"].get<double>() == 650.0);
}

TEST_CASE("the seed override replaces /seed", "[tools][scenario]") {
  const Scenario s = load_fixture("full.json", {}, 7);
  CHECK(s.seed == 7);
  CHECK(s.cluster.seed == 7);
  CHECK(s.given["seed"] == 7);
  // --seed wins over --set seed=..., which comes earlier in the pipeline.
  CHECK(load_fixture("full.json", {"seed=9"}, 11).seed == 11);
  CHECK(load_fixture("full.json", {"seed=9"}).seed == 9);
  // The largest seed survives: seeds are unsigned 64-bit.
  CHECK(load_fixture("minimal.json", {}, UINT64_MAX).seed == UINT64_MAX);
}

TEST_CASE("files that cannot be read are input errors naming the path", "[tools][scenario]") {
  const auto registries = make_registries();
  CHECK_THROWS_WITH(load_scenario_file("no/such/file.json", {}, std::nullopt, registries),
                    "no/such/file.json: cannot open scenario file");
  const std::string dir = (source_dir() / "tests/data").string();
  CHECK_THROWS_WITH(load_scenario_file(dir, {}, std::nullopt, registries),
                    dir + ": is a directory, not a file");
  CHECK_THROWS_AS(load_scenario_file(dir, {}, std::nullopt, registries), sim::InputError);
}

TEST_CASE("invalid JSON text reports line and column", "[tools][scenario]") {
  CHECK_THROWS_WITH(parse_json_text("{\n  \"a\": 1,\n  \"b\": }\n", "x.json"),
                    Catch::StartsWith("x.json:3:8: invalid JSON: syntax error"));
  CHECK_THROWS_WITH(parse_json_text("", "x.json"),
                    Catch::StartsWith("x.json:1:1: invalid JSON: syntax error"));
  CHECK_THROWS_AS(parse_json_text("[1,", "x.json"), sim::InputError);
}

TEST_CASE("all problems are reported at once, in document-walk order", "[tools][scenario]") {
  json doc = minimal();
  doc["cluster"]["nodes"] = -2;
  doc["cluster"]["nodez"] = 1;
  doc["policies"] = {{"scheduler", "lifo"}};
  doc["workload"]["jobs"][0]["work"] = "1 parsec";
  const auto registries = make_registries();
  const auto errors = errors_of(doc);
  REQUIRE(errors.size() == 4);
  CHECK(errors[0] == "t.json:/cluster/nodez: unknown key; did you mean 'nodes'? valid keys here: cloud_pool, "
                     "gpu_phase_power, node, nodes, nodes_per_rack");
  CHECK(errors[1] == "t.json:/cluster/nodes: expected a positive integer, got -2");
  CHECK(errors[2] ==
        "t.json:/workload/jobs/0/work: expected a positive duration such as \"10 s\" or \"1.5 h\", "
        "got \"1 parsec\"; units: ns, us, µs, μs, ms, s, sec, min, h, d, w");
  CHECK(errors[3] == "t.json:/policies/scheduler: unknown scheduler 'lifo'; did you mean 'fifo'? valid: " +
                         registries.schedulers.names_joined());
}

TEST_CASE("integers written as floats are accepted when integral", "[tools][scenario]") {
  json doc = minimal();
  doc["cluster"]["nodes"] = 4.0;  // JSON Schema's "integer" accepts it too
  CHECK(errors_of(doc).empty());
  doc["cluster"]["nodes"] = 4.5;
  CHECK(errors_of(doc) ==
        std::vector<std::string>{"t.json:/cluster/nodes: expected a positive integer, got 4.5"});
  doc["cluster"]["nodes"] = true;
  CHECK(errors_of(doc) ==
        std::vector<std::string>{"t.json:/cluster/nodes: expected a positive integer, got true"});
}

TEST_CASE("keys with '/' or '~' are escaped in pointers", "[tools][scenario]") {
  json doc = minimal();
  doc["cluster"]["a/b~c"] = 1;
  CHECK(errors_of(doc) ==
        std::vector<std::string>{
            "t.json:/cluster/a~1b~0c: unknown key; valid keys here: cloud_pool, gpu_phase_power, node, nodes, nodes_per_rack"});
}

TEST_CASE("a model's ConfigError points at the key that fed the field", "[tools][scenario]") {
  // The cluster model's names of fields whose keys differ (work_s <- work, nodes <- node_choices'
  // key, gpu.hbm_bytes <- gpu_hbm), found by the bindings that feed them.
  const Scenario s = load_fixture("full.json");
  const auto registries = make_registries();
  const auto at = [&](const char* field) { return cluster_pointer(field, registries, s.resolved).value_or(""); };
  CHECK(at("jobs[1].nodes") == "/workload/jobs/1/nodes");
  CHECK(at("jobs[0]") == "/workload/jobs/0");
  CHECK(at("generators[1].work_s") == "/workload/generators/1/work");
  CHECK(at("generators[2].nodes[0]") == "/workload/generators/2/nodes/0");
  CHECK(at("generators[0].interarrival_s") == "/workload/generators/0/interarrival");
  CHECK(at("node.gpu_max_power") == "/cluster/node/gpu_max_power");
  CHECK(at("node.gpu.hbm_bytes") == "/cluster/node/gpu_hbm");
  CHECK(at("node.compute_nics") == "/cluster/node/compute_nics");
  CHECK(at("node.something_derived") == "/cluster/node");
  CHECK(at("nodes_per_rack") == "/cluster/nodes_per_rack");
  CHECK(at("scheduler") == "/policies/scheduler");
  CHECK(at("scheduler_params.backfill_depth") == "/policies/scheduler_params/backfill_depth");
  CHECK(at("telemetry_interval") == "/outputs/telemetry_interval");
  CHECK(at("seed") == "/seed");
  // A training job's plan checks the cluster's node (training_scenario_test.cpp: the jobs' own keys).
  CHECK(at("training[0].node.storage_nics") == "/cluster/node/storage_nics");
  CHECK(at("training[0].fabric.nics_per_node") == "/cluster/node/compute_nics");
  CHECK(at("jobs[2].nodes") == "/workload/jobs");  // full.json has two jobs: the list
  CHECK(at("something_else").empty());

  // The message a model's error becomes, with the value the resolved document holds there.
  const sim::ConfigError e("jobs[1].nodes", "must be at most 4");
  CHECK(std::string(cluster_config_error(s, e, registries).what()) ==
        s.source + ":/workload/jobs/1/nodes: must be at most 4, got " +
            s.resolved["workload"]["jobs"][1]["nodes"].dump());
  const sim::ConfigError f("mystery", "is wrong");
  CHECK(std::string(cluster_config_error(s, f, registries).what()) == s.source + ": mystery: is wrong");
}

TEST_CASE("a preset's figures are overridden one by one", "[tools][scenario]") {
  const auto registries = make_registries();
  const auto preset = registries.node_presets.get("hgx-h100").factory();
  const Scenario s =
      load_fixture("minimal.json", {"cluster.node.gpu_max_power=500 W", "cluster.node.gpus=2"});
  CHECK(s.cluster.node.gpu.max_power_w == 500.0);
  CHECK(s.cluster.node.gpus == 2);
  CHECK(s.cluster.node.gpu.idle_power_w == preset.gpu.idle_power_w);
  CHECK(s.cluster.node.gpu.peak_bf16_flops == preset.gpu.peak_bf16_flops);
  CHECK(s.resolved["cluster"]["node"]["gpu_idle_power"].get<double>() ==
        Approx(preset.gpu.idle_power_w).epsilon(kTol));
}

TEST_CASE("duplicate keys are reported where they are, not silently dropped", "[tools][scenario]") {
  try {
    parse_json_text(R"({"name": "a", "cluster": {"nodes": 4, "nodes": 8},
                        "workload": {"jobs": [{"name": "x"}, {"name": "y", "work": "1 h", "name": "z"}]},
                        "name": "b"})",
                    "d.json");
    FAIL("expected InputErrors");
  } catch (const sim::InputErrors& e) {
    CHECK(e.messages() ==
          std::vector<std::string>{
              "d.json:/cluster/nodes: duplicate key; JSON keeps only the last of them",
              "d.json:/workload/jobs/1/name: duplicate key; JSON keeps only the last of them",
              "d.json:/name: duplicate key; JSON keeps only the last of them"});
  }
  // The same key in different objects is fine, and so are nested arrays.
  CHECK_NOTHROW(parse_json_text(R"({"a": {"n": 1}, "b": {"n": 2}, "c": [[1, {"n": 1}], {"n": 2}]})",
                                "d.json"));
}

TEST_CASE("nesting deeper than 64 levels is refused before parsing, at the bracket", "[tools][scenario]") {
  // 200,000 nested brackets (400 KB) made the duplicate-key check allocate 4.2 GB and die of
  // std::bad_alloc (exit 1); the depth is now checked in one pass that allocates nothing.
  const std::string deep = std::string(200'000, '[') + std::string(200'000, ']');
  CHECK_THROWS_WITH(parse_json_text(deep, "deep.json"),
                    "deep.json:1:65: invalid JSON: arrays and objects nested deeper than 64 levels (the shipped "
                    "scenarios nest 7 at most)");
  // On the line and column of the 65th level, counting objects and arrays alike.
  std::string mixed = "{\"a\":\n";
  for (int i = 0; i < 70; ++i) mixed += i % 2 == 0 ? "[" : "{\"k\":";
  CHECK_THROWS_WITH(parse_json_text(mixed, "m.json"), Catch::StartsWith("m.json:2:"));
  // Brackets inside strings are text, whatever their number; 64 levels still parse.
  CHECK_NOTHROW(parse_json_text("{\"s\": \"" + std::string(1000, '[') + "\\\"[\"}", "s.json"));
  CHECK_NOTHROW(parse_json_text(std::string(64, '[') + std::string(64, ']'), "ok.json"));
  // A --set value the same.
  json doc = minimal();
  CHECK_THROWS_WITH(apply_override(doc, "name=" + std::string(100, '[') + std::string(100, ']')),
                    Catch::StartsWith("--set name:1:65: invalid JSON: arrays and objects nested deeper than 64"));
}

TEST_CASE("integers beyond 32 bits are refused where the key is, not cut when mapped", "[tools][scenario]") {
  // cluster.nodes = 2^32 + 8 used to pass the range check (>= 1) and run 8 nodes.
  const std::string bound = "of at most 2147483647 (2^31 - 1, what the model's count holds), got ";
  CHECK(errors_of(minimal(), {"cluster.nodes=4294967304"}) ==
        std::vector<std::string>{"t.json:/cluster/nodes: expected a positive integer " + bound + "4294967304"});
  CHECK(errors_of(minimal(), {"cluster.nodes_per_rack=4294967297"}) ==
        std::vector<std::string>{"t.json:/cluster/nodes_per_rack: expected a positive integer " + bound + "4294967297"});
  json gen = minimal();
  gen["workload"]["generators"] = json::parse(R"([{"name": "g", "count": 4294967297, "interarrival":
      {"kind": "fixed", "value": "1 s"}, "work": {"kind": "fixed", "value": "1 s"}, "nodes": [4294967297]}])");
  CHECK(errors_of(gen) == std::vector<std::string>{
                              "t.json:/workload/generators/0/count: expected a positive integer " + bound + "4294967297",
                              "t.json:/workload/generators/0/nodes/0: expected a positive integer " + bound + "4294967297"});
  json training = minimal();
  training["workload"]["training"] = json::parse(
      R"([{"name": "t", "model": "llama3-8b", "nodes": 4, "parallelism": {"pp": 4294967297}}])");
  CHECK(errors_of(training) == std::vector<std::string>{
                                   "t.json:/workload/training/0/parallelism/pp: expected a positive integer " + bound +
                                   "4294967297"});
  // 2^31 - 1 itself passes; a range of the key's own is checked as before; seeds are 64 bits.
  CHECK(errors_of(minimal(), {"cluster.nodes_per_rack=2147483647"}).empty());
  CHECK(errors_of(minimal(), {"workload.jobs.0.priority=4294967297"}) ==
        std::vector<std::string>{"t.json:/workload/jobs/0/priority: expected an integer from -1000000 to 1000000, got "
                                 "4294967297"});
  CHECK(errors_of(minimal(), {"seed=18446744073709551615"}).empty());
}

TEST_CASE("every integer key is an int (up to 2^31 - 1) unless declared wide", "[tools][scenario][schema]") {
  const auto registries = make_registries();
  std::vector<std::string> unbounded;
  std::function<void(const FieldSpec&, const std::string&)> walk = [&](const FieldSpec& f, const std::string& at) {
    if ((f.type == FieldType::kInteger || f.type == FieldType::kIntegerArray) && !f.wide_integer) {
      const auto max = integer_maximum(f);
      if (!max || *max > kMaxInt32) unbounded.push_back(at);
    }
    for (const auto& c : f.children) walk(c, at + "/" + c.key);
  };
  walk(scenario_spec(registries), "");
  CHECK(unbounded.empty());
}

TEST_CASE("names and paths with control characters are refused, descriptions may break lines", "[tools][scenario]") {
  // A NUL in a service name passed validate and failed in the trace writer (exit 1).
  const std::string control = " without control characters (U+0000 to U+001F, U+007F), got ";
  CHECK(errors_of(minimal(), {"workload.jobs.0.name=\"a\\u0000b\""}) ==
        std::vector<std::string>{"t.json:/workload/jobs/0/name: expected a non-empty string" + control +
                                 "\"a\\u0000b\""});
  CHECK(errors_of(minimal(), {"name=\"tab\\there\""}) ==
        std::vector<std::string>{"t.json:/name: expected a non-empty string" + control + "\"tab\\there\""});
  CHECK(errors_of(minimal(), {"workload.jobs.0.name=\"del\\u007f\""}).size() == 1);
  CHECK(errors_of(minimal(), {"description=\"two\\nlines\\twith a tab\""}).empty());
  CHECK(errors_of(minimal(), {"workload.jobs.0.name=\"caf\\u00e9 \\u4e2d\""}).empty());  // not controls
}
