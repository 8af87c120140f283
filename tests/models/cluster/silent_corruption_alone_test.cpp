// Silent data corruption alone (models/cluster/silent_corruption.hpp): a host written by hand that
// says whether the job steps and records the rollbacks it is asked for; no cluster, no scheduler.
// The mechanism under a real cluster is in silent_corruption_test.cpp.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/cluster/silent_corruption.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using dcsim::models::cluster::SdcDetection;
using dcsim::models::cluster::SilentCorruption;
using dcsim::sim::Time;

namespace {

Time s(double seconds) { return Time::from_seconds(seconds); }

// One training job of 10 s steps whose kept checkpoints are at steps 100 and 200.
struct RecordingHost final : SilentCorruption::Host, dcsim::models::cluster::JobTable {
  struct RollBack {
    double at_s;
    int step;
    std::string cause;
    int node;
  };
  dcsim::sim::Simulator* sim = nullptr;
  bool is_stepping = true;
  std::vector<RollBack> roll_backs;
  std::vector<int> no_nodes;
  bool running(std::size_t) const override { return true; }
  bool stepping(std::size_t) const override { return is_stepping; }
  const std::vector<int>& nodes(std::size_t) const override { return no_nodes; }
  double step_time_s(std::size_t) const override { return 10.0; }
  int clean_checkpoint(std::size_t, int step) const override { return step >= 200 ? 200 : step >= 100 ? 100 : 0; }
  bool roll_back(std::size_t, int step, const std::string& cause, int node, Time quarantine) override {
    roll_backs.push_back({sim->now().seconds(), step, cause, node});
    return quarantine > Time::zero();
  }
};

std::int64_t count(const dcsim::sim::MemoryTraceSink& sink, const std::string& key) {
  return std::get<std::int64_t>(sink.summary("integrity/" + key).value);
}
double gpu_h(const dcsim::sim::MemoryTraceSink& sink) {
  return std::get<double>(sink.summary("integrity/corrupted_gpu_h").value);
}

struct Fixture {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  RecordingHost host;
  SilentCorruption corruption;
  explicit Fixture(double probability) : corruption(SdcDetection{probability, 3}, false, 7, host, host, sim, sink) {
    host.sim = &sim;
  }
};

}  // namespace

TEST_CASE("a caught corruption rolls the job back to its last clean checkpoint after the checks' latency",
          "[models][cluster][silent_corruption]") {
  // Corrupted at t = 0 past step 250: caught 3 steps x 10 s = 30 s later, back to checkpoint 200
  // (the one at or before 250), the node quarantined. 16 GPUs x 30 s corrupted = 480 GPU-s.
  Fixture f(1.0);
  f.corruption.count_fault(true);
  f.corruption.corrupt(0, "train", 16, 5, "sdc", s(3600), 250);
  f.sim.run();
  REQUIRE(f.host.roll_backs.size() == 1);
  CHECK(f.host.roll_backs[0].at_s == Approx(30.0));
  CHECK(f.host.roll_backs[0].step == 200);
  CHECK(f.host.roll_backs[0].cause == "sdc");
  CHECK(f.host.roll_backs[0].node == 5);
  f.corruption.finish();
  CHECK(count(f.sink, "caught") == 1);
  CHECK(count(f.sink, "quarantines") == 1);
  CHECK(count(f.sink, "corrupted_at_end") == 0);
  CHECK(gpu_h(f.sink) == Approx(480.0 / 3600.0));
  // corrupted, then caught (with the step rolled back to).
  const auto& rows = f.sink.table("integrity_events").rows;
  REQUIRE(rows.size() == 2);
  CHECK(std::get<std::string>(rows[1][3]) == "caught");
  CHECK(std::get<std::int64_t>(rows[1][4]) == 200);
}

TEST_CASE("a catch while the job is not stepping waits until it steps again", "[models][cluster][silent_corruption]") {
  // Caught at 30 s while restarting: nothing yet. It steps again at 100 s: its checks need
  // another 30 s, so the rollback comes at 130 s.
  Fixture f(1.0);
  f.corruption.corrupt(0, "train", 8, -1, "corrupt checkpoint", Time::zero(), 50);
  f.host.is_stepping = false;
  f.sim.run_until(s(100));
  CHECK(f.host.roll_backs.empty());
  f.host.is_stepping = true;
  f.corruption.job_stepping(0);
  f.sim.run();
  REQUIRE(f.host.roll_backs.size() == 1);
  CHECK(f.host.roll_backs[0].at_s == Approx(130.0));
  CHECK(f.host.roll_backs[0].step == 0);  // no checkpoint at or before step 50: from scratch
}

TEST_CASE("a missed corruption ends in a wrong result unless a restart from before it washes it out",
          "[models][cluster][silent_corruption]") {
  // Probability 0: never caught. Job 0 finishes on it at 60 s; job 1 restarts from step 100,
  // at or before its clean step 120, at 20 s: washed out.
  Fixture f(0.0);
  f.corruption.corrupt(0, "a", 8, 1, "sdc", Time::zero(), 300);
  f.corruption.corrupt(1, "b", 8, 2, "sdc", Time::zero(), 120);
  f.corruption.corrupt(1, "b", 8, 2, "sdc", Time::zero(), 130);  // again: changes nothing
  f.sim.run_until(s(20));
  f.corruption.restart_from(1, 100);
  f.sim.run_until(s(60));
  f.corruption.job_finished(0);
  f.corruption.finish();
  CHECK(f.host.roll_backs.empty());
  CHECK(count(f.sink, "jobs_corrupted") == 2);
  CHECK(count(f.sink, "missed") == 2);
  CHECK(count(f.sink, "washed_out") == 1);
  CHECK(count(f.sink, "wrong_results") == 1);
  // 8 GPUs x 60 s (job 0) + 8 GPUs x 20 s (job 1) = 640 GPU-s.
  CHECK(gpu_h(f.sink) == Approx(640.0 / 3600.0));
}

TEST_CASE("without detection settings a corruption is a bug, and nothing is reported",
          "[models][cluster][silent_corruption]") {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  RecordingHost host;
  SilentCorruption corruption(std::nullopt, false, 7, host, host, sim, sink);
  CHECK_THROWS_AS(corruption.corrupt(0, "train", 8, 0, "sdc", Time::zero(), 1), dcsim::sim::InternalError);
  corruption.finish();
  CHECK(sink.tables().empty());
  CHECK(sink.summary().empty());
}
