// The elastic failover policy: a training job that loses a node goes on at once on its remaining
// data-parallel replicas, at their throughput, and grows back when nodes free up. Times worked
// out by hand from the step times the step model gives for 4 and 3 replicas.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <variant>

#include "models/cluster/cluster_simulation.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/training_job.hpp"
#include "models/model_registries.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

namespace mw = dcsim::models::workload;
using dcsim::tests::builtin;

namespace {

constexpr double kTimeTol = 1e-6;  // relative; activity ends are rounded up to whole ns

// BERT-Large with TP 8 on 4 HGX H100 nodes: one node is one data-parallel replica (DP 4), so a
// node fault takes exactly one replica down. A global batch of 48 sequences (micro-batches of
// 1): 12 micro-batches per replica on 4 replicas, 16 on 3. 100 steps, no checkpoints (ZeRO 0:
// every replica holds the whole state, so nothing is reloaded).
ClusterConfig dp4(const ModelRegistries& reg, int cluster_nodes = 4) {
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = cluster_nodes;
  c.nodes_per_rack = 4;
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 4;
  t.job.parallelism.tp = 8;
  t.job.micro_batch_size = 1;
  t.job.global_batch_sequences = 48;
  t.steps = 100;
  t.fabric.nics_per_node = c.node.compute_nics;
  t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(t);
  c.failover = "elastic";
  c.failover_params.set_number("reconfigure_time", 60);
  return c;
}

struct Faulty {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  ModelRegistries reg = builtin();
  std::unique_ptr<ClusterSimulation> model;

  void build(ClusterConfig c) {
    model = std::make_unique<ClusterSimulation>(std::move(c), reg, sim, sink);
    model->start();
  }
  void at(double t_s, std::function<void(ClusterSimulation&)> what) {
    sim.at(
        Time::from_seconds(t_s), [this, what] { what(*model); }, dcsim::sim::Priority::kFirst);
  }
  void to_end() {
    sim.run();
    model->finish();
  }
  double num(const std::string& column) const {
    return std::get<double>(dcsim::tests::row_cell(sink, "jobs", "bert", column));
  }
  std::string text(const std::string& column) const {
    return std::get<std::string>(dcsim::tests::row_cell(sink, "jobs", "bert", column));
  }
  double summary(const std::string& path) const {
    return std::get<double>(sink.summary(path).value);
  }
  std::int64_t count(const std::string& path) const {
    return std::get<std::int64_t>(sink.summary(path).value);
  }
  std::vector<std::string> transitions() const {
    std::vector<std::string> out;
    for (const auto& row : sink.table("job_states").rows) {
      out.push_back(std::get<std::string>(row[2]) + ">" + std::get<std::string>(row[3]) + ":" +
                    std::get<std::string>(row[4]));
    }
    return out;
  }
};

struct StepTimes {
  double full_s;   // 4 replicas
  double three_s;  // 3 replicas, the global batch kept
};

StepTimes step_times(const ClusterConfig& c, const ModelRegistries& reg) {
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
  const auto three = mw::replan_data_parallel(plan, 3, c.node, reg.collective_algorithms);
  return {plan.step.step_time_s, three.step.step_time_s};
}

}  // namespace

TEST_CASE(
    "three replicas keep the global batch with a third more micro-batches: about 3/4 the "
    "throughput",
    "[models][datacenter][elastic]") {
  const ModelRegistries reg = builtin();
  const ClusterConfig c = dp4(reg);
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
  const auto three = mw::replan_data_parallel(plan, 3, c.node, reg.collective_algorithms);
  CHECK(plan.step.micro_batches == 12);
  CHECK(three.step.micro_batches == 16);
  CHECK(three.job.nodes == 3);
  // Compute scales with the micro-batches (16 / 12); the gradient all-reduce over 3 ranks moves
  // 2 (3 - 1) / 3 of the bytes instead of 2 (4 - 1) / 4, so the step grows a little less than 4/3.
  const double ratio = three.step.step_time_s / plan.step.step_time_s;
  CHECK(ratio < 4.0 / 3.0);
  CHECK(ratio > 0.95 * 4.0 / 3.0);
  // The step still trains 48 sequences: throughput in tokens/s falls by the same ratio.
  CHECK(three.step.tokens_per_step == plan.step.tokens_per_step);
  CHECK(three.step.tokens_per_s == Approx(plan.step.tokens_per_s / ratio).epsilon(kTimeTol));
  // The same checkpoint over fewer nodes: a larger share each.
  CHECK(three.checkpoint_bytes_per_node == Approx(plan.checkpoint_bytes_per_node * 4.0 / 3.0));
}

TEST_CASE(
    "an elastic DP-4 job that loses a node runs on 3 replicas until the repair, then grows back",
    "[models][datacenter][elastic]") {
  Faulty f;
  ClusterConfig c = dp4(f.reg);
  const auto [T4, T3] = step_times(c, f.reg);
  const double R = 60.0;  // reconfigure_time
  // Node 2 fails half-way through step 11: 10 whole steps are kept by the 3 surviving replicas
  // (ZeRO 0: each holds the whole state), the half step is redone. After R the job runs on
  // nodes 0, 1, 3 at T3 a step. The repair comes 20.25 steps into that: 30 whole steps, a
  // quarter step lost, and after R again the job runs its last 70 steps on all 4 nodes at T4.
  const double t_fault = 10.5 * T4;
  const double t_repair = t_fault + R + 20.25 * T3;
  f.build(c);
  f.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(2, "gpu"); });
  f.at(t_repair, [](ClusterSimulation& m) { m.set_node_up(2); });
  f.to_end();
  CHECK(f.num("finish_s") == Approx(t_repair + R + 70 * T4).epsilon(kTimeTol));
  CHECK(f.num("steps_done") == 100);
  CHECK(f.text("node_list") == "0 1 3 2");
  // Lost: half a step on 32 GPUs, a quarter step on 24.
  CHECK(f.num("lost_gpu_h") == Approx((0.5 * T4 * 32 + 0.25 * T3 * 24) / 3600).epsilon(kTimeTol));
  // Held: 32 GPUs until the fault, 24 while shrunk, 32 after the repair; each re-formation
  // holds the job's nodes for R without work; 8 GPUs were missing from the fault to the repair.
  const double finish = f.num("finish_s");
  CHECK(f.summary("goodput/allocated_gpu_h") ==
        Approx((32 * t_fault + 24 * (t_repair - t_fault) + 32 * (finish - t_repair)) / 3600)
            .epsilon(kTimeTol));
  CHECK(f.summary("goodput/restart_gpu_h") == Approx((24 * R + 32 * R) / 3600).epsilon(kTimeTol));
  CHECK(f.summary("goodput/shrunk_missing_gpu_h") ==
        Approx(8 * (t_repair - t_fault) / 3600).epsilon(kTimeTol));
  CHECK(f.count("reliability/elastic_shrinks") == 1);
  CHECK(f.count("reliability/elastic_expands") == 1);
  CHECK(f.count("reliability/interruptions_total") == 1);
  CHECK(f.transitions() == std::vector<std::string>{"waiting>running:", "running>interrupted:gpu",
                                                    "interrupted>running:elastic_shrink",
                                                    "running>running:elastic_expand",
                                                    "running>completed:"});
}

TEST_CASE("an elastic job with a free node re-forms at its full size at once",
          "[models][datacenter][elastic]") {
  Faulty f;
  ClusterConfig c = dp4(f.reg, 5);  // node 4 idle
  const auto [T4, T3] = step_times(c, f.reg);
  const double t_fault = 10.5 * T4;
  f.build(c);
  f.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(1, "gpu"); });
  f.to_end();
  // The column of node 1 is replaced by node 4: 10 steps kept, R, then 90 steps at T4.
  CHECK(f.num("finish_s") == Approx(t_fault + 60 + 90 * T4).epsilon(kTimeTol));
  CHECK(f.text("node_list") == "0 2 3 4");
  CHECK(f.count("reliability/elastic_reforms") == 1);
  CHECK(f.count("reliability/elastic_shrinks") == 0);
}

TEST_CASE("with ZeRO-sharded optimizer state a re-formed job reloads its last checkpoint",
          "[models][datacenter][elastic]") {
  Faulty f;
  ClusterConfig c = dp4(f.reg, 5);
  c.training_jobs[0].job.parallelism.zero_stage =
      1;  // the lost rank's optimizer shard is only in the checkpoint
  c.training_jobs[0].checkpoint.interval_steps = 20;
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double T = plan.step.step_time_s;
  const double C = plan.checkpoint_s;
  REQUIRE(C > 0);
  const double t_fault = 20 * T + C + 5.5 * T;  // 25.5 steps done, 20 saved
  f.build(c);
  f.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(1, "gpu"); });
  f.to_end();
  // Lost: 5.5 steps on 32 GPUs. Back after R + the reload (C: reading is as fast as writing),
  // from step 20: 80 steps and the checkpoints at 40, 60, 80.
  CHECK(f.num("lost_gpu_h") == Approx(5.5 * T * 32 / 3600).epsilon(kTimeTol));
  CHECK(f.num("finish_s") == Approx(t_fault + 60 + C + 80 * T + 3 * C).epsilon(kTimeTol));
  CHECK(f.count("reliability/elastic_reforms") == 1);
}

TEST_CASE("elastic falls back to checkpoint_restart below min_replicas",
          "[models][datacenter][elastic]") {
  Faulty f;
  ClusterConfig c = dp4(f.reg, 4);
  c.failover_params.set_number("min_replicas", 1.0);  // no fewer than 4 replicas
  c.failover_params.set_number("relaunch_overhead", 0);
  const auto [T4, T3] = step_times(c, f.reg);
  f.build(c);
  f.at(10.5 * T4, [](ClusterSimulation& m) { m.set_node_down(2, "gpu"); });
  f.at(10.5 * T4 + 1000, [](ClusterSimulation& m) { m.set_node_up(2); });
  f.to_end();
  // Nothing saved (no checkpoints): it waits for the repair and starts over.
  CHECK(f.num("finish_s") == Approx(10.5 * T4 + 1000 + 100 * T4).epsilon(kTimeTol));
  CHECK(f.count("reliability/elastic_shrinks") == 0);
  CHECK(f.transitions()[2] == "interrupted>requeued:resume from checkpoint");
}

TEST_CASE("jobs that are not data-parallel across nodes fall back to checkpoint_restart",
          "[models][datacenter][elastic]") {
  // DP 1 (TP 8 on one node) and a batch job: neither has replicas to go on with.
  Faulty f;
  ClusterConfig c = dp4(f.reg, 3);
  c.training_jobs[0].job.nodes = 1;
  c.training_jobs[0].job.global_batch_sequences = 0;
  c.jobs.push_back(dcsim::tests::job("batch", Time::zero(), 1, Time::from_seconds(100), 1.0));
  c.failover_params.set_number("relaunch_overhead", 0);
  f.build(c);
  f.at(10, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.at(11, [](ClusterSimulation& m) { m.set_node_down(1, "gpu"); });
  f.at(20, [](ClusterSimulation& m) { m.set_node_up(0); });  // the batch job's way back
  f.to_end();
  CHECK(f.count("reliability/interruptions_total") == 2);
  CHECK(f.count("reliability/elastic_shrinks") + f.count("reliability/elastic_reforms") == 0);
  CHECK(f.count("workload/jobs_completed") == 2);
}

TEST_CASE("state_recovery replicas keeps a ZeRO-sharded job's steps: its optimizer shards are assumed redundant",
          "[models][datacenter][elastic]") {
  // The case above with state_recovery = replicas (Bamboo or Oobleck-style redundancy): the
  // survivors hold every shard, so only the half step in flight is lost and nothing is reloaded.
  Faulty f;
  ClusterConfig c = dp4(f.reg, 5);
  c.training_jobs[0].job.parallelism.zero_stage = 1;
  c.training_jobs[0].checkpoint.interval_steps = 20;
  c.failover_params.set_text("state_recovery", "replicas");
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double T = plan.step.step_time_s;
  const double C = plan.checkpoint_s;
  const double t_fault = 20 * T + C + 5.5 * T;
  f.build(c);
  f.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(1, "gpu"); });
  f.to_end();
  // 25 steps kept; after R, 75 steps and the checkpoints at 40, 60, 80.
  CHECK(f.num("lost_gpu_h") == Approx(0.5 * T * 32 / 3600).epsilon(kTimeTol));
  CHECK(f.num("finish_s") == Approx(t_fault + 60 + 75 * T + 3 * C).epsilon(kTimeTol));
}
