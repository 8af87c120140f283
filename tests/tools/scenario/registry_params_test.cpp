// Parameters of registered models and policies: every documented ParamSpec is usable by the
// scenario format (range parses, default resolves), and scheduler_params reach the scheduler or
// are refused at their JSON pointer.

#include <catch2/catch.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "sim/params.hpp"
#include "tools/run/build_datacenter.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

TEST_CASE("every registered parameter has a parseable range and a default that resolves",
          "[scenario][params][contract]") {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  // The registries whose factories take sim::Params (topologies still map their keys by hand in
  // fabric_spec.cpp, with prose ranges such as "even, x >= 2").
  const auto check = [](const auto& registry) {
    for (const auto& entry : registry.entries()) {
      for (const auto& p : entry.params) {
        INFO(registry.kind() << " '" << entry.name << "' parameter " << p.name);
        const FieldSpec field = param_field(p, entry.name);  // throws on a bad range or unit
        ErrorList errors;
        resolve_value(field, json::parse(p.default_value), "/p", errors);
        CHECK(errors.empty());
        sim::Params params;
        CHECK_NOTHROW(sim::set_param_from_text(params, p, p.default_value));
        CHECK(params.has(p.name));
      }
    }
  };
  check(registries.schedulers);
  check(registries.failover_policies);
  check(registries.cooling_controls);
  check(registries.power_capping);
  check(registries.cloud_offers);
  check(registries.egress_tariffs);
  check(registries.node_prices);
  check(registries.fabric_prices);
  check(registries.site_prices);
}

TEST_CASE("a params object over presets with their own figures documents each entry's default",
          "[scenario][params]") {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  // hgx-h100 and dgx-h100 both document usd_per_node, each with its own price: one key, same unit
  // and range, and the note names each preset's default (a unit or range mismatch stays a bug).
  const FieldSpec f = params_object_field("node_price_params", "", entry_params(registries.node_prices));
  const FieldSpec* usd = f.child("usd_per_node");
  REQUIRE(usd != nullptr);
  CHECK_THAT(usd->default_note, Catch::Contains("dgx-h100: 270000") && Catch::Contains("hgx-h100: 313500"));
  CHECK_FALSE(usd->default_value.has_value());
}

TEST_CASE("parameter ranges read as the registrations write them", "[scenario][params]") {
  const Range open = parse_param_range("0 < x <= 1");
  CHECK(*open.minimum == 0);
  CHECK(open.exclusive_minimum);
  CHECK(*open.maximum == 1);
  CHECK_FALSE(open.exclusive_maximum);
  CHECK(*parse_param_range("x >= 1").minimum == 1);
  CHECK(parse_param_range("").empty());
  CHECK_THROWS_AS(parse_param_range("positive"), sim::InternalError);
}

namespace {

json with_scheduler(const std::string& scheduler, const json& params) {
  json doc = json::parse(R"({"name": "m", "cluster": {"nodes": 4},
                             "workload": {"jobs": [{"name": "a", "work": "1 h"}]}})");
  doc["policies"] = {{"scheduler", scheduler}, {"scheduler_params", params}};
  return doc;
}

std::vector<std::string> errors_of(const json& doc) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  try {
    load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
  } catch (const sim::InputErrors& e) {
    return e.messages();
  }
  return {};
}

}  // namespace

TEST_CASE("scheduler_params reach the chosen scheduler; others are refused at their pointer",
          "[scenario][params]") {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  const Scenario s = load_scenario_json(with_scheduler("easy_backfill", {{"queue_depth", 20}}), "t.json", {},
                                        std::nullopt, registries);
  CHECK(s.cluster.scheduler_params.integer("queue_depth") == 20);

  CHECK(errors_of(with_scheduler("fifo", {{"queue_depth", 20}})) ==
        std::vector<std::string>{"t.json:/policies/scheduler_params/queue_depth: not a parameter of scheduler "
                                 "'fifo'; its parameters: none"});
  const auto range = errors_of(with_scheduler("easy_backfill", {{"queue_depth", 0}}));
  REQUIRE(range.size() == 1);
  CHECK_THAT(range[0], Catch::StartsWith("t.json:/policies/scheduler_params/queue_depth: expected"));
  const auto unknown = errors_of(with_scheduler("easy_backfill", {{"queue_dept", 5}}));
  REQUIRE(!unknown.empty());
  CHECK_THAT(unknown[0], Catch::Contains("/policies/scheduler_params/queue_dept"));
  const auto temperature = errors_of(with_scheduler("thermal_aware", {{"temperature_resolution", 3}}));
  REQUIRE(temperature.size() == 1);
  CHECK_THAT(temperature[0], Catch::Contains("temperature"));
}

namespace {

json with_failover(const std::string& failover, const json& params) {
  json doc = json::parse(R"({"name": "m", "duration": "1 d", "cluster": {"nodes": 4},
                             "workload": {"jobs": [{"name": "a", "work": "1 h"}]},
                             "reliability": {"faults": "llama3_405b"}})");
  doc["policies"] = {{"failover", failover}, {"failover_params", params}};
  return doc;
}

// What loading and building the models (as `validate` and `run` do) report, first message.
std::string refusal(const json& doc) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  try {
    const Scenario s = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
    tools::run::check_models_build(s, registries);
  } catch (const sim::InputErrors& e) {
    return e.messages().front();
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("bad predictive_migration and elastic parameters are refused at their JSON pointer",
          "[scenario][params]") {
  const auto predictive = [](const json& params) { return refusal(with_failover("predictive_migration", params)); };
  CHECK_THAT(predictive({{"precision", 0}}), Catch::StartsWith("t.json:/policies/failover_params/precision: expected"));
  CHECK_THAT(predictive({{"precision", 1.2}}), Catch::StartsWith("t.json:/policies/failover_params/precision: expected"));
  CHECK_THAT(predictive({{"recall", -0.1}}), Catch::StartsWith("t.json:/policies/failover_params/recall: expected"));
  CHECK_THAT(predictive({{"recall", 1.5}}), Catch::StartsWith("t.json:/policies/failover_params/recall: expected"));
  CHECK_THAT(predictive({{"lead_time", "-1 min"}}), Catch::StartsWith("t.json:/policies/failover_params/lead_time:"));
  // Checked against the fault model when the models are built.
  CHECK_THAT(predictive({{"precursor_classes", "gpu_faulty,gpu_hbm4"}}),
             Catch::StartsWith("t.json:/policies/failover_params/precursor_classes: the fault model has no class "
                               "'gpu_hbm4'"));
  CHECK(predictive({{"recall", 0}, {"precision", 1}}) == "accepted");
  const auto elastic = [](const json& params) { return refusal(with_failover("elastic", params)); };
  CHECK_THAT(elastic({{"min_replicas", 0}}), Catch::StartsWith("t.json:/policies/failover_params/min_replicas: expected"));
  CHECK_THAT(elastic({{"state_recovery", "memory"}}),
             Catch::StartsWith("t.json:/policies/failover_params/state_recovery: expected \"auto\""));
  CHECK(elastic({{"state_recovery", "replicas"}}) == "accepted");
}
