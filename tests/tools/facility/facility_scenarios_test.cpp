#include <catch2/catch.hpp>

#include <string>
#include <algorithm>
#include <fstream>
#include <limits>
#include <variant>
#include <vector>

#include "models/model_registries.hpp"
#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

// Golden figures of the three shipped facility scenarios (docs/models/facility.md). The runs are
// deterministic (same scenario and seed, same numbers), so the tolerances do not absorb noise:
// they say how far a model change may move a figure before that page's claims must be
// re-measured. Each is commented with why the figure holds.

using namespace dcsim;

namespace {

const models::ModelRegistries& registries() {
  static const models::ModelRegistries r = [] {
    models::ModelRegistries out;
    models::register_builtin_models(out);
    return out;
  }();
  return r;
}

struct Figures {
  double pue, max_gpu_c, throttled_gpu_s, peak_rack_w, makespan_s, balance_error;
};

Figures run(const std::string& name) {
  const auto scenario = tools::scenario::load_scenario_file(std::string(DCSIM_SOURCE_DIR) + "/scenarios/" + name,
                                                            {}, std::nullopt, registries());
  sim::MemoryTraceSink sink;
  tools::run::simulate(scenario, registries(), sink);
  const auto num = [&](const std::string& p) { return std::get<double>(sink.summary(p).value); };
  return {num("facility/pue"), num("thermal/max_gpu_c"), num("thermal/throttled_gpu_s"),
          num("facility/peak_rack_w"), num("makespan_s"), num("thermal/energy_balance_error")};
}

}  // namespace

TEST_CASE("golden: d2c-rdhx-50kw.json", "[tools][facility][golden]") {
  const auto f = run("d2c-rdhx-50kw.json");
  // PUE 1.094: overhead is UPS/PDU losses (~5.9% of IT at full load) plus pumps and dry-cooler
  // fans; the doors take 90% of the 20% air heat at ~15% duty, so their fans draw a few W (affinity
  // law) and the air handlers move only the rest. The chiller runs only in the warm afternoon
  // hour. +-0.01 is about the chiller's whole share. (1.131 before issue 15: 1 kW door fans ran
  // at full speed while an unlimited air handler took the heat.)
  CHECK(f.pue == Approx(1.094).margin(0.01));
  // 69.7 C: the PI control holds 65 C until the pumps reach full speed at full load.
  CHECK(f.max_gpu_c == Approx(69.7).margin(1.0));
  CHECK(f.throttled_gpu_s == 0.0);  // 20 C of headroom to the 89 C slowdown
  // 6 nodes at 7.38 kW + one 1.1 kW leaf switch: inside the issue's 40-55 kW band.
  CHECK(f.peak_rack_w > 40'000.0);
  CHECK(f.peak_rack_w < 55'000.0);
  CHECK(f.balance_error < 1e-3);
}

TEST_CASE("golden: cooling-failure.json", "[tools][facility][golden]") {
  const auto f = run("cooling-failure.json");
  // Pump at 10% flow for 20 min: the hottest dies reach the 89 C slowdown, where the halved clock
  // cuts GPU power to ~190 W and holds them there; none reaches 92 C shutdown. Slowdown is decided
  // at the crossing (threshold checks), so the maximum is 89 C to within the 0.5 C margin.
  CHECK(f.max_gpu_c <= 89.0 + 0.5);
  CHECK(f.max_gpu_c >= 88.0);
  // ~112,000 GPU-s throttled: most of the 96 GPUs for most of the 20 min (1,200 s x 96 = 115,200).
  // +-20% covers a change of the throttling curve's shape without a change of story.
  CHECK(f.throttled_gpu_s == Approx(111'638.0).epsilon(0.2));
  // 3 h of work takes 3.14 h: the throughput lost to throttling, recovered after the repair.
  CHECK(f.makespan_s == Approx(11'306.0).epsilon(0.02));
  CHECK(f.makespan_s > 3 * 3600.0);
  CHECK(f.pue == Approx(1.095).margin(0.01));  // as d2c-rdhx-50kw's 1.094 (door fans at their duty)
  CHECK(f.balance_error < 1e-3);
}

TEST_CASE("golden: air-baseline.json", "[tools][facility][golden]") {
  const auto f = run("air-baseline.json");
  // PUE 1.149 (node fans at speed count as IT, so PUE flatters air); the chiller works more
  // (15 C water). Hotter dies than D2C (84.2 vs 69.7 C) but under the 87 C throttling onset.
  // (1.162 before issue 15; the UPS is now sized for the full-load IT and loses less below it.)
  CHECK(f.pue == Approx(1.149).margin(0.01));
  CHECK(f.max_gpu_c == Approx(84.2).margin(1.5));
  CHECK(f.max_gpu_c < 87.0);
  CHECK(f.throttled_gpu_s == 0.0);
  CHECK(f.balance_error < 1e-3);
}

namespace {

// Peak node power (AC, at the node inlet) of d2c-rdhx-50kw.json, one hour at full GPU load, with
// the given --set overrides.
double peak_node_w(std::vector<std::string> overrides) {
  overrides.push_back("duration=1 h");
  const auto scenario = tools::scenario::load_scenario_file(
      std::string(DCSIM_SOURCE_DIR) + "/scenarios/d2c-rdhx-50kw.json", overrides, std::nullopt, registries());
  sim::MemoryTraceSink sink;
  tools::run::simulate(scenario, registries(), sink);
  CHECK(std::get<double>(sink.summary("thermal/throttled_gpu_s").value) == 0.0);  // no clock effect
  return std::get<double>(sink.summary("power/peak_node_w").value);
}

}  // namespace

TEST_CASE("facility node power follows the cluster's node preset and overrides", "[tools][facility]") {
  const double h100 = peak_node_w({"cluster.node.preset=hgx-h100"});
  const double a100 = peak_node_w({"cluster.node.preset=dgx-a100"});
  const double h200 = peak_node_w({"cluster.node.preset=hgx-h200"});
  // 7.38 kW: the bottom-up H100 node with D2C (fans at their floor, the host at a GPU job's
  // load), as in the golden above.
  CHECK(h100 == Approx(7'375.0).epsilon(0.02));
  // 8 x 400 W instead of 8 x 700 W: 2.4 kW less DC power, ~2.5 kW at the inlet through PSUs at
  // ~96% (the A100's lower idle power, 55 vs 84 W, is not drawn at full load). The other parts
  // keep the bottom-up defaults, so the GPUs are the whole difference.
  CHECK(h100 - a100 == Approx(2'400.0 / 0.96).epsilon(0.05));
  // Same 700 W GPU and chassis: same power.
  CHECK(h200 == Approx(h100).epsilon(1e-6));
  // A /cluster/node/gpu_max_power override reaches the facility: 8 x 100 W less.
  const double h100_600 = peak_node_w({"cluster.node.preset=hgx-h100", "cluster.node.gpu_max_power=600 W"});
  CHECK(h100 - h100_600 == Approx(800.0 / 0.96).epsilon(0.05));
  // As does the GPU count: 4 GPUs draw about half the GPU power.
  const double h100_4 = peak_node_w({"cluster.node.preset=hgx-h100", "cluster.node.gpus=4"});
  CHECK(h100 - h100_4 == Approx(4 * 700.0 / 0.96).epsilon(0.05));
}

namespace {

struct TrainingRun {
  double tokens_per_s;       // summary/jobs: realised, tokens per step x steps / training time
  double min_series_tps;     // lowest non-zero point of jobs/<name>/tokens_per_s
  double throttled_gpu_s;
  double max_gpu_c;
};

// cooling-failure.json with its jobs replaced by one training job on all 10 nodes (llama3-8b,
// TP 2 x DP 40, no checkpoints) that runs through the whole 4 h; with_fault false drops the
// pump failure (1 h to 1 h 20 min at 10% flow).
TrainingRun train_through_pump_failure(bool with_fault) {
  auto doc = nlohmann::json::parse(
      std::ifstream(std::string(DCSIM_SOURCE_DIR) + "/scenarios/cooling-failure.json"));
  doc["workload"] = nlohmann::json::parse(R"({
    "training": [ { "name": "llama", "model": "llama3-8b", "nodes": 10,
                    "parallelism": { "tp": 2, "pp": 1, "zero_stage": 1 },
                    "micro_batch_size": 1, "global_batch": 640, "steps": 100000 } ] })");
  // Every phase at the GPUs' limit (TDP-flat, as this test's figures were measured): the pump
  // failure, not the step's phase mix (gpu_phase_power.hpp), is what it is about.
  doc["cluster"]["gpu_phase_power"] = nlohmann::json::parse(R"({ "memory_sm_activity": 1, "comm_sm_fraction": 1,
                                                               "comm_hbm_fraction": 1, "bubble_activity": 1 })");
  if (!with_fault) doc["faults"] = nlohmann::json::array();
  const auto scenario = tools::scenario::load_scenario_json(doc, "cooling-failure-training.json", {}, std::nullopt, registries());
  sim::MemoryTraceSink sink;
  tools::run::simulate(scenario, registries(), sink);
  TrainingRun out{};
  const auto& table = sink.table("summary/jobs");
  REQUIRE(table.rows.size() == 1);
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == "tokens_per_s") out.tokens_per_s = std::get<double>(table.rows[0][i]);
  }
  out.min_series_tps = std::numeric_limits<double>::infinity();
  for (double v : sink.series("jobs/llama/tokens_per_s").value) {
    if (v > 0.0) out.min_series_tps = std::min(out.min_series_tps, v);
  }
  out.throttled_gpu_s = std::get<double>(sink.summary("thermal/throttled_gpu_s").value);
  out.max_gpu_c = std::get<double>(sink.summary("thermal/max_gpu_c").value);
  return out;
}

}  // namespace

TEST_CASE("a failed CDU pump throttles the GPUs and lowers a training job's tokens/s", "[tools][facility]") {
  const TrainingRun healthy = train_through_pump_failure(false);
  const TrainingRun failed = train_through_pump_failure(true);
  // Without the fault the PI control holds the dies far below slowdown: no throttling, and the
  // series never drops below the job's throughput (one value while it runs).
  CHECK(healthy.throttled_gpu_s == 0.0);
  CHECK(healthy.max_gpu_c < 80.0);
  CHECK(healthy.min_series_tps == Approx(healthy.tokens_per_s).epsilon(1e-6));
  // With it the dies reach the 89 C slowdown and throttle ...
  CHECK(failed.throttled_gpu_s > 0.0);
  CHECK(failed.max_gpu_c >= 88.0);
  // ... the series shows the slowed steps while it lasts ...
  CHECK(failed.min_series_tps < 0.8 * healthy.tokens_per_s);
  // ... and the job's realised throughput over the 4 h is lower: 3.3% (measured 734,875 vs
  // 759,795 tokens/s; the slowest node sets the step, ~half speed for most of the 20 min).
  CHECK(failed.tokens_per_s < healthy.tokens_per_s);
  CHECK(failed.tokens_per_s / healthy.tokens_per_s == Approx(0.967).margin(0.01));
}
