#include <catch2/catch.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

namespace {

json base() {
  return json::parse(R"({"name": "m", "cluster": {"nodes": 4},
                         "workload": {"jobs": [{"name": "a", "work": "1 h"}]}})");
}

json applied(std::initializer_list<std::string> sets) {
  json doc = base();
  for (const auto& s : sets) apply_override(doc, s);
  return doc;
}

}  // namespace

TEST_CASE("override (--set) values are JSON when they parse, strings otherwise", "[tools][scenario][set]") {
  CHECK(applied({"cluster.nodes=8"})["cluster"]["nodes"] == 8);
  CHECK(applied({"cluster.nodes=8.5"})["cluster"]["nodes"] == 8.5);
  CHECK(applied({"fabric.link=400 Gbps"})["fabric"]["link"] == "400 Gbps");
  CHECK(applied({"name=fifo"})["name"] == "fifo");
  CHECK(applied({"name=\"42\""})["name"] == "42");  // quotes force a string
  CHECK(applied({"name="})["name"] == "");
  CHECK(applied({"x=true"})["x"] == true);
  CHECK(applied({"x=\"null\""})["x"] == "null");  // null itself removes the key (below)
  CHECK(applied({"x=[1, 2]"})["x"] == json::array({1, 2}));
  CHECK(applied({"x={\"y\": 1}"})["x"] == json{{"y", 1}});
  CHECK(applied({"description=a=b"})["description"] == "a=b");  // the first '=' splits
}

TEST_CASE("override (--set) paths walk objects and array indices", "[tools][scenario][set]") {
  CHECK(applied({"workload.jobs.0.nodes=2"})["workload"]["jobs"][0]["nodes"] == 2);
  // Missing objects are created; validation decides whether the keys are known.
  CHECK(applied({"facility.cooling.rdhx=true"})["facility"]["cooling"]["rdhx"] == true);
  // An index equal to the size appends.
  const json doc = applied({"workload.jobs.1.name=b", "workload.jobs.1.work=2 h"});
  REQUIRE(doc["workload"]["jobs"].size() == 2);
  CHECK(doc["workload"]["jobs"][1] == json{{"name", "b"}, {"work", "2 h"}});
  // Later overrides win.
  CHECK(applied({"cluster.nodes=8", "cluster.nodes=16"})["cluster"]["nodes"] == 16);
  // A whole subtree can be replaced.
  CHECK(applied({"cluster={\"nodes\": 2}"})["cluster"] == json{{"nodes", 2}});
}

TEST_CASE("malformed --set arguments are input errors", "[tools][scenario][set]") {
  json doc = base();
  CHECK_THROWS_WITH(apply_override(doc, "cluster.nodes"),
                    "--set cluster.nodes: expected PATH=VALUE, e.g. --set cluster.nodes=8");
  CHECK_THROWS_WITH(apply_override(doc, "=8"),
                    "--set =8: expected PATH=VALUE, e.g. --set cluster.nodes=8; the path is empty");
  CHECK_THROWS_WITH(apply_override(doc, "cluster..nodes=8"),
                    "--set cluster..nodes=8: empty key in path 'cluster..nodes'");
  CHECK_THROWS_WITH(apply_override(doc, ".nodes=8"), "--set .nodes=8: empty key in path '.nodes'");
  CHECK_THROWS_WITH(apply_override(doc, "workload.jobs.5.nodes=2"),
                    "--set workload.jobs.5.nodes=2: 'workload.jobs' is an array of 1; expected an "
                    "index from 0 to 1, got '5'");
  CHECK_THROWS_WITH(apply_override(doc, "workload.jobs.first.nodes=2"),
                    Catch::Contains("expected an index from 0 to 1, got 'first'"));
  CHECK_THROWS_WITH(apply_override(doc, "name.first=x"),
                    "--set name.first=x: cannot set 'first' inside 'name', which is a string");
  CHECK_THROWS_AS(apply_override(doc, "oops"), sim::InputError);
  // Nothing was changed by the failed attempts.
  CHECK(doc == base());
}

TEST_CASE("overrides (--set) are validated like the file", "[tools][scenario][set]") {
  const auto registries = testing::make_registries();
  const auto load = [&](std::vector<std::string> sets) {
    return load_scenario_json(base(), "t.json", sets, std::nullopt, registries);
  };
  CHECK(load({"cluster.nodes=8"}).cluster.nodes == 8);
  CHECK(load({"cluster.nodes=8"}).given["cluster"]["nodes"] == 8);
  CHECK(load({"workload.jobs.0.work=90 min"}).cluster.jobs[0].work == sim::Time::from_s(5400));
  try {
    load({"cluster.nodez=8", "cluster.nodes=-1"});
    FAIL("expected InputErrors");
  } catch (const sim::InputErrors& e) {
    CHECK(e.messages() ==
          std::vector<std::string>{
              "t.json:/cluster/nodez: unknown key; did you mean 'nodes'? valid keys here: cloud_pool, "
              "gpu_phase_power, node, nodes, nodes_per_rack",
              "t.json:/cluster/nodes: expected a positive integer, got -1"});
  }
  // A bare number where a quantity is due: the unit is missing, whatever the shell did.
  CHECK_THROWS_WITH(load({"workload.jobs.0.work=3600"}),
                    "t.json:/workload/jobs/0/work: expected a positive duration such as \"10 s\" "
                    "or \"1.5 h\", got 3600; units: ns, us, µs, μs, ms, s, sec, min, h, d, w");
}

TEST_CASE("override (--set) KEY=null removes the key, so the scenario has its default", "[tools][scenario][set]") {
  // An object key goes, and only it.
  json doc = applied({"cluster.nodes=null"});
  CHECK_FALSE(doc["cluster"].contains("nodes"));
  CHECK(doc["workload"] == base()["workload"]);
  // An array element goes, and the later ones move up.
  doc = applied({"workload.jobs.1.name=b", "workload.jobs.1.work=2 h", "workload.jobs.0=null"});
  REQUIRE(doc["workload"]["jobs"].size() == 1);
  CHECK(doc["workload"]["jobs"][0]["name"] == "b");
  // A key the document does not have: nothing to do, and nothing is created on the way.
  doc = base();
  CHECK_FALSE(apply_override(doc, "facility.cooling.rdhx=null"));
  CHECK(doc == base());
  // An element that is not there is an error, as for a value.
  CHECK_THROWS_WITH(apply_override(doc, "workload.jobs.1=null"),
                    "--set workload.jobs.1=null: 'workload.jobs' is an array of 1; expected an index from 0 to 0, "
                    "got '1'");

  const auto registries = testing::make_registries();
  const auto load = [&](std::vector<std::string> sets) {
    return load_scenario_json(base(), "t.json", sets, std::nullopt, registries);
  };
  // The default takes the removed key's place: nodes_per_rack 4 by default.
  CHECK(load({"cluster.nodes_per_rack=2", "cluster.nodes_per_rack=null"}).resolved["cluster"]["nodes_per_rack"] == 4);
  // Removing a required key is the usual error.
  CHECK_THROWS_WITH(load({"name=null"}), Catch::Contains("t.json:/name: missing required key"));
  // Removing a key the scenario leaves out is fine when the format has it (it has its default
  // already), a typo otherwise.
  CHECK(load({"seed=null"}).seed == 1);
  CHECK_THROWS_WITH(load({"cluster.nodez=null"}),
                    "--set cluster.nodez=null: nothing to remove: no key 'nodez' at /cluster; did you mean "
                    "'nodes'? keys there: node, nodes, nodes_per_rack, cloud_pool, gpu_phase_power");
}
