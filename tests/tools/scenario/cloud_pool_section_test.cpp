// /cluster/cloud_pool in scenario files: every mistake is exit 2 with its pointer, what was
// expected and what was given; a valid pool reaches the cluster's config.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

namespace {

std::vector<std::string> errors_of(const json& doc, const std::vector<std::string>& sets = {}) {
  const auto registries = testing::make_registries();
  try {
    load_scenario_json(doc, "t.json", sets, std::nullopt, registries);
  } catch (const sim::InputErrors& e) {
    return e.messages();
  }
  return {};
}

json hybrid() {
  return json::parse(R"({"name": "h", "cluster": {"nodes": 2,
                           "cloud_pool": {"offer": "aws-p5-spot", "max_instances": 4}},
                         "workload": {"jobs": [{"name": "a", "work": "1 h"}]},
                         "policies": {"scheduler": "cloud_burst"}})");
}

}  // namespace

TEST_CASE("a valid cloud pool reaches the cluster config with its offer and defaults", "[tools][scenario][cloud_pool]") {
  const auto registries = testing::make_registries();
  const Scenario s = load_scenario_json(hybrid(), "t.json",
                                        {"cluster.cloud_pool.offer_params.preemptions_per_instance_hour=0.5",
                                         "cluster.cloud_pool.transfer.dataset=2 TB"},
                                        std::nullopt, registries);
  REQUIRE(s.cluster.cloud_pool.has_value());
  const auto& p = *s.cluster.cloud_pool;
  CHECK(p.offer.name == "aws-p5-spot");
  CHECK(p.offer.preemptions_per_instance_hour == 0.5);
  CHECK(p.max_instances == 4);
  CHECK(p.provisioning_delay == sim::Time::from_seconds(600));  // the documented defaults
  CHECK(p.idle_release == sim::Time::from_seconds(600));
  CHECK(p.dataset_bytes == 2e12);
  CHECK(p.wan_bits_per_s == 10e9);
  CHECK(s.cluster.scheduler == "cloud_burst");
}

TEST_CASE("a cloud pool needs cloud_burst, and cloud_burst a pool", "[tools][scenario][cloud_pool]") {
  CHECK(errors_of(hybrid(), {"policies.scheduler=fifo"}) ==
        std::vector<std::string>{"t.json:/cluster/cloud_pool: expected /policies/scheduler to send work to the pool "
                                 "(cloud_burst), got \"fifo\", which would never use it"});
  json no_pool = hybrid();
  no_pool["cluster"].erase("cloud_pool");
  CHECK(errors_of(no_pool) == std::vector<std::string>{"t.json:/policies/scheduler: expected a /cluster/cloud_pool "
                                                       "for \"cloud_burst\" to send work to, got none"});
}

TEST_CASE("impossible cloud pool and cloud_burst values name their key", "[tools][scenario][cloud_pool]") {
  const auto first = [](const std::vector<std::string>& e) { return e.empty() ? std::string() : e.front(); };
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.provisioning_delay=-5 min"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/provisioning_delay: expected") &&
                 Catch::Contains("-5 min"));
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.idle_release=-1 s"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/idle_release: expected"));
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.max_instances=0"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/max_instances: expected") && Catch::Contains("got 0"));
  CHECK_THAT(first(errors_of(hybrid(), {"policies.scheduler_params.threshold=0"})),
             Catch::StartsWith("t.json:/policies/scheduler_params/threshold: expected") && Catch::Contains("got 0"));
  CHECK_THAT(first(errors_of(hybrid(), {"policies.scheduler_params.threshold=1.5"})),
             Catch::StartsWith("t.json:/policies/scheduler_params/threshold: expected") && Catch::Contains("1.5"));
  CHECK_THAT(first(errors_of(hybrid(), {"policies.scheduler_params.sustain=-1 s"})),
             Catch::StartsWith("t.json:/policies/scheduler_params/sustain: expected"));
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.transfer.wan_bandwidth=0 bps"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/transfer/wan_bandwidth: expected"));
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.offer=gcp-nothing"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/offer: ") && Catch::Contains("gcp-nothing"));
  // Only spot offers are preempted; an on-demand offer does not document the rate at all.
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.offer=aws-p5-on-demand",
                                        "cluster.cloud_pool.offer_params.preemptions_per_instance_hour=1"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/offer_params/preemptions_per_instance_hour: "));
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.node.gpus=4"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/offer: expected an offer whose instances have the node's 4 "
                               "GPUs") && Catch::Contains("with 8"));
  CHECK_THAT(first(errors_of(hybrid(), {"cluster.cloud_pool.spare=1"})),
             Catch::StartsWith("t.json:/cluster/cloud_pool/spare: unknown key"));
}
