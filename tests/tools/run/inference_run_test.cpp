// /inference through the whole stack: replicas as cluster jobs, and what a fault does to them.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/tools/run/run_test_support.hpp"

namespace {

// Two replicas of llama3-8b on one node each, 10 requests/s for 20 minutes.
nlohmann::json two_replicas() {
  return nlohmann::json::parse(R"({
    "name": "two replicas", "seed": 5, "duration": "20 min",
    "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2},
    "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 8}, "replicas": 2,
      "requests": {"rate": 10}}]}})");
}

}  // namespace

TEST_CASE("a fault on a replica's node sends its requests to the other replica and the replica comes back") {
  // A replica keeps no progress (a service job's done and saved work are zero): the failover
  // policy requeues it without a checkpoint to reload, it restarts when its node is back, and
  // every request is still answered. (Interrupting one crashed the cluster when it took the
  // replica's served time for checkpointed work and looked for a training plan.)
  nlohmann::json doc = two_replicas();
  doc["faults"] = nlohmann::json::parse(R"([{"at": "5 min", "kind": "node", "node": 0, "duration": "2 min"},
                                             {"at": "10 min", "kind": "job_crash", "node": 1}])");
  const auto r = dcsim::test::run_scenario_json(doc);
  CHECK(r->number("reliability/interruptions_total") == 2.0);
  CHECK(r->number("goodput/lost_gpu_h") == 0.0);
  CHECK(r->number("inference/chat/requests") > 10.0 * 1100.0);
  CHECK(r->number("inference/chat/replicas_max") == 2.0);
  CHECK(r->number("inference/chat/replicas_mean") < 2.0);  // a replica was away for a while
}

TEST_CASE("a replica lost and placed again counts its busy time once") {
  // Node 0 is down from 15 to 17 minutes; its replica is placed again and keeps its engines (and
  // their counters). Its first life's busy time went into the stats when it was lost; counting
  // its counters whole again at the end made busy GPU-time exceed held GPU-time (the site year
  // read a busy fraction of 1.70; here ~0.87 of 15 min counted twice over ~33 held minutes
  // gives ~1.2). Busy time is a part of held time, so the fraction is <= 1.
  nlohmann::json doc = two_replicas();
  doc["faults"] = nlohmann::json::parse(R"([{"at": "15 min", "kind": "node", "node": 0, "duration": "2 min"}])");
  const auto r = dcsim::test::run_scenario_json(doc);
  CHECK(r->number("inference/chat/gpu_busy_fraction") > 0.0);
  CHECK(r->number("inference/chat/gpu_busy_fraction") <= 1.0);
}

TEST_CASE("a service's replicas are not the workload's jobs: none of them is counted unfinished") {
  // The replicas run until the end (the service ends them): the run used to report them as two
  // jobs "still waiting or running when the run ended". They are counted apart now. Node 0 is
  // down from 5 to 7 minutes and its replica reloads its weights after: one replica served for a
  // while, so the fewest serving is 1.
  nlohmann::json doc = two_replicas();
  doc["faults"] = nlohmann::json::parse(R"([{"at": "5 min", "kind": "node", "node": 0, "duration": "2 min"}])");
  const auto r = dcsim::test::run_scenario_json(doc);
  CHECK(r->number("workload/jobs_total") == 0.0);
  CHECK(r->number("workload/jobs_completed") == 0.0);
  CHECK(r->number("workload/jobs_unfinished") == 0.0);
  CHECK(r->number("workload/jobs_not_arrived") == 0.0);
  CHECK(r->number("workload/service_replica_jobs") == 2.0);
  CHECK(r->number("makespan_s") == 0.0);
  CHECK(r->number("inference/chat/replicas_min") == 1.0);
  CHECK(r->number("inference/chat/replicas_max") == 2.0);
}

TEST_CASE("a service's latency histogram counts every answered request and holds its percentiles") {
  // The table the report draws its distributions from: per metric, the non-empty 0.5% buckets.
  // TTFT and end-to-end have one value per answered request; the summary's p99 lies in the bucket
  // the table's counts put the 99th percentile in.
  const auto r = dcsim::test::run_scenario_json(two_replicas());
  const auto& rows = r->sink.table("inference/chat/latency_histogram").rows;
  REQUIRE(!rows.empty());
  std::map<std::string, double> counts;
  for (const auto& row : rows) {
    CHECK(std::get<double>(row[1]) < std::get<double>(row[2]));  // lower < upper
    counts[std::get<std::string>(row[0])] += static_cast<double>(std::get<std::int64_t>(row[3]));
  }
  const double answered = r->number("inference/chat/requests");
  CHECK(counts["ttft"] == answered);
  CHECK(counts["e2e"] == answered);
  CHECK(counts["tpot"] > 0.0);
  double seen = 0.0;
  for (const auto& row : rows) {
    if (std::get<std::string>(row[0]) != "ttft") continue;
    seen += static_cast<double>(std::get<std::int64_t>(row[3]));
    if (seen >= std::ceil(0.99 * answered)) {
      const double p99 = r->number("inference/chat/ttft_p99_s");
      CHECK(p99 >= std::get<double>(row[1]));
      CHECK(p99 <= std::get<double>(row[2]));
      break;
    }
  }
}

TEST_CASE("a service's replicas are jobs holding GPUs and drawing power") {
  const auto r = dcsim::test::run_scenario_json(two_replicas());
  CHECK(r->number("inference/chat/gpu_hours") == Approx(2 * 8 * 20.0 / 60.0));
  // The nodes draw more than idle: the replicas' GPUs work.
  CHECK(r->number("power/mean_w") > 2 * 2000.0);
}

TEST_CASE("a replica of higher priority preempts a training job to scale up and one of equal priority waits") {
  // Two nodes: a one-node training job and a one-replica service overloaded from the start (1,000
  // requests/s: more than two replicas can serve, so it never scales back down). The
  // autoscaler asks for a second replica; under priority_preemptive it gets the training job's
  // node only when the service outranks the job.
  for (const int priority : {1, 0}) {
    nlohmann::json doc = nlohmann::json::parse(R"({
      "name": "yield", "seed": 9, "duration": "5 min",
      "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2},
      "workload": {"training": [{"name": "t", "model": "llama3-8b", "nodes": 1, "parallelism": {"tp": 8},
        "micro_batch_size": 1, "global_batch": 8, "steps": 100000, "checkpoint": {"interval": 50, "target": "nvme"}}]},
      "policies": {"scheduler": "priority_preemptive"},
      "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 8}, "replicas": 1,
        "autoscaler": "hpa", "autoscaler_params": {"metric": "batch"}, "min_replicas": 1, "max_replicas": 2,
        "requests": {"rate": 1000}}]}})");
    doc["inference"]["services"][0]["priority"] = priority;
    const auto r = dcsim::test::run_scenario_json(doc);
    INFO("priority " << priority);
    CHECK(r->number("workload/preemptions") == (priority == 1 ? 1.0 : 0.0));
    CHECK(r->number("inference/chat/replicas_max") == (priority == 1 ? 2.0 : 1.0));
  }
}

TEST_CASE("a service's output tokens are priced on its replicas' share of the delivered GPU-hours") {
  // One node, a one-replica service and a batch job holding the other node for the whole hour:
  // half of the delivered GPU-hours are the service's, so each option prices its tokens at half
  // its TCO over them.
  nlohmann::json doc = nlohmann::json::parse(R"({
    "name": "priced", "seed": 3, "duration": "1 h",
    "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2},
    "workload": {"jobs": [{"name": "batch", "nodes": 1, "work": "2 h"}]},
    "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 8}, "requests": {"rate": 20}}]},
    "economics": {
      "node_price": "hgx-h100", "site_prices": "us", "electricity": "0.10 USD/kWh", "contracted_power": "30 kW",
      "depreciation": {"method": "straight_line", "years": 5},
      "cloud": [{"offer": "aws-p5-on-demand", "offer_params": {"usd_per_gpu_hour": 4, "storage_usd_per_gb_month": 0}}]}})");
  const auto r = dcsim::test::run_scenario_json(doc);
  const double tokens = r->number("inference/chat/output_tokens_per_s") * 3600.0;
  REQUIRE(tokens > 0.0);
  CHECK(r->number("cost/delivered_gpu_hours") == Approx(16.0));  // 2 nodes x 8 GPUs x 1 h
  for (const std::string option : {"owned", "aws-p5-on-demand"}) {
    INFO(option);
    const double tco = r->number("cost/" + option + "/tco_usd");
    CHECK(r->number("cost/" + option + "/inference/chat/usd_per_million_output_tokens") ==
          Approx(tco * 0.5 / tokens * 1e6).epsilon(1e-9));
  }
  // Renting: 16 GPU-hours at 4 USD, half of it the service's.
  CHECK(r->number("cost/aws-p5-on-demand/inference/chat/usd_per_million_output_tokens") ==
        Approx(32.0 / tokens * 1e6).epsilon(1e-6));
  CHECK(r->number("inference/chat/usd_per_million_output_tokens") ==
        r->number("cost/owned/inference/chat/usd_per_million_output_tokens"));
}

TEST_CASE("disaggregated KV transfers are flows on the backend fabric: the bytes moved are the bytes it carried") {
  // One prefill and one decode replica (TP8, a node each) on a k=4 fat-tree: every prompt's KV
  // crosses the fabric as 8 flows (one per rail), and nothing else does.
  const auto r = dcsim::test::run_scenario_json(nlohmann::json::parse(R"({
    "name": "disaggregated", "seed": 4, "duration": "2 min",
    "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2},
    "fabric": {"topology": "fat_tree", "k": 4},
    "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 8}, "replicas": 1,
      "prefill_replicas": 1, "requests": {"rate": 5, "stop": "1 min"}}]}})"));
  const double moved = r->number("inference/chat/kv_transfer_bytes");
  REQUIRE(moved > 0.0);
  CHECK(r->number("network/bytes_delivered") == Approx(moved).epsilon(1e-9));
  CHECK(r->number("network/flows_completed") == 8.0 * r->number("inference/chat/kv_transfers"));
  CHECK(r->number("inference/chat/replicas_mean") == Approx(1.0));  // the decode pool's
  CHECK(r->number("inference/chat/unfinished") == 0.0);
}

TEST_CASE("empirical prompt lengths come from a CSV of token counts and power follows the replicas") {
  nlohmann::json doc = two_replicas();
  doc["inference"]["services"][0]["requests"]["input_tokens"] = nlohmann::json::parse(
      R"({"kind": "empirical", "samples_file": "tests/data/traces/inference_prompt_lengths.csv"})");
  const auto r = dcsim::test::run_scenario_json(doc);
  // Every row is 100 tokens: each answered request brought exactly 100.
  const double requests = r->number("inference/chat/requests");
  CHECK(r->number("inference/chat/input_tokens_per_s") * 20.0 * 60.0 / requests == Approx(100.0));
  // Two replicas of 8 GPUs: between idle and full power (8 x 84 W .. 8 x 700 W each).
  const auto& power = r->sink.series("inference/chat/gpu_power_w");
  REQUIRE(!power.value.empty());
  for (const double w : power.value) {
    CHECK(w >= 16 * 84.0 - 1e-6);
    CHECK(w <= 16 * 700.0 + 1e-6);
  }
}

TEST_CASE("a pipeline-parallel replica spans whole nodes as one cluster job") {
  // Llama 3 405B in BF16 (810 GB) at TP8 PP2: 16 GPUs, two nodes, one job.
  const auto r = dcsim::test::run_scenario_json(nlohmann::json::parse(R"({
    "name": "405b", "seed": 6, "duration": "5 min",
    "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2},
    "inference": {"services": [{"name": "chat", "model": "llama3-405b", "engine": {"tp": 8, "pp": 2},
      "requests": {"rate": 1}}]}})"));
  CHECK(r->number("inference/chat/gpu_hours") == Approx(16 * 5.0 / 60.0));
  CHECK(r->number("inference/chat/requests") > 200.0);
  CHECK(r->number("inference/chat/unfinished") < 10.0);
  CHECK(r->number("utilization/node_busy_fraction") == Approx(1.0));
}

TEST_CASE("the shipped autoscaled day at fluid resolution is within the bounds of iteration level", "[slow]") {
  // scenarios/inference-autoscaling-diurnal.json (1-4 replicas of llama3-70b, HPA on batch): its
  // fleet cycles 4 -> 2 -> 1 replica -> saturated -> 4 and spends a minute or two near u = 1,
  // where the p99 TTFT is made. Fluid took a curve point's latencies at once there, whose queue
  // had built for thousands of answers (seed 11: 0.65 s against 0.39 s); with the queue built by
  // equivalent age (queue_buildup.hpp) the means over seeds 11-13 are within the issue's bounds:
  // SLA within 1 point, p99 TTFT and TPOT within 10%, tokens within 1%, GPU-hours and energy
  // within 2% (measured: TTFT +2.4%, GPU-hours +0.3%). Seeds: HPA's day moves by itself.
  std::ifstream in(std::string(DCSIM_SOURCE_DIR) + "/scenarios/inference-autoscaling-diurnal.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  const char* keys[] = {"sla_attainment",      "ttft_p99_s", "tpot_p99_s",
                        "output_tokens_per_s", "gpu_hours",  "gpu_energy_kwh"};
  std::map<std::string, std::pair<double, double>> mean;  // iteration, fluid
  for (const int seed : {11, 12, 13}) {
    for (const char* resolution : {"iteration", "fluid"}) {
      const auto r =
          dcsim::test::run_scenario_json(doc, {"seed=" + std::to_string(seed),
                                               std::string("inference.services.0.resolution=") + resolution});
      for (const char* key : keys) {
        const double v = r->number(std::string("inference/chat/") + key) / 3.0;
        (resolution[0] == 'i' ? mean[key].first : mean[key].second) += v;
      }
    }
  }
  for (const auto& [key, v] : mean) std::printf("%-20s iteration %.6g fluid %.6g\n", key.c_str(), v.first, v.second);
  const auto error = [&mean](const char* key) {
    return std::abs(mean[key].second - mean[key].first) / std::abs(mean[key].first);
  };
  CHECK(std::abs(mean["sla_attainment"].second - mean["sla_attainment"].first) <= 0.01);
  CHECK(error("ttft_p99_s") <= 0.10);
  CHECK(error("tpot_p99_s") <= 0.10);
  CHECK(error("output_tokens_per_s") <= 0.01);
  CHECK(error("gpu_hours") <= 0.02);
  CHECK(error("gpu_energy_kwh") <= 0.02);
}

TEST_CASE("closed-loop clients keep one request each in flight: Little's law holds over the run",
          "[tools][run][inference]") {
  // N clients, each sending its next request think_time Z after its answer: throughput X and the
  // mean response R obey N = X (R + Z) (Little's law over the clients' whole cycle), and the
  // service holds X R of them on average. With Z = 0 every client is always in the system.
  for (const double think_s : {0.0, 2.0}) {
    nlohmann::json doc = nlohmann::json::parse(R"({
      "name": "closed loop", "seed": 3, "duration": "10 min",
      "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 1},
      "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 8}, "replicas": 1,
        "requests": {"arrivals": "closed_loop", "clients": 16,
                     "input_tokens": {"kind": "fixed", "value": 1024},
                     "output_tokens": {"kind": "fixed", "value": 256}}}]}})");
    doc["inference"]["services"][0]["requests"]["think_time"] = std::to_string(think_s) + " s";
    const auto r = dcsim::test::run_scenario_json(doc);
    const double x = r->number("inference/chat/requests") / 600.0;
    const double response = r->number("inference/chat/e2e_mean_s");
    INFO("think " << think_s << " s: X " << x << "/s, R " << response << " s");
    CHECK(x * (response + think_s) == Approx(16.0).epsilon(0.02));
    CHECK(r->number("inference/chat/mean_in_system") == Approx(x * response).epsilon(0.02));
    CHECK(r->number("inference/chat/unfinished") <= 16.0);
  }
}

TEST_CASE("closed-loop keys are refused where they would be ignored, and fluid cannot serve them",
          "[tools][run][inference]") {
  nlohmann::json doc = two_replicas();
  doc["inference"]["services"][0]["requests"]["clients"] = 4;
  CHECK_THROWS_WITH(dcsim::test::run_scenario_json(doc),
                    Catch::Contains("/inference/services/0/requests/clients: applies to closed_loop arrivals only"));
  doc = two_replicas();
  doc["inference"]["services"][0]["requests"] = nlohmann::json::parse(R"({"arrivals": "closed_loop", "clients": 4})");
  doc["inference"]["services"][0]["resolution"] = "fluid";
  CHECK_THROWS_WITH(dcsim::test::run_scenario_json(doc), Catch::Contains("closed-loop clients"));
}
