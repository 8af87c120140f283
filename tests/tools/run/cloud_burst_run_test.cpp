// Hybrid bursting through the whole stack: /cluster/cloud_pool and cloud_burst in a scenario ->
// the cluster's pool -> the pool's signals -> the economics subsystem's burst account.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/economics/cloud_offer.hpp"
#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tests/tools/run/run_test_support.hpp"
#include "tools/run/run_scenario.hpp"

using dcsim::tools::run::simulate;
using dcsim::tools::scenario::load_scenario_file;
using dcsim::tools::scenario::load_scenario_json;
using nlohmann::json;

namespace {

constexpr double kTol = 1e-12;

dcsim::models::ModelRegistries builtin() {
  dcsim::models::ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

using Result = dcsim::test::RunOutputs;

std::unique_ptr<Result> run(json doc, const std::vector<std::string>& sets = {}) {
  return dcsim::test::run_scenario_json(std::move(doc), sets);
}

std::unique_ptr<Result> run_file(const std::string& name, const std::vector<std::string>& sets = {}) {
  const auto registries = builtin();
  const auto scenario =
      load_scenario_file((std::string(DCSIM_SOURCE_DIR) + "/scenarios/" + name), sets, {}, registries);
  auto r = std::make_unique<Result>();
  simulate(scenario, registries, r->sink);
  return r;
}

// Two owned HGX H100 nodes. A holds both for 100 s; B (1 node, 50 s) arrives at 10 s.
json two_nodes() {
  return json::parse(R"({
    "name": "hand-solved burst", "seed": 3, "duration": "1000 s",
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 2, "nodes_per_rack": 2,
                 "cloud_pool": { "offer": "aws-p5-on-demand", "max_instances": 2,
                                 "provisioning_delay": "30 s", "idle_release": "60 s",
                                 "transfer": { "dataset": "1 GB", "results": "200 GB",
                                               "wan_bandwidth": "8 Gbps" } } },
    "workload": { "jobs": [ { "name": "A", "nodes": 2, "work": "100 s" },
                            { "name": "B", "nodes": 1, "work": "50 s", "arrival": "10 s" } ] },
    "policies": { "scheduler": "cloud_burst", "scheduler_params": { "threshold": 0.9, "sustain": "20 s" } },
    "economics": { "cloud": [ { "offer": "aws-p5-on-demand" } ] }
  })");
}

}  // namespace

TEST_CASE("a hand-solved burst: start time, instance-hours and money on each side",
          "[tools][run][cloud_burst]") {
  // Occupancy is 1 from 0 s (A on both nodes) and B waits from 10 s: after the 20 s sustain
  // (30 s) one instance is requested, usable after the 30 s delay (60 s). B starts there at 60 s,
  // its 1 GB dataset takes 8e9 bit / 8e9 bit/s = 1 s, its work ends at 111 s; the instance idles
  // 60 s and is released at 171 s: billed 111 s x 8 GPUs at $6.88 (55.04 / 8, the preset).
  const auto r = run(two_nodes());
  const double price = dcsim::models::economics::aws_p5_on_demand().usd_per_gpu_hour;
  CHECK(r->number("workload/burst/jobs") == 1);
  CHECK(r->number("cloud/instance_hours") == Approx(111.0 / 3600).epsilon(kTol));
  CHECK(r->number("cost/burst/instance_hours") == Approx(111.0 / 3600).epsilon(kTol));
  CHECK(r->number("cost/burst/billed_gpu_hours") == Approx(8 * 111.0 / 3600).epsilon(kTol));
  CHECK(r->number("cost/burst/instance_usd") == Approx(8 * 111.0 / 3600 * price).epsilon(kTol));
  // 200 GB of results leave AWS in the month: 100 GB free, 100 GB at tier 1's $0.09/GB. The 1 GB
  // dataset coming in is ingress: free.
  CHECK(r->number("cost/burst/egress_usd") == Approx(100 * 0.09).epsilon(kTol));
  CHECK(r->number("cost/burst/usd") == Approx(8 * 111.0 / 3600 * price + 9.0).epsilon(kTol));
  CHECK(r->number("cost/burst/spot_lost_usd") == 0.0);
  // Work on each side: B held 8 GPUs for 51 s (1 s of it receiving its dataset); A 16 GPUs for
  // 100 s on the owned nodes, which is all the owned side and the cloud comparison price.
  CHECK(r->number("cost/burst/gpu_hours") == Approx(8 * 51.0 / 3600).epsilon(kTol));
  CHECK(r->number("cost/onprem/gpu_hours") == Approx(16 * 100.0 / 3600).epsilon(kTol));
  CHECK(r->number("cost/delivered_gpu_hours") == Approx(16 * 100.0 / 3600).epsilon(kTol));
  CHECK(r->number("cost/hybrid/tco_usd") ==
        Approx(r->number("cost/owned/tco_usd") + r->number("cost/burst/usd")).epsilon(kTol));
  CHECK(r->number("cost/hybrid/gpu_hours") == Approx(8 * 51.0 / 3600 + 16 * 100.0 / 3600).epsilon(kTol));
  // Owned capex is the two on-prem nodes', whatever the pool: the same as without B and its burst.
  json no_burst = two_nodes();
  no_burst["workload"]["jobs"].erase(1);
  const auto base = run(no_burst);
  CHECK(r->number("cost/capex_usd") == base->number("cost/capex_usd"));
  CHECK(base->number("cost/burst/usd") == 0.0);
}

TEST_CASE("cloud instances draw no power in the owned facility", "[tools][run][cloud_burst]") {
  // With a facility: B runs only in the cloud, so the site draws what it draws without B.
  json with_b = two_nodes();
  with_b["facility"] = json::parse(R"({ "tick": "10 s" })");
  json without_b = with_b;
  without_b["workload"]["jobs"].erase(1);
  const auto a = run(with_b);
  const auto b = run(without_b);
  REQUIRE(a->number("workload/burst/jobs") == 1);
  for (const char* key : {"facility/it_energy_kwh", "facility/total_energy_kwh", "energy/it_kwh", "power/peak_w",
                          "cost/energy_kwh", "cost/owned/energy_usd"}) {
    INFO(key);
    CHECK(a->number(key) == b->number(key));
  }
}

TEST_CASE("cloud_burst that never bursts runs the queue as fifo does without a pool", "[tools][run][cloud_burst]") {
  // The comparison docs/models/scheduling.md makes: a sustain longer than the run, against fifo
  // on the same nodes with the pool removed (fifo with a pool is refused).
  json doc = json::parse(R"({
    "name": "queue", "seed": 5, "duration": "2 d",
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 4,
                 "cloud_pool": { "offer": "aws-p5-spot", "max_instances": 4 } },
    "workload": { "generators": [ { "name": "g", "count": 60,
                                    "interarrival": { "kind": "exponential", "mean": "20 min" },
                                    "work": { "kind": "lognormal", "median": "1 h", "sigma": 0.8 },
                                    "nodes": [1, 2, 4] } ] },
    "policies": { "scheduler": "cloud_burst", "scheduler_params": { "sustain": "3 d" } }
  })");
  json fifo = doc;
  fifo["cluster"].erase("cloud_pool");
  fifo["policies"] = json::parse(R"({ "scheduler": "fifo" })");
  const auto never = run(doc);
  const auto plain = run(fifo);
  CHECK(never->number("cloud/instances_requested") == 0);
  for (const char* key : {"workload/mean_wait_s", "workload/wait_p99_s", "makespan_s", "energy/it_kwh"}) {
    INFO(key);
    CHECK(never->number(key) == plain->number(key));
  }
  const auto bursting = run(doc, {"policies.scheduler_params.sustain=0 s"});
  CHECK(bursting->number("cloud/instances_requested") > 0);
  CHECK(bursting->number("workload/mean_wait_s") < plain->number("workload/mean_wait_s"));
}

TEST_CASE("scenarios/hybrid-burst.json bursts its peaks and prices both sides", "[tools][run][cloud_burst][scenario]") {
  const auto burst = run_file("hybrid-burst.json");
  const auto local = run_file("hybrid-burst.json", {"policies.scheduler_params.sustain=8 d"});
  CHECK(burst->number("workload/burst/jobs") > 0);
  CHECK(local->number("workload/burst/jobs") == 0);
  CHECK(burst->number("workload/mean_wait_s") < local->number("workload/mean_wait_s"));
  CHECK(burst->number("cost/burst/usd") > 0);
  CHECK(burst->number("cost/hybrid/tco_usd") > burst->number("cost/owned/tco_usd"));
  CHECK(burst->number("cost/capex_usd") == local->number("cost/capex_usd"));
}
