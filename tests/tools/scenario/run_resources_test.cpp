// The whole run against the resource limits (tools/scenario/run_resources.hpp): what is counted,
// where a refusal points, and the rack series a cluster writes.

#include <catch2/catch.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/run_resources.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using namespace dcsim::tools::scenario::testing;
using nlohmann::json;

namespace {

json cluster_of(int nodes) {
  json doc = json::parse(R"({"name": "r", "cluster": {"nodes_per_rack": 4},
                             "workload": {"jobs": [{"name": "a", "work": "1 h"}]}})");
  doc["cluster"]["nodes"] = nodes;
  return doc;
}

ResourceLimits roomy() {
  ResourceLimits limits;
  limits.max_memory_bytes = 1e15;
  limits.max_wall_s = 1e12;
  return limits;
}

Scenario load(json doc, const std::vector<std::string>& sets = {}, const ResourceLimits& limits = roomy()) {
  return load_scenario_json(std::move(doc), "r.json", sets, std::nullopt, make_registries(), limits);
}

std::string refusal(json doc, const std::vector<std::string>& sets, const ResourceLimits& limits) {
  try {
    load(std::move(doc), sets, limits);
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "(loaded)";
}

}  // namespace

TEST_CASE("rack power goes to one series per rack up to 1,024 racks, to 1,024 groups above", "[tools][scenario][resources]") {
  // 1,000,000 nodes four to a rack wrote 250,000 rack series: 9.2 GB and 277 s of writing.
  CHECK(load(cluster_of(4096)).cluster.racks_per_power_series == 1);  // 1,024 racks
  CHECK(load(cluster_of(4100)).cluster.racks_per_power_series == 2);  // 1,025 racks: 513 groups of 2
  CHECK(load(cluster_of(1'000'000)).cluster.racks_per_power_series == 245);  // ceil(250,000 / 1,024)
  CHECK(load(cluster_of(1'000'000), {"outputs.rack_power=racks"}).cluster.racks_per_power_series == 1);
  CHECK(load(cluster_of(1'000'000), {"outputs.rack_power=none"}).cluster.racks_per_power_series == 0);
  CHECK(load(cluster_of(1'000'000), {"outputs.max_rack_series=10"}).cluster.racks_per_power_series == 25'000);
}

TEST_CASE("a run estimated above the time limit is refused at the key that makes it long", "[tools][scenario][resources]") {
  ResourceLimits limits = roomy();
  limits.max_wall_s = 3600;
  // 250,000 rack series sampled every second for a day: 2.2e10 points, hours of writing.
  const std::string long_run = refusal(cluster_of(1'000'000),
                                       {"outputs.rack_power=racks", "outputs.telemetry_interval=\"1 s\"",
                                        "duration=\"1 d\""},
                                       limits);
  CHECK_THAT(long_run, Catch::StartsWith("r.json:/outputs/rack_power: this run would take about") &&
                           Catch::Contains("writing 2.5e+05 rack power series") &&
                           Catch::Contains("above the limit of 1 h (--max-time sets it, 1 h by default)"));
  // The same with the default grouping: 1,024 series, minutes at most.
  CHECK_NOTHROW(load(cluster_of(1'000'000), {"outputs.telemetry_interval=\"1 s\"", "duration=\"1 d\""}, limits));
  // --max-time lets the long one through.
  limits.max_wall_s = 1e6;
  CHECK_NOTHROW(load(cluster_of(1'000'000),
                     {"outputs.rack_power=racks", "outputs.telemetry_interval=\"1 s\"", "duration=\"1 d\""}, limits));
}

TEST_CASE("random faults and inference requests count, by hand", "[tools][scenario][resources]") {
  ResourceLimits limits = roomy();
  limits.max_wall_s = 1;
  // One class at 1 fault per hour per node on 1,000 nodes for 1,000 h: 1e6 faults x 0.3 us.
  json faults = cluster_of(1000);
  faults["duration"] = "1000 h";
  faults["reliability"] = json::parse(R"({"classes": [{"name": "x", "component": "node", "rate_per_hour": 1,
                                          "repair": {"kind": "fixed", "value": "1 s"}, "effect": "job_crash"}]})");
  CHECK_THAT(refusal(faults, {"reliability.scale=10"}, limits),
             Catch::StartsWith("r.json:/reliability/scale: this run would take about 3.") &&
                 Catch::Contains("(1e+07 random faults expected: 3 s)"));
  CHECK_NOTHROW(load(faults, {}, limits));  // 1e6 faults: 0.3 s
  // 1,000 requests a second for an hour: 3.6e6 requests, 2 us and 300 bytes each.
  json served = json::parse(R"({"name": "s", "duration": "1 h", "cluster": {"node": {"preset": "hgx-h100"},
      "nodes": 1}, "inference": {"services": [{"name": "chat", "model": "llama3-8b",
      "requests": {"rate": 1000}}]}})");
  CHECK_THAT(refusal(served, {}, limits),
             Catch::StartsWith("r.json:/inference/services/0/requests: this run would take about 7.2 s (3.6e+06 "
                               "requests of service 'chat': 7.2 s"));
  ResourceLimits small = roomy();
  small.max_memory_bytes = 1e9;
  CHECK_THAT(refusal(served, {}, small), Catch::Contains("3.6e+06 requests of service 'chat': 1.08 GB"));
}

TEST_CASE("the horizon is the duration, or the last plain job's latest end", "[tools][scenario][resources]") {
  CHECK(run_horizon(load(cluster_of(8))) == sim::Time::from_s(3600));  // one 1 h job arriving at 0
  CHECK(run_horizon(load(cluster_of(8), {"duration=\"2 d\""})) == sim::Time::from_s(2 * 86400));
}

TEST_CASE("wall times read as people say them", "[tools][scenario][resources]") {
  CHECK(format_wall_time(45) == "45 s");
  CHECK(format_wall_time(720) == "12 min");
  CHECK(format_wall_time(3600) == "1 h");
  CHECK(format_wall_time(7560) == "2.1 h");
  CHECK(format_wall_time(3 * 86400) == "3 days");
  CHECK(format_wall_time(1e10) == "317 years");
}
