// /uplink/checkpoint_copies/staging_slots through the whole stack: a job whose off-site copies
// fill its staging space stalls at its next checkpoint (CheckpointGate) until a copy finishes.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tests/table_test_support.hpp"
#include "tests/tools/run/run_test_support.hpp"

using dcsim::tests::row_cell;
using dcsim::tools::run::simulate;
using dcsim::tools::scenario::load_scenario_json;

namespace {

constexpr double kTol = 1e-9;
constexpr double kStepTol = 1e-7;
constexpr double kGpus = 8.0;

// llama3-8b on one HGX H100 node (TP 8), 20 steps, a checkpoint after steps 5, 10 and 15 (none
// after the last), every one copied off-site over one 1 Gb/s port. A copy (14 B x 8.03e9
// parameters = 112.4 GB) takes 899.4 s on 1 Gb/s; five steps take 0.75 s: copies take far longer
// than the checkpoint interval.
nlohmann::json staging_scenario() {
  return nlohmann::json::parse(R"({
    "name": "staging", "seed": 1,
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 1, "nodes_per_rack": 1 },
    "workload": { "training": [ { "name": "llama", "model": "llama3-8b", "nodes": 1, "steps": 20,
                                  "parallelism": { "tp": 8 }, "checkpoint": { "interval": 5 } } ] },
    "uplink": { "ports": [ { "speed": "1 Gb/s", "count": 1 } ], "checkpoint_copies": { "every_nth": 1 } } })");
}

struct Run : dcsim::test::RunOutputs {
  double job(const std::string& column) const { return std::get<double>(row_cell(sink, "jobs", "llama", column)); }
  struct State {
    double at_s;
    std::string from, to, cause;
  };
  std::vector<State> states() const {
    std::vector<State> out;
    for (const auto& r : sink.table("job_states").rows) {
      out.push_back({std::get<double>(r[0]), std::get<std::string>(r[2]), std::get<std::string>(r[3]),
                     std::get<std::string>(r[4])});
    }
    return out;
  }
  // Copy k's (0-based) column of /events/uplink/transfers.
  double copy(std::size_t k, std::size_t column) const {
    const auto& rows = sink.table("uplink/transfers").rows;
    REQUIRE(k < rows.size());
    return std::get<double>(rows[k][column]);
  }
};

std::unique_ptr<Run> run(nlohmann::json doc, const std::vector<std::string>& sets = {}) {
  return dcsim::test::run_scenario_json<Run>(std::move(doc), sets);
}

std::string error_of(nlohmann::json doc, const std::vector<std::string>& sets) {
  return dcsim::test::input_error_of(std::move(doc), sets);
}

// Stalled time summed from the job_states rows: from each "-> stalled" to the row that ends it.
double stalled_from_rows(const std::vector<Run::State>& states) {
  double sum = 0.0, since = -1.0;
  for (const auto& s : states) {
    if (s.to == "stalled") since = s.at_s;
    if (s.from == "stalled") sum += s.at_s - since;
  }
  return sum;
}

}  // namespace

TEST_CASE("with one staging slot each checkpoint waits for the previous copy: completion by hand",
          "[run][uplink][staging]") {
  const auto unlimited = run(staging_scenario());
  const auto one = run(staging_scenario(), {"uplink.checkpoint_copies.staging_slots=1"});
  // S = step time, W = one checkpoint write, C = one copy alone on the port, k = 5 steps between
  // checkpoints, m = 3 checkpoints, N = 20 steps.
  const double S = unlimited->job("step_time_s");
  const double W = unlimited->job("checkpoint_s") / 3;
  const double bytes = unlimited->job("checkpoint_bytes") / 3;
  const double C = bytes * 8 / 1e9;
  REQUIRE(C > 5 * S);  // 899.4 s against 0.75 s
  // Unlimited: N S + m W = 20 x 0.149 + 3 x 7.03 = 24.06 s; the copies just queue behind each other.
  CHECK(unlimited->job("finish_s") == Approx(20 * S + 3 * W).epsilon(kTol));
  CHECK(unlimited->number("uplink/job_stall_s") == 0.0);
  CHECK(unlimited->number("uplink/staged_checkpoints_max") == 3);  // all three queued at once
  // One slot: checkpoint 1 is written at t1 = 5S + W and its copy runs to t1 + C. Checkpoint 2 is
  // due at t1 + 5S < t1 + C: the job stalls C - 5S, writes at t1 + C, done at t1 + C + W, when
  // copy 2 starts (to t1 + 2C + W). Checkpoint 3 likewise waits C - 5S. Then 5 more steps:
  //   finish = N S + m W + (m - 1)(C - 5S) = 24.06 + 2 x 898.6 = 1821.3 s.
  const double stall = 2 * (C - 5 * S);
  CHECK(one->job("finish_s") == Approx(20 * S + 3 * W + stall).epsilon(kTol));
  CHECK(one->number("uplink/job_stall_s") == Approx(stall).epsilon(kTol));
  CHECK(one->job("stall_s") == Approx(stall).epsilon(kTol));
  CHECK(one->number("goodput/stalled_gpu_h") == Approx(stall * kGpus / 3600).epsilon(kTol));
  CHECK(one->number("uplink/staged_checkpoints_max") == 1);
  // Each copy starts as its checkpoint is written: none waits behind another.
  CHECK(one->number("uplink/queue_wait_max_s") == 0.0);
  CHECK(one->copy(1, 4) == Approx(5 * S + W + C + W).epsilon(kTol));  // copy 2's start
  // The job_states rows: running -> stalled at t1 + 5S, back at t1 + C, cause "off-site copy".
  const auto states = one->states();
  std::vector<Run::State> stalls;
  for (const auto& s : states) {
    if (s.to == "stalled" || s.from == "stalled") stalls.push_back(s);
  }
  REQUIRE(stalls.size() == 4);
  CHECK(stalls[0].from == "running");
  CHECK(stalls[0].cause == "off-site copy");
  CHECK(stalls[0].at_s == Approx(10 * S + W).epsilon(kTol));
  CHECK(stalls[1].to == "running");
  CHECK(stalls[1].at_s == Approx(5 * S + W + C).epsilon(kTol));
  CHECK(stalled_from_rows(states) == Approx(stall).epsilon(kTol));
  // The copies never queue behind each other: the port binds when the job first stalls.
  CHECK(one->number("uplink/binds_at_s") == Approx(stalls[0].at_s).epsilon(kTol));
  CHECK(std::get<std::string>(one->sink.summary("uplink/binding_queue").value) == "checkpoint-copies/llama");
  // Stalled GPUs idle: the node's power then is its power once the job is done (idle).
  const auto& power = one->sink.series("power/cluster_w");
  const auto stalled_ns = static_cast<std::int64_t>(std::llround(stalls[0].at_s * 1e9));
  double at_stall = -1.0, training = -1.0;
  for (std::size_t i = 0; i < power.time_ns.size(); ++i) {
    if (power.time_ns[i] == 0) training = power.value[i];
    if (std::llabs(power.time_ns[i] - stalled_ns) <= 1) at_stall = power.value[i];
  }
  CHECK(at_stall == power.value.back());
  CHECK(at_stall < training);
}

TEST_CASE("unlimited staging leaves the job's time as without an uplink; a fast port never stalls it",
          "[run][uplink][staging]") {
  auto without = staging_scenario();
  without.erase("uplink");
  const auto none = run(without);
  const auto unlimited = run(staging_scenario());
  CHECK(unlimited->job("finish_s") == none->job("finish_s"));
  CHECK(unlimited->job("stall_s") == 0.0);
  // 10 Tb/s: a copy takes 0.09 s, done long before the next checkpoint (0.75 s of steps later).
  const auto fast = run(staging_scenario(), {"uplink.ports.0.speed=10 Tb/s", "uplink.checkpoint_copies.staging_slots=1"});
  CHECK(fast->job("finish_s") == none->job("finish_s"));
  CHECK(fast->number("uplink/job_stall_s") == 0.0);
  CHECK(fast->number("goodput/stalled_gpu_h") == 0.0);
  for (const auto& s : fast->states()) CHECK(s.to != "stalled");
  // Two slots on the slow port: the third checkpoint waits for the first copy (two staged).
  const auto two = run(staging_scenario(), {"uplink.checkpoint_copies.staging_slots=2"});
  const auto one = run(staging_scenario(), {"uplink.checkpoint_copies.staging_slots=1"});
  CHECK(two->number("uplink/job_stall_s") > 0.0);
  CHECK(two->number("uplink/job_stall_s") < one->number("uplink/job_stall_s"));
  CHECK(two->number("uplink/staged_checkpoints_max") == 2);
}

TEST_CASE("a fault during a stall ends it with the run; the job's queued copies keep going",
          "[run][uplink][staging]") {
  auto doc = staging_scenario();
  doc["uplink"]["checkpoint_copies"]["staging_slots"] = 1;
  const auto calm = run(doc);
  // The first stall runs from 10S + W (~8.5 s) to 5S + W + C (~907 s): crash the job at 100 s.
  doc["faults"] = nlohmann::json::parse(R"([{ "at": "100 s", "kind": "job_crash", "node": 0 }])");
  const auto crashed = run(doc);
  const auto states = crashed->states();
  bool interrupted_while_stalled = false;
  for (const auto& s : states) {
    if (s.to == "interrupted") {
      interrupted_while_stalled = s.from == "stalled";
      CHECK(s.at_s == Approx(100.0).epsilon(kTol));
    }
  }
  CHECK(interrupted_while_stalled);
  // Copy 1 is not the job's run: it finishes when it would have.
  CHECK(crashed->copy(0, 5) == Approx(calm->copy(0, 5)).epsilon(kTol));
  // Lost: steps 6-10, done after checkpoint 1, before the stall (8 GPUs). S here is the realised
  // mean (segments end on whole nanoseconds), the loss counts nominal steps: kStepTol apart.
  const double S = calm->job("step_time_s");
  CHECK(crashed->job("lost_gpu_h") == Approx(5 * S * kGpus / 3600).epsilon(kStepTol));
  CHECK(std::get<std::int64_t>(row_cell(crashed->sink, "jobs", "llama", "restarts")) == 1);
  CHECK(crashed->number("workload/jobs_completed") == 1);
  // Resumed from checkpoint 1, the new run stalls again at step 10 (copy 1 still in flight), and
  // is released with the same copy: no stall time accrues while the job is down.
  std::size_t stalls = 0;
  for (const auto& s : states) stalls += s.to == "stalled";
  CHECK(stalls == 3);
  CHECK(crashed->number("uplink/job_stall_s") == Approx(stalled_from_rows(states)).epsilon(kTol));
  CHECK(crashed->job("stall_s") == Approx(stalled_from_rows(states)).epsilon(kTol));
  CHECK(crashed->number("uplink/job_stall_s") < calm->number("uplink/job_stall_s"));
  // The same seed: identical outputs.
  const auto again = run(doc);
  CHECK(std::get<std::string>(again->sink.summary("engine/fingerprint").value) ==
        std::get<std::string>(crashed->sink.summary("engine/fingerprint").value));
  CHECK(again->number("uplink/job_stall_s") == crashed->number("uplink/job_stall_s"));
  CHECK(again->job("finish_s") == crashed->job("finish_s"));
  CHECK(again->sink.table("job_states").rows == crashed->sink.table("job_states").rows);
}

TEST_CASE("bad staging_slots exit with the JSON pointer", "[run][uplink][staging]") {
  const auto doc = staging_scenario();
  CHECK(error_of(doc, {"uplink.checkpoint_copies.staging_slots=3"}) == "no error");
  const std::string at = "<test>:/uplink/checkpoint_copies/staging_slots: ";
  CHECK_THAT(error_of(doc, {"uplink.checkpoint_copies.staging_slots=0"}),
             Catch::Contains(at + "expected a positive integer, got 0"));
  CHECK_THAT(error_of(doc, {"uplink.checkpoint_copies.staging_slots=-2"}),
             Catch::Contains(at + "expected a positive integer, got -2"));
  CHECK_THAT(error_of(doc, {"uplink.checkpoint_copies.staging_slots=two"}),
             Catch::Contains(at + "expected a positive integer, got \"two\""));
  CHECK_THAT(error_of(doc, {"uplink.checkpoint_copies.staging_slots=1.5"}),
             Catch::Contains(at + "expected a positive integer, got 1.5"));
}
