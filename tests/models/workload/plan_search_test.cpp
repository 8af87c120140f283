// The automatic parallel plan (issue 37, item 2): search_training_plan against the brute force, a
// published plan, pins and jobs no plan fits.
#include <catch2/catch.hpp>

#include <string>

#include "models/hardware/node_presets.hpp"
#include "models/workload/plan_search.hpp"
#include "sim/error.hpp"
#include "tests/models/workload/collective_registry.hpp"
#include "tests/models/workload/llama405b_plan.hpp"

using namespace dcsim::models;
namespace mw = dcsim::models::workload;

namespace {

// A small transformer on 2 nodes of 8 H100s: every dimension of the space has several choices
// (tp 1-8, cp 1-16, pp 1-4, 32 sequences), yet the brute force stays about 140,000 plans.
mw::TrainingJobConfig small_job() {
  mw::TrainingJobConfig j;
  j.name = "small";
  j.model = mw::llama3_8b();
  j.model.layers = 4;
  j.model.seq_len = 1024;
  j.nodes = 2;
  j.global_batch_sequences = 32;
  return j;
}

bool same_plan(const mw::TrainingJobConfig& a, const mw::TrainingJobConfig& b) {
  const auto &p = a.parallelism, &q = b.parallelism;
  return p.tp == q.tp && p.pp == q.pp && p.cp == q.cp && p.virtual_stages == q.virtual_stages &&
         p.zero_stage == q.zero_stage && p.distributed_optimizer == q.distributed_optimizer &&
         p.sequence_parallel == q.sequence_parallel && p.tp_comm_overlap == q.tp_comm_overlap &&
         a.micro_batch_size == b.micro_batch_size && a.recompute == b.recompute;
}

}  // namespace

// Pruning by divisibility and memory only skips the step model for plans it would refuse: the
// brute force (every enumerated plan through estimate_training_step, refusals caught) accepts
// exactly the plans that survive them (evaluated, or skipped by the compute bound), and finds the
// same best and runner-up. The HBM is cut to 6 GB usable so that memory, not only divisibility,
// prunes.
TEST_CASE("pruning by divisibility and memory drops no plan the step model accepts", "[models][workload][plan]") {
  const auto reg = mw::test::collective_registry();
  mw::TrainingJobConfig j = small_job();
  j.memory_reserve_bytes = hardware::hgx_h100().gpu.hbm_bytes - 6e9;
  mw::PlanSearchOptions brute, unbounded;
  brute.prune = false;
  unbounded.bound = false;
  const auto fitting = mw::search_training_plan(j, hardware::hgx_h100(), {}, reg, {}, {}, unbounded);
  const auto pruned = mw::search_training_plan(j, hardware::hgx_h100(), {}, reg);
  const auto all = mw::search_training_plan(j, hardware::hgx_h100(), {}, reg, {}, {}, brute);
  INFO(mw::describe_plan(pruned.best.job, pruned.best.step));
  CHECK(pruned.enumerated == all.enumerated);
  CHECK(all.evaluated == all.enumerated);
  CHECK(fitting.pruned_memory > 0);
  CHECK(pruned.pruned_divisibility > 0);
  // Every plan that survives divisibility and memory is accepted, and the brute force accepts no
  // other; the compute bound then skips some of them without changing the best two.
  CHECK(fitting.rejected == 0);
  CHECK(fitting.evaluated == all.evaluated - all.rejected);
  CHECK(same_plan(fitting.best.job, all.best.job));
  CHECK(pruned.rejected == 0);
  CHECK(pruned.pruned_bound > 0);
  CHECK(pruned.evaluated < fitting.evaluated);
  CHECK(same_plan(pruned.best.job, all.best.job));
  CHECK(pruned.best.step.tokens_per_s == all.best.step.tokens_per_s);
  REQUIRE(pruned.runner_up);
  REQUIRE(all.runner_up);
  CHECK(same_plan(pruned.runner_up->job, all.runner_up->job));
  CHECK(pruned.runner_up->step.tokens_per_s <= pruned.best.step.tokens_per_s);
  CHECK(pruned.best.step.memory.total_bytes() <= 6e9);
}

// The Llama 3 paper's plan (Dubey et al. 2024 table 4, public-figures.md "Llama 3 parallelism":
// TP 8, PP 16, 16M-token batches of 8K sequences on 16,384 H100s; ZeRO-1 and the interleaved
// schedule, whose depth the paper leaves out: v = 4 as in published_runs_test.cpp) is in the
// search space, so the search matches or beats it in the step model.
// - With TP 8 and CP 1 pinned (the paper's choice for 8K sequences) the search lands on the
//   paper's TP 8 x PP 16 x DP 128 and beats the v = 4 variant (about 49% against 41% MFU) with
//   what the paper does not state: a deeper interleave (v 6, a smaller bubble), the distributed
//   optimizer and tp_comm_overlap (less exposed DP and TP communication).
// - Free, it trades DP for CP (TP 4 x CP 4 x PP 16 x DP 64, about 52%): half the replicas run
//   twice the micro-batches each (32 instead of 16) over the same 16 stages, which halves the
//   bubble again, while CP's ring attention hides behind attention at 2K tokens per rank. Meta
//   kept CP for long-context training; the step model does not price the SM contention of
//   overlapped TP and CP transfers, which is where such a plan would lose in practice.
TEST_CASE("the auto plan for Llama 3 405B on 16384 GPUs matches or beats the paper's TP8 x PP16",
          "[models][workload][plan][published]") {
  const auto reg = mw::test::collective_registry();
  mw::TrainingJobConfig published = mw::testing::llama405b_table4();
  published.parallelism.virtual_stages = 4;
  const auto paper = mw::estimate_training_step(published, hardware::hgx_h100(), {}, reg);
  mw::TrainingJobConfig job = published;
  job.parallelism = {};
  const auto found = mw::search_training_plan(job, hardware::hgx_h100(), {}, reg);
  INFO("auto: " << mw::describe_plan(found.best.job, found.best.step) << ", MFU " << found.best.step.mfu
                << "; paper: MFU " << paper.mfu << "; enumerated " << found.enumerated << ", evaluated "
                << found.evaluated);
  CHECK(found.best.step.tokens_per_s >= paper.tokens_per_s);
  CHECK(found.best.step.tokens_per_step == paper.tokens_per_step);  // the same 2,048 sequences
  CHECK(found.best.job.parallelism.pp == 16);

  job.parallelism.tp = 8;
  mw::PlanSearchOptions paper_tp;
  paper_tp.pins.tp = true;
  paper_tp.pins.cp = true;
  const auto at_tp8 = mw::search_training_plan(job, hardware::hgx_h100(), {}, reg, {}, {}, paper_tp);
  INFO("TP 8, CP 1: " << mw::describe_plan(at_tp8.best.job, at_tp8.best.step) << ", MFU " << at_tp8.best.step.mfu);
  CHECK(at_tp8.best.job.parallelism.pp == 16);
  CHECK(at_tp8.best.step.dp == 128);
  CHECK(at_tp8.best.job.micro_batch_size == 1);
  CHECK(at_tp8.best.step.tokens_per_s >= paper.tokens_per_s);
  CHECK(found.best.step.tokens_per_s >= at_tp8.best.step.tokens_per_s);
}

TEST_CASE("pinned keys stay as the job has them", "[models][workload][plan]") {
  const auto reg = mw::test::collective_registry();
  mw::TrainingJobConfig j = small_job();
  j.parallelism.tp = 2;
  j.micro_batch_size = 2;
  mw::PlanSearchOptions o;
  o.pins.tp = true;
  o.pins.micro_batch_size = true;
  const auto r = mw::search_training_plan(j, hardware::hgx_h100(), {}, reg, {}, {}, o);
  CHECK(r.best.job.parallelism.tp == 2);
  CHECK(r.best.job.micro_batch_size == 2);

  // Everything pinned: the one plan is evaluated, no runner-up.
  mw::PlanSearchOptions all;
  all.pins = {true, true, true, true, true, true, true, true, true, true, true};
  const auto one = mw::search_training_plan(j, hardware::hgx_h100(), {}, reg, {}, {}, all);
  CHECK(one.enumerated == 1);
  CHECK(one.evaluated == 1);
  CHECK_FALSE(one.runner_up);
  CHECK(one.best.step.tokens_per_s == mw::estimate_training_step(j, hardware::hgx_h100(), {}, reg).tokens_per_s);
}

TEST_CASE("ties go to fewer pipeline stages, then less memory", "[models][workload][plan]") {
  const auto reg = mw::test::collective_registry();
  const auto r = mw::search_training_plan(small_job(), hardware::hgx_h100(), {}, reg);
  REQUIRE(r.runner_up);
  const auto &a = r.best, &b = *r.runner_up;
  // The runner-up is strictly slower, or as fast with at least as many stages and no less memory.
  const bool tie = b.step.tokens_per_s >= a.step.tokens_per_s * (1 - 1e-9);
  if (tie) {
    CHECK(a.job.parallelism.pp <= b.job.parallelism.pp);
    if (a.job.parallelism.pp == b.job.parallelism.pp) {
      CHECK(a.step.memory.total_bytes() <= b.step.memory.total_bytes());
    }
  } else {
    CHECK(b.step.tokens_per_s < a.step.tokens_per_s);
  }
}

TEST_CASE("a job no plan fits says the least memory it needs and what would help", "[models][workload][plan]") {
  const auto reg = mw::test::collective_registry();
  mw::TrainingJobConfig j = mw::testing::llama405b_table4();
  j.parallelism = {};
  j.nodes = 1;
  j.global_batch_sequences = 64;
  try {
    (void)mw::search_training_plan(j, hardware::hgx_h100(), {}, reg);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "parallelism");
    const std::string m = e.detail();
    INFO(m);
    // 405B parameters over 8 GPUs with ZeRO 3: at least 16 B x 405e9 / 8 = 810 GB each.
    CHECK(m.find("no plan fits") != std::string::npos);
    CHECK(m.find("the least memory any plan needs is") != std::string::npos);
    CHECK(m.find("usable; more nodes") != std::string::npos);
  }
  j = small_job();
  j.global_batch_sequences = 0;
  try {
    (void)mw::search_training_plan(j, hardware::hgx_h100(), {}, reg);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "global_batch_sequences");
  }
}

// The design search's unit (issue 37): Llama 3 70B on 1,024 H100s, 8M-token batches. Counts are
// stated, not timed (tools/bench measures the time).
TEST_CASE("a 1024-GPU Llama 3 70B job resolves from few estimates", "[models][workload][plan]") {
  const auto reg = mw::test::collective_registry();
  mw::TrainingJobConfig j;
  j.name = "llama3-70b";
  j.model = mw::llama3_70b();
  j.nodes = 128;
  j.global_batch_sequences = 1024;
  const auto r = mw::search_training_plan(j, hardware::hgx_h100(), {}, reg);
  INFO(mw::describe_plan(r.best.job, r.best.step)
       << "; MFU " << r.best.step.mfu << "; enumerated " << r.enumerated << ", pruned " << r.pruned_divisibility
       << " + " << r.pruned_memory << " + " << r.pruned_bound << ", evaluated " << r.evaluated);
  CHECK(r.evaluated < 5000);
  CHECK(r.rejected == 0);
  CHECK(r.best.step.mfu > 0.3);
}
