// The headline's lines from a summary: what a serving run, a run whose generated jobs arrive after
// its end and a fabric no flow crossed say (and no longer say).

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/report/headline.hpp"

namespace report = dcsim::tools::report;

namespace {

std::string text_of(const report::HeadlineFacts& facts, const nlohmann::json& summary) {
  std::string out;
  for (const auto& l : report::headline_lines(facts, summary)) out += report::headline_text_line(l);
  return out;
}

// What `dcsim run` wrote for one replica of a chat service on one node, 10 minutes (abridged).
nlohmann::json serving_summary() {
  return nlohmann::json::parse(R"({
    "energy": {"it_kwh": 0.9}, "power": {"mean_w": 5200.0, "peak_w": 5500.0, "peak_rack_w": 5500.0},
    "workload": {"jobs_total": 0, "jobs_completed": 0, "jobs_unfinished": 0, "jobs_failed": 0,
                 "jobs_not_arrived": 0, "service_replica_jobs": 1, "mean_wait_s": 0.0},
    "utilization": {"node_busy_fraction": 1.0}, "makespan_s": 0.0,
    "inference": {"chat": {"requests": 2391, "rejected": 0, "unfinished": 7, "sla_attainment": 0.9975,
      "output_tokens_per_s": 1159.4, "ttft_p50_s": 0.1234, "ttft_p99_s": 0.27, "tpot_p50_s": 0.0251,
      "tpot_p99_s": 0.0402, "replicas_min": 1, "replicas_mean": 1.0, "replicas_max": 1, "scale_ups": 0,
      "scale_downs": 0, "gpu_hours": 1.333}}})");
}

}  // namespace

TEST_CASE("a serving run's headline gives each service's requests, latency, SLA, tokens/s and replicas",
          "[tools][report][headline]") {
  report::HeadlineFacts facts;
  facts.has_cluster = true;
  facts.services = {"chat"};
  const std::string text = text_of(facts, serving_summary());
  CHECK_THAT(text, Catch::Contains("serving     chat: 2391 requests answered, 0 rejected (never fit), 7 still in the "
                                   "system at the end; SLA met by 99.8%; 1159 output tokens/s"));
  CHECK_THAT(text, Catch::Contains("latency     chat: TTFT p50 123.400 ms, p99 270.000 ms; TPOT p50 25.100 ms, p99 "
                                   "40.200 ms"));
  CHECK_THAT(text, Catch::Contains("replicas    chat: min 1, mean 1.00, max 1 serving; 0 scale-ups, 0 scale-downs; "
                                   "1.3 GPU-hours"));
  // The replica is no job of the workload: no "0 of 0 completed", no "not done".
  CHECK_THAT(text, !Catch::Contains("not done"));
  CHECK_THAT(text, !Catch::Contains("completed;"));
  CHECK_THAT(text, Catch::Contains("nodes busy  100.0% of node-time (inference replicas)"));
}

TEST_CASE("the headline says apart the jobs that never arrived before the end", "[tools][report][headline]") {
  report::HeadlineFacts facts;
  facts.has_cluster = true;
  nlohmann::json s = serving_summary();
  s.erase("inference");
  s["workload"] = {{"jobs_total", 1100}, {"jobs_completed", 1080}, {"jobs_unfinished", 4}, {"jobs_failed", 0},
                   {"jobs_not_arrived", 16}, {"mean_wait_s", 3600.0}, {"mean_completion_s", 7200.0}};
  const std::string text = text_of(facts, s);
  CHECK_THAT(text, Catch::Contains("not done    4 jobs still waiting or running when the run ended\n"));
  CHECK_THAT(text, Catch::Contains("not arrived 16 jobs never arrived before the end\n"));
  // All arrived jobs done: no "not done" line, only the ones that never came.
  s["workload"]["jobs_unfinished"] = 0;
  const std::string done = text_of(facts, s);
  CHECK_THAT(done, !Catch::Contains("not done"));
  CHECK_THAT(done, Catch::Contains("not arrived 16 jobs never arrived before the end"));
}

TEST_CASE("a fabric no flow crossed gets one network line, not four lines of zeros", "[tools][report][headline]") {
  report::HeadlineFacts facts;
  facts.has_fabric = true;
  nlohmann::json s;
  s["network"] = {{"switches", 40},     {"cables", 512},         {"transceivers", 0},
                  {"nic_ports", 256},   {"flows_completed", 0},  {"flows_failed", 0},
                  {"makespan_s", 0.0},  {"bytes_sent", 0.0},     {"bytes_delivered", 0.0},
                  {"fct_p50_s", 0.0},   {"link_utilisation_mean", 0.0}};
  const std::string idle = text_of(facts, s);
  CHECK_THAT(idle, Catch::Contains("fabric      40 switches, 512 cables (0 transceivers), 256 NIC ports\n"));
  CHECK_THAT(idle, Catch::Contains("network     no flow crossed the fabric in this run\n"));
  CHECK_THAT(idle, !Catch::Contains("flow times"));
  CHECK_THAT(idle, !Catch::Contains("links"));
  CHECK_THAT(idle, !Catch::Contains("bytes"));
  // With traffic, the four lines as before.
  s["network"]["flows_completed"] = 12;
  const std::string busy = text_of(facts, s);
  CHECK_THAT(busy, Catch::Contains("network     12 flows completed, 0 failed"));
  CHECK_THAT(busy, Catch::Contains("flow times"));
}

TEST_CASE("a run with faults says what they cost in GPU time, by kind", "[tools][report][headline]") {
  // failover-policies.json under elastic without headroom (figures as measured, rounded): the
  // lost work, the restarts and the GPU time run short of replicas; nothing stalled, so no
  // stalled part.
  report::HeadlineFacts facts;
  facts.has_cluster = true;
  facts.has_reliability = true;
  nlohmann::json s = serving_summary();
  s.erase("inference");
  s["reliability"] = {{"faults_total", 24}, {"interruptions_total", 22}};
  s["goodput"] = {{"fraction", 0.995},       {"effective_training_fraction", 0.943}, {"lost_gpu_h", 370.4},
                  {"restart_gpu_h", 397.2},  {"shrunk_missing_gpu_h", 5704.0},      {"stalled_gpu_h", 0.0}};
  const std::string text = text_of(facts, s);
  CHECK_THAT(text, Catch::Contains("faults      24 faults, 22 job interruptions; goodput 99.5%, effective training 94.3%\n"));
  CHECK_THAT(text, Catch::Contains("fault cost  370 GPU-h of work lost (redone), 397 GPU-h restarting (relaunch, reload), "
                                   "5,704 GPU-h short of replicas (elastic)\n"));
  // With detection and diagnosis (automated operations), the restart says how much of it they were.
  s["goodput"]["restart_gpu_h"] = 3357.2;
  s["goodput"]["restart_gpu_h_by_stage"] = {{"detection", 1480.0}, {"diagnosis", 1480.0}, {"restart", 397.2}};
  CHECK_THAT(text_of(facts, s),
             Catch::Contains(
                 "3,357 GPU-h restarting (2,960 detecting and diagnosing faults, the rest relaunch, reload)"));
}
