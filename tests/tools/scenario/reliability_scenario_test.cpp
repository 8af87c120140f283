// The scenario's /reliability section: presets, overrides by name, new classes, the inventory
// taken from the cluster, and every bad input reported at its JSON pointer (exit 2 in the CLI).

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "../cli/cli_test_support.hpp"
#include "models/reliability/llama3_faults.hpp"
#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;
namespace rel = dcsim::models::reliability;

namespace {

Scenario load(const json& doc) {
  const auto registries = testing::make_registries();
  return load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
}

json with_reliability(const json& reliability) {
  json doc = json::parse(R"({"name": "n", "duration": "1 d", "cluster": {"nodes": 4, "nodes_per_rack": 4},
                             "workload": {"jobs": [{"name": "a", "work": "1 h"}]}})");
  doc["reliability"] = reliability;
  return doc;
}

// Every message the loader reports for the document, one per line.
std::string messages(const json& doc) {
  try {
    load(doc);
  } catch (const sim::InputErrors& e) {
    std::string out;
    for (const auto& m : e.messages()) out += m + "\n";
    return out;
  } catch (const sim::InputError& e) {
    return std::string(e.what()) + "\n";
  }
  return "(loaded without error)";
}

const rel::FaultClass& find(const rel::FaultModelConfig& c, const std::string& name) {
  for (const auto& k : c.classes) {
    if (k.name == name) return k;
  }
  FAIL("no class " << name);
  return c.classes.front();
}

}  // namespace

TEST_CASE("reliability: absent section or faults none means no fault model or no classes",
          "[tools][scenario][reliability]") {
  json doc = with_reliability({});
  doc.erase("reliability");
  CHECK_FALSE(load(doc).reliability.has_value());
  const auto none = load(with_reliability(json::object()));
  REQUIRE(none.reliability.has_value());
  CHECK(none.reliability->preset == "none");
  CHECK(none.reliability->classes.empty());
}

TEST_CASE("reliability: the llama3_405b preset, one class overridden by name and one added",
          "[tools][scenario][reliability]") {
  const auto s = load(with_reliability(json::parse(R"({
      "faults": "llama3_405b", "scale": 2,
      "classes": [
        {"name": "software", "rate_per_hour": 1e-4, "weibull_shape": 0.8},
        {"name": "leaf_switch", "component": "switch", "mtbf": "10000 h", "effect": "switch_down",
         "repair": {"kind": "fixed", "value": "4 h"}}
      ]})")));
  const auto& r = *s.reliability;
  CHECK(r.preset == "llama3_405b");
  CHECK(r.scale == 2.0);
  REQUIRE(r.classes.size() == rel::llama3_fault_classes(8).size() + 1);
  // Overridden keys change, the others keep the preset's values.
  const auto& sw = find(r, "software");
  CHECK(sw.rate_per_hour == 1e-4);
  CHECK(sw.weibull_shape == 0.8);
  CHECK(sw.effect == rel::FaultEffect::kJobCrash);
  CHECK(sw.repair_s.kind == sim::Distribution::Kind::kFixed);
  CHECK(sw.repair_s.a == 600.0);
  // mtbf 10,000 h is a rate of 1e-4 per hour.
  const auto& leaf = find(r, "leaf_switch");
  CHECK(leaf.component == rel::ComponentKind::kSwitch);
  CHECK(leaf.rate_per_hour == Approx(1e-4));
  CHECK(leaf.repair_s.a == 4 * 3600.0);
  // Untouched preset class.
  CHECK(find(r, "gpu_faulty").rate_per_hour == Approx(148.0 / (1296.0 * 16384.0)));
}

TEST_CASE("reliability: the inventory comes from the cluster, the fabric assumption and the keys",
          "[tools][scenario][reliability]") {
  const auto s = load(with_reliability({{"faults", "none"}}));
  const auto& inv = s.reliability->inventory;
  CHECK(inv.nodes == 4);
  CHECK(inv.gpus_per_node == s.cluster.node.gpus);
  CHECK(inv.nics_per_node == s.cluster.node.compute_nics);
  // No /fabric: 23/7 cables per compute NIC, rounded down; no switches; one zone.
  CHECK(inv.links == static_cast<std::int64_t>(4.0 * s.cluster.node.compute_nics * 23.0 / 7.0));
  CHECK(inv.switches == 0);
  CHECK(inv.zones == 1);
  const auto given = load(with_reliability({{"links", 100}, {"switches", 6}}));
  CHECK(given.reliability->inventory.links == 100);
  CHECK(given.reliability->inventory.switches == 6);
}

TEST_CASE("reliability: each bad input is reported at its JSON pointer", "[tools][scenario][reliability]") {
  const auto bad = [](const json& cls) { return messages(with_reliability({{"classes", json::array({cls})}})); };
  const json repair = {{"kind", "fixed"}, {"value", "1 h"}};
  const json good = {{"name", "x"}, {"component", "gpu"}, {"rate_per_hour", 1e-3}, {"effect", "node_down"},
                     {"repair", repair}};
  CHECK(bad(good) == "(loaded without error)");

  auto c = good;
  c["rate_per_hour"] = -1;
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/rate_per_hour: expected a non-negative number"));
  c = good;
  c["weibull_shape"] = 0;
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/weibull_shape: expected a positive number"));
  c = good;
  c["component"] = "rack";
  CHECK(bad(c) == "t.json:/reliability/classes/0/component: unknown component 'rack'; valid: gpu, node, nic, link, "
                  "switch, zone, osd_host, osd\n");
  c = good;
  c["effect"] = "explode";
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/effect: unknown effect 'explode'; valid: "
                                       "node_down, job_crash, nic_down, link_down, switch_down, zone_cooling_loss"));
  c = good;
  c["repair"] = {{"kind", "exponential"}, {"mean", "0 s"}};
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/repair/mean: expected a positive duration"));
  c = good;
  c["repair"] = {{"kind", "gamma"}, {"mean", "1 h"}};
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/repair/kind: unknown distribution kind 'gamma'"));
  c = good;
  c["effect"] = "link_down";
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/effect: effect link_down does not apply to "
                                       "component gpu"));
  c = good;
  c["mtbf"] = "10 h";
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/mtbf: expected rate_per_hour or mtbf, not both"));
  c = good;
  c.erase("effect");
  c.erase("rate_per_hour");
  CHECK(bad(c) == "t.json:/reliability/classes/0: class \"x\" is not in the preset \"none\", so it needs effect, "
                  "rate_per_hour (or mtbf)\n");
  c = good;
  c["name"] = "a/b";
  CHECK_THAT(bad(c), Catch::StartsWith("t.json:/reliability/classes/0/name: expected a class name of letters"));
  CHECK_THAT(messages(with_reliability({{"scale", -1}})),
             Catch::StartsWith("t.json:/reliability/scale: expected a non-negative number"));
  CHECK_THAT(messages(with_reliability({{"faults", "llama4"}})),
             Catch::StartsWith("t.json:/reliability/faults: unknown fault preset 'llama4'; valid: none, llama3_405b"));
  CHECK_THAT(messages(with_reliability({{"classes", json::array({good, good})}})),
             Catch::StartsWith("t.json:/reliability/classes/1/name: expected a unique class name"));
  // Random faults never end on their own: the run needs a /duration.
  json open_ended = with_reliability({{"faults", "llama3_405b"}});
  open_ended.erase("duration");
  CHECK_THAT(messages(open_ended), Catch::StartsWith("t.json:/duration: missing; a scenario with random faults"));
}

TEST_CASE("reliability: dcsim validate exits 2 with the pointer of a negative rate", "[tools][scenario][reliability][cli]") {
  const auto path = cli_testing::temp_path("reliability-bad.json");
  json doc = with_reliability({{"faults", "llama3_405b"}, {"classes", json::array({{{"name", "nic"}, {"rate_per_hour", -0.5}}})}});
  testing::write_text(path, doc.dump());
  const auto r = cli_testing::run_dcsim("validate " + path.string());
  std::filesystem::remove(path);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("/reliability/classes/0/rate_per_hour: expected a non-negative number"));
}

TEST_CASE("reliability: sdc_detection reaches the cluster, and corruption without it is refused",
          "[tools][scenario][reliability]") {
  const json sdc_class = json::parse(R"({"name": "gpu_sdc", "component": "gpu", "effect": "silent_data_corruption",
                                         "rate_per_hour": 1e-6, "repair": {"kind": "fixed", "value": "4 h"}})");
  json doc = with_reliability({{"classes", json::array({sdc_class})},
                               {"sdc_detection", {{"probability", 0.25}, {"latency_steps", 7}}}});
  const Scenario s = load(doc);
  REQUIRE(s.cluster.sdc_detection);
  CHECK(s.cluster.sdc_detection->probability == 0.25);
  CHECK(s.cluster.sdc_detection->latency_steps == 7);
  CHECK(find(*s.reliability, "gpu_sdc").effect == rel::FaultEffect::kSilentCorruption);

  // The default latency is one step; without corruption the cluster has no settings.
  doc["reliability"]["sdc_detection"].erase("latency_steps");
  CHECK(load(doc).cluster.sdc_detection->latency_steps == 1);
  CHECK_FALSE(load(with_reliability(json::object())).cluster.sdc_detection);

  doc["reliability"].erase("sdc_detection");
  CHECK(messages(doc) == "t.json:/reliability/sdc_detection: missing; fault class \"gpu_sdc\" (effect "
                         "silent_data_corruption) corrupts jobs silently, and how their loss checks catch it decides "
                         "what follows: give {\"probability\": 0..1, \"latency_steps\": N}\n");
  // A class that never fires needs nothing.
  doc["reliability"]["classes"][0]["rate_per_hour"] = 0;
  CHECK(messages(doc) == "(loaded without error)");
}

TEST_CASE("reliability: a scripted silent data corruption carries its quarantine", "[tools][scenario][reliability]") {
  json doc = with_reliability({{"sdc_detection", {{"probability", 1}}}});
  doc["faults"] = json::parse(R"([{"at": "2 h", "kind": "silent_data_corruption", "node": 3, "duration": "30 min"}])");
  const Scenario s = load(doc);
  REQUIRE(s.node_faults.size() == 1);  // no repair entry: the quarantine starts when it is caught
  CHECK(s.node_faults[0].kind == models::reliability::ScriptedNodeFault::Kind::kSilentCorruption);
  CHECK(s.node_faults[0].node == 3);
  CHECK(s.node_faults[0].at == sim::Time::from_seconds(7200));
  CHECK(s.node_faults[0].quarantine == sim::Time::from_seconds(1800));
  doc["reliability"].erase("sdc_detection");
  CHECK(messages(doc) == "t.json:/reliability/sdc_detection: missing; a scripted silent_data_corruption fault "
                         "(/faults) corrupts jobs silently, and how their loss checks catch it decides what follows: "
                         "give {\"probability\": 0..1, \"latency_steps\": N}\n");
}

TEST_CASE("reliability: operations name the recovery preset; a class's own stages override it, one at a time",
          "[tools][scenario][reliability][recovery]") {
  // Default: automated (a default that switches detection and diagnosis off would be a silent
  // "instant recovery").
  CHECK(load(with_reliability({{"faults", "llama3_405b"}})).reliability->operations == rel::Operations::kAutomated);
  const auto s = load(with_reliability(json::parse(R"({
    "faults": "llama3_405b", "operations": "manual",
    "classes": [ { "name": "gpu_faulty", "detection": { "kind": "fixed", "value": "2 min" } },
                 { "name": "mine", "component": "node", "effect": "node_down", "mtbf": "1000 h",
                   "repair": { "kind": "fixed", "value": "1 h" }, "detection": { "kind": "fixed", "value": "30 s" },
                   "diagnosis": { "kind": "exponential", "mean": "20 min" } } ] })")));
  const auto& r = *s.reliability;
  CHECK(r.operations == rel::Operations::kManual);
  // The preset class keeps manual's diagnosis (lognormal, 2 h median) and takes its own detection.
  const auto& gpu = find(r, "gpu_faulty");
  REQUIRE(gpu.recovery);
  CHECK(gpu.recovery->detection_s.a == 120.0);
  CHECK(gpu.recovery->diagnosis_s.kind == sim::Distribution::Kind::kLognormal);
  CHECK(gpu.recovery->diagnosis_s.a == 7200.0);
  const auto& mine = find(r, "mine");
  REQUIRE(mine.recovery);
  CHECK(mine.recovery->detection_s.a == 30.0);
  CHECK(mine.recovery->diagnosis_s.kind == sim::Distribution::Kind::kExponential);
  CHECK(mine.recovery->diagnosis_s.a == 1200.0);
  // Classes without stages of their own follow the preset (resolved when the faults are routed).
  CHECK_FALSE(find(r, "software").recovery);
  CHECK_THAT(messages(with_reliability({{"operations", "robotic"}})),
             Catch::Contains("t.json:/reliability/operations") && Catch::Contains("robotic"));
  CHECK_THAT(messages(with_reliability(json::parse(R"({"faults": "llama3_405b",
                                                      "classes": [ { "name": "gpu_faulty",
                                                                     "detection": { "kind": "fixed", "value": "-1 s" } } ] })"))),
             Catch::Contains("t.json:/reliability/classes/0/detection"));
}
