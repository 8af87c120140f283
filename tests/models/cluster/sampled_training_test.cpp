// Sampled flow mode (models/cluster/training_job_run.hpp): a training run's step runs as flows
// at its start and every `training_sample_every`, analytic segments at the measured step time
// between. On a quiet fabric it reproduces per-step flow mode; with faults and throttling,
// reusing a sample agrees with measuring every step; it samples as often as its interval says.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "models/cluster/training_fabric.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/workload/training_job.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::cluster::TrainingFabric;
using dcsim::tests::builtin;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;

namespace {

// llama3-8b, TP 8 x PP 2 x DP 2 on 4 of 5 HGX H100 nodes (one left for a restart): its steps
// have PP transfers, a 1F1B bubble and DP all-reduces on the fabric. NVMe checkpoints every
// `checkpoint_every` steps (0: none).
ClusterConfig llama_cluster(const ModelRegistries& reg, int steps, int checkpoint_every) {
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = 5;
  c.nodes_per_rack = 5;
  mw::TrainingJobSpec t;
  t.job.name = "llama";
  t.job.model = reg.training_models.get("llama3-8b").factory();
  t.job.nodes = 4;
  t.job.parallelism.tp = 8;
  t.job.parallelism.pp = 2;
  t.job.global_batch_sequences = 32;
  t.steps = steps;
  t.checkpoint.interval_steps = checkpoint_every;
  t.fabric.nics_per_node = c.node.compute_nics;
  t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(t);
  return c;
}

// What happens to the job's nodes, at times in units of the plan's step time (< 0: never).
struct Script {
  std::vector<std::pair<double, double>> clocks;  // (time, node 0's clock factor from then)
  double fault_at = -1.0, repair_at = -1.0;       // node 3 down (the job restarts on node 4) and up
  double link_down_at = -1.0, link_up_at = -1.0;  // the fabric's first switch-to-switch link
};

// Node 0 at 70% clock over steps ~150 to ~285 of the first run, each change in a segment's
// flight; node 3 fails at step ~353, so the job restarts (after the failover's delay) from its
// checkpoint at step 300 on nodes 0, 1, 2 and 4, where node 0 throttles again over steps ~340
// to ~380. No change falls near a checkpoint, in either mode. 180 + 50 plan steps throttled.
constexpr double kThrottled = 0.7;
Script faults_and_throttling() {
  Script s;
  s.clocks = {{150.5, kThrottled}, {330.5, 1.0}, {900.5, kThrottled}, {950.5, 1.0}};
  s.fault_at = 400.5;
  s.repair_at = 2000.0;
  return s;
}

struct Outcome {
  dcsim::sim::MemoryTraceSink sink;
  std::uint64_t fingerprint = 0;
  std::uint64_t flow_steps = 0;  // steps run as flows (samples), every run
  double cell(const std::string& column) const {
    return std::get<double>(dcsim::tests::row_cell(sink, "summary/jobs", "llama", column));
  }
  std::int64_t restarts() const {
    return std::get<std::int64_t>(dcsim::tests::row_cell(sink, "summary/jobs", "llama", "restarts"));
  }
};

// Runs `c` on the leaf-spine with steps sampled every `sample_every` (zero: every step as flows).
void run(const ModelRegistries& reg, ClusterConfig c, Time sample_every, const Script& s, Outcome& out) {
  const double unit = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms).step.step_time_s;
  c.training_sample_every = sample_every;
  dcsim::sim::Simulator sim;
  net::FabricOptions spray;
  spray.routing.mode = net::RoutingMode::kSpray;
  // Non-blocking, 3 leaves of 2 hosts, packet spraying: nothing but the job's traffic on it.
  net::Fabric fabric(dcsim::tests::leaf_spine(6), spray);
  net::FabricSimulation driver(sim, fabric, nullptr);
  ClusterSimulation cluster(c, reg, sim, out.sink);
  TrainingFabric training(sim, driver, {0, 1, 2, 3, 4});
  cluster.connect({.training_fabric = &training});
  const auto at = [&](double t, auto f) {
    if (t >= 0.0) sim.at(Time::from_seconds(t * unit), f);
  };
  for (const auto& [t, clock] : s.clocks) at(t, [&cluster, clock] { cluster.set_node_clock_factor(0, clock); });
  at(s.fault_at, [&] { cluster.set_node_down(3, "test"); });
  at(s.repair_at, [&] { cluster.set_node_up(3); });
  const auto& topology = fabric.topology();
  net::LinkId spine = 0;
  while (topology.link(spine).src < topology.host_count() || topology.link(spine).dst < topology.host_count()) ++spine;
  at(s.link_down_at, [&driver, spine] { driver.set_link_state(spine, false); });
  at(s.link_up_at, [&driver, spine] { driver.set_link_state(spine, true); });
  cluster.start();
  sim.run();
  cluster.finish();
  out.fingerprint = sim.fingerprint();
  out.flow_steps = training.steps_executed();
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same_table(const dcsim::sim::MemoryTraceSink& a, const dcsim::sim::MemoryTraceSink& b, const std::string& path) {
  const auto& x = a.table(path).rows;
  const auto& y = b.table(path).rows;
  if (x.size() != y.size()) return false;
  for (std::size_t r = 0; r < x.size(); ++r) {
    for (std::size_t i = 0; i < x[r].size(); ++i) {
      const auto* u = std::get_if<double>(&x[r][i]);
      const auto* v = std::get_if<double>(&y[r][i]);
      if (u != nullptr && v != nullptr ? !same_bits(*u, *v) : x[r][i] != y[r][i]) return false;
    }
  }
  return true;
}

const Time kLong = Time::from_s(1000 * 3600);  // longer than any run here: one sample per run
const Time kEveryStep = Time::from_ns(1);      // shorter than a step: every step a sample

}  // namespace

TEST_CASE("on a quiet fabric a sampled run steps as the per-step flow run does",
          "[models][datacenter][training][flow][sampled]") {
  const auto reg = builtin();
  const ClusterConfig c = llama_cluster(reg, 400, 50);
  Outcome steps, sampled;
  run(reg, c, Time::zero(), {}, steps);
  run(reg, c, kLong, {}, sampled);
  // Nothing but the job on the fabric, the clock nominal: every step measures the same, so the
  // one sample is every step's time and its breakdown. Equal to rounding: the segments take the
  // sample's step time as measured; the job table's means differ only in summation order.
  constexpr double kSumTol = 1e-12;
  for (const char* column : {"step_time_s", "compute_s", "exposed_comm_s", "bubble_s"}) {
    INFO(column);
    CHECK(sampled.cell(column) == Approx(steps.cell(column)).epsilon(kSumTol));
  }
  CHECK(sampled.cell("bubble_s") > 0.0);  // the pipeline shows in the sample
  CHECK(sampled.cell("checkpoints") == steps.cell("checkpoints"));
  CHECK(sampled.cell("steps_done") == 400.0);
  CHECK(sampled.flow_steps == 1);
  CHECK(steps.flow_steps == 400);
  // Per step, every step lasts whole nanoseconds; a segment of n steps ends at n x that time,
  // rounded up to the nanosecond: the makespans differ by at most a nanosecond per segment
  // (8 here: one per checkpoint interval).
  const auto segments = static_cast<double>(sampled.sink.table("training_steps").rows.size());
  CHECK(std::abs(sampled.cell("finish_s") - steps.cell("finish_s")) <= segments * 1e-9);
  // Rows: per step, one per checkpoint interval (identical steps); sampled, the sample's row and
  // then one per segment.
  CHECK(steps.sink.table("training_steps").rows.size() == 8);
  CHECK(segments == 9);
}

TEST_CASE("with faults and throttling, reusing a sample gives what measuring every step gives",
          "[models][datacenter][training][flow][sampled]") {
  const auto reg = builtin();
  const ClusterConfig c = llama_cluster(reg, 600, 100);
  const double unit = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms).step.step_time_s;
  Outcome reuse, recompute;
  run(reg, c, kLong, faults_and_throttling(), reuse);
  run(reg, c, kEveryStep, faults_and_throttling(), recompute);
  // The first run's sample, at full clock: step = compute c + exposed communication e + bubble b.
  const auto& sample = reuse.sink.table("training_steps").rows.front();
  const double c_s = std::get<double>(sample[6]), e_s = std::get<double>(sample[7]), b_s = std::get<double>(sample[8]);
  // Throttled by r = 1 / 0.7, a step's compute c takes c x r, and what the critical stage waited
  // for (e + b: communication, other stages' compute and transfers) between e + b (none of it
  // stretches) and (e + b) x r (all of it does). Reuse stretches b and keeps e; a measurement
  // falls anywhere in that band: they differ by at most w = (e + b)(r - 1) per throttled step,
  // of which there are at most the 230 throttled plan steps' time over c x r + e + b.
  const double r = 1.0 / kThrottled;
  const double w = (e_s + b_s) * (r - 1.0);
  const double throttled_steps = 230.0 * unit / (c_s * r + e_s + b_s);
  INFO("reuse finish " << reuse.cell("finish_s") << " s, step " << reuse.cell("step_time_s") << " s; recompute "
                       << recompute.cell("finish_s") << " s, step " << recompute.cell("step_time_s") << " s; bound "
                       << w * throttled_steps << " s");
  CHECK(std::abs(reuse.cell("finish_s") - recompute.cell("finish_s")) <= w * throttled_steps);
  // The job's mean step is over at least its 600 steps.
  CHECK(std::abs(reuse.cell("step_time_s") - recompute.cell("step_time_s")) <= w * throttled_steps / 600.0);
  CHECK(reuse.cell("step_time_s") > 1.01 * (c_s + e_s + b_s));  // the throttling shows
  // The band is wide; the two are close (0.26 s of 1,600 s): this job's bubble is nearly all
  // other stages' compute, and a slower backward hides little more of its all-reduce.
  // The same restart, the same checkpoints, every step done: both lost the same progress.
  for (const char* column : {"steps_done", "checkpoints"}) {
    INFO(column);
    CHECK(reuse.cell(column) == recompute.cell(column));
  }
  CHECK(reuse.restarts() == 1);
  CHECK(recompute.restarts() == 1);
  // One sample per run (the first run's and the restarted one's); measuring, every step.
  CHECK(reuse.flow_steps == 2);
  CHECK(recompute.flow_steps >= 600);
}

TEST_CASE("a sampled run takes one sample per interval, at the step in flight at each grid point",
          "[models][datacenter][training][flow][sampled]") {
  const auto reg = builtin();
  const ClusterConfig c = llama_cluster(reg, 1000, 0);
  Outcome once;
  run(reg, c, kLong, {}, once);
  const double span_s = once.cell("finish_s");  // the run, from its first step at 0
  // Samples fall on the steps in flight at k x H, k = 0, 1, ... while k x H < span: ceil(span / H)
  // of them. H = span / 4.5 puts every grid point mid-run, far from the run's ends.
  const double every_s = span_s / 4.5;
  Outcome sampled;
  run(reg, c, Time::from_seconds(every_s), {}, sampled);
  CHECK(sampled.flow_steps == static_cast<std::uint64_t>(std::ceil(span_s / every_s)));
  CHECK(sampled.flow_steps == 5);
  CHECK(sampled.cell("finish_s") == Approx(span_s).margin(1e-6));
  // A link going down and coming back: each seen at the end of the segment in flight (here at
  // the checkpoints after steps 200 and 400), where the next step is a sample.
  ClusterConfig with_checkpoints = llama_cluster(reg, 1000, 100);
  Script link;
  link.link_down_at = 150.5;
  link.link_up_at = 350.5;
  Outcome flapped;
  run(reg, with_checkpoints, kLong, link, flapped);
  CHECK(flapped.flow_steps == 3);
  // An interval shorter than a step samples every step: per-step flow mode, event for event.
  Outcome every, steps;
  run(reg, c, kEveryStep, {}, every);
  run(reg, c, Time::zero(), {}, steps);
  CHECK(every.flow_steps == 1000);
  CHECK(every.fingerprint == steps.fingerprint);
  CHECK(same_table(every.sink, steps.sink, "training_steps"));
}

TEST_CASE("sampled: the same seed gives the same outputs", "[models][datacenter][training][flow][sampled]") {
  const auto reg = builtin();
  ClusterConfig c = llama_cluster(reg, 600, 100);
  c.seed = 7;
  const Script s = faults_and_throttling();
  const Time every = Time::from_seconds(
      100.0 * mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms).step.step_time_s);
  Outcome a, b;
  run(reg, c, every, s, a);
  run(reg, c, every, s, b);
  CHECK(a.flow_steps > 2);
  CHECK(a.fingerprint == b.fingerprint);
  CHECK(same_table(a.sink, b.sink, "training_steps"));
  CHECK(same_table(a.sink, b.sink, "summary/jobs"));
  const auto& x = a.sink.series("jobs/llama/step_time_s");
  const auto& y = b.sink.series("jobs/llama/step_time_s");
  CHECK(x.time_ns == y.time_ns);
  REQUIRE(x.value.size() == y.value.size());
  for (std::size_t i = 0; i < x.value.size(); ++i) CHECK(same_bits(x.value[i], y.value[i]));
}
