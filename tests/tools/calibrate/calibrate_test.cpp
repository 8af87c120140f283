// `dcsim calibrate`'s parts (issue 40, item 2): the readers, and the fit recovering the parameters
// dcsim generated measurements with; a fit the data cannot determine is refused by name.
#include <catch2/catch.hpp>

#include <sstream>

#include "models/workload/training_step.hpp"
#include "sim/error.hpp"
#include "tests/tools/calibrate/calibrate_support.hpp"
#include "tools/calibrate/measurement.hpp"
#include "tools/calibrate/nccl_tests_reader.hpp"
#include "tools/calibrate/stack_fit.hpp"
#include "tools/calibrate/training_log_reader.hpp"

using namespace dcsim;
using namespace dcsim::calibrate_testing;
namespace cal = dcsim::tools::calibrate;
namespace mc = dcsim::models::collective;
namespace mw = dcsim::models::workload;

namespace {

const char* kAllGatherTwoNodes =
    R"(# nThread 1 nGpus 1 minBytes 1024 maxBytes 4096 step: 2(factor) warmup iters: 5 iters: 20
#
# Using devices
#  Rank  0 Group  0 Pid  11 on     gpu-a device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  12 on     gpu-a device  1 [0x2a] NVIDIA H100 80GB HBM3
#  Rank  2 Group  0 Pid  13 on     gpu-b device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  3 Group  0 Pid  14 on     gpu-b device  1 [0x2a] NVIDIA H100 80GB HBM3
#
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
           0             0     float    none      -1     0.21    0.00    0.00      0     0.20    0.00    0.00    N/A
        1024           256     float    none      -1    25.30    0.04    0.03      0    24.90    0.04    0.03      0
        4096          1024     float    none      -1    26.10    0.16    0.12      0    25.80    0.16    0.12      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 0.075
)";

mw::SoftwareStack known_stack() {
  mw::SoftwareStack s = mw::nemo_25_02();
  s.communication.nvlink_efficiency = 0.75;
  s.communication.nvls_efficiency = 0.62;
  s.communication.network_efficiency = 0.70;  // below NVLink's 337 GB/s: the NICs bind across nodes
  s.nccl_latency_scale = 1.5;
  return s;
}

std::string training_run_json(double step_s, int nodes = 1) {
  return fmt::format(R"({{"training_run": {{"node": "hgx-h100", "step_time": "{} s",
    "job": {{"name": "llama8b", "model": "llama3-8b", "nodes": {}, "parallelism": {{"cp": 2, "distributed_optimizer": true}},
             "micro_batch_size": 1, "global_batch": {}}}}}}})",
                     step_s, nodes, 128 * nodes);
}

double dcsim_step(const mw::SoftwareStack& stack, int nodes = 1) {
  const auto dir = fresh_dir("probe");
  write_text(dir / "run.json", training_run_json(1.0, nodes));
  const auto m = cal::read_measurement((dir / "run.json").string(), "hgx-h100", registries());
  return m.points.front().predict_s(stack);
}

}  // namespace

TEST_CASE("nccl-tests output gives its collective, ranks per host and out-of-place times", "[tools][calibrate]") {
  const auto run = cal::read_nccl_tests(kAllGatherTwoNodes, "all_gather_perf.txt");
  CHECK(run.op == mc::CollectiveOp::kAllGather);
  CHECK(run.ranks == 4);
  CHECK(run.hosts == 2);
  CHECK(run.device == "NVIDIA H100 80GB HBM3");
  REQUIRE(run.rows.size() == 2);  // the 0-byte row measures nothing
  CHECK(run.rows[0].bytes == 1024);
  CHECK(run.rows[0].time_s == Approx(25.30e-6));  // out-of-place, not in-place's 24.90
  CHECK(run.rows[1].line == 13);
}

TEST_CASE("nccl-tests output that cannot be used says why, with the line", "[tools][calibrate]") {
  // No collective in the output and none in the name.
  CHECK_THROWS_WITH(cal::read_nccl_tests(kAllGatherTwoNodes, "results.txt"),
                    Catch::Contains("cannot tell which collective ran"));
  std::string damaged = kAllGatherTwoNodes;
  damaged.replace(damaged.find("        4096"), 12, "        4096 x");
  CHECK_THROWS_WITH(cal::read_nccl_tests(damaged, "all_gather_perf.txt"), Catch::Contains("all_gather_perf.txt:13:"));
  CHECK_THROWS_WITH(cal::read_nccl_tests("# nThread 1\n  1024 256 float sum -1 5.0 0.2 0.2 0\n", "all_reduce_perf.txt"),
                    Catch::Contains("no '#  Rank"));
}

TEST_CASE("training logs of Megatron-LM, NeMo and MLPerf give their step times", "[tools][calibrate]") {
  std::istringstream megatron(
      " [2025-01-01] iteration        1/     100 | consumed samples: 128 | elapsed time per iteration (ms): 20512.3 |\n"
      "some other line\n"
      " [2025-01-01] iteration        2/     100 | consumed samples: 256 | elapsed time per iteration (ms): 12270.0 "
      "|\n");
  const auto m = cal::read_step_times(megatron, "megatron.log");
  CHECK(m.format == "megatron");
  CHECK(m.seconds == std::vector<double>{20.5123, 12.27});
  std::istringstream nemo(
      "Training epoch 0, iteration 3/49 | lr: 1e-4 | train_step_timing in s: 9.33 | consumed_samples: 512\n");
  CHECK(cal::read_step_times(nemo, "nemo.log").seconds == std::vector<double>{9.33});
  std::istringstream mlperf(
      ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1, \"event_type\": \"POINT_IN_TIME\", \"key\": \"tracked_stats\", "
      "\"value\": {\"throughput\": 10.5}, \"metadata\": {\"step\": 96}}\n");
  const auto p = cal::read_step_times(mlperf, "mlperf.log");
  CHECK(p.format == "mlperf");
  CHECK(p.samples_per_s == std::vector<double>{10.5});
  std::istringstream nothing("loss 2.3\n");
  CHECK_THROWS_AS(cal::read_step_times(nothing, "x.log"), sim::InputError);
  // The steady step: the median after the warm-up iterations.
  CHECK(cal::steady_step_s({30.0, 12.0, 13.0, 11.0}, 1, "x") == 12.0);
  CHECK(cal::steady_step_s({30.0, 12.0, 13.0, 11.0, 14.0}, 1, "x") == 12.5);
  CHECK_THROWS_AS(cal::steady_step_s({30.0}, 1, "x"), sim::InputError);
}

TEST_CASE("calibration recovers the NCCL efficiencies and latency dcsim's own nccl-tests were made with",
          "[tools][calibrate]") {
  // Three files as a site would measure them: all_reduce on one node (NVLS for large sizes, ring
  // and LL for small) and on two, all_gather on two (ring over the NICs). Each parameter moves a
  // different part of these curves, so the fit lands on the values the data was made with.
  const auto truth = known_stack();
  const auto dir = fresh_dir("nccl");
  write_text(dir / "all_reduce_perf_1node.txt",
             nccl_tests_text("all_reduce_perf", mc::CollectiveOp::kAllReduce, 1, truth));
  write_text(dir / "all_reduce_perf_2nodes.txt",
             nccl_tests_text("all_reduce_perf", mc::CollectiveOp::kAllReduce, 2, truth));
  write_text(dir / "all_gather_perf_2nodes.txt",
             nccl_tests_text("all_gather_perf", mc::CollectiveOp::kAllGather, 2, truth));
  std::vector<cal::Measurement> files;
  for (const char* name : {"all_reduce_perf_1node.txt", "all_reduce_perf_2nodes.txt", "all_gather_perf_2nodes.txt"}) {
    files.push_back(cal::read_measurement((dir / name).string(), "hgx-h100", registries()));
  }
  CHECK(files[1].what == "all_reduce, 16 GPUs on 2 nodes, 31 sizes (nccl-tests)");
  cal::FitOptions options;
  options.fit = {"nvlink_efficiency", "nvls_efficiency", "network_efficiency", "nccl_latency_scale"};
  const auto fit = cal::fit_stack(mw::nemo_25_02(), files, options);
  CHECK(fit.stack.communication.nvlink_efficiency == Approx(0.75).epsilon(0.01));
  CHECK(fit.stack.communication.nvls_efficiency == Approx(0.62).epsilon(0.01));
  CHECK(fit.stack.communication.network_efficiency == Approx(0.70).epsilon(0.01));
  CHECK(fit.stack.nccl_latency_scale == Approx(1.5).epsilon(0.01));
  CHECK(fit.rms_error < 0.005);
  CHECK(fit.base_rms_error > 0.05);
  // Held out: the two-node files still determine all four without the all_gather, which they then
  // predict as well as the fit does; without the one-node file nothing runs NVLS, so NVLS's
  // efficiency is undetermined and the tool says so instead of predicting.
  REQUIRE(fit.files[2].loo_error.has_value());
  CHECK(std::abs(*fit.files[2].loo_error) < 0.01);
  CHECK_FALSE(fit.files[0].loo_error.has_value());
  CHECK_THAT(fit.files[0].loo_note, Catch::Contains("nvls_efficiency moves no prediction"));
}

TEST_CASE("calibration recovers a GEMM efficiency from one published step time", "[tools][calibrate]") {
  mw::SoftwareStack truth = mw::nemo_25_02();
  truth.kernels.gemm_sustained_fraction = 0.62;
  const double step = dcsim_step(truth);
  const auto dir = fresh_dir("step");
  write_text(dir / "run.json", training_run_json(step));
  std::vector<cal::Measurement> files{cal::read_measurement((dir / "run.json").string(), "hgx-h100", registries())};
  CHECK(files[0].what == "llama8b step, published");
  cal::FitOptions options;
  options.fit = {"gemm_sustained_fraction"};
  const auto fit = cal::fit_stack(mw::nemo_25_02(), files, options);
  CHECK(fit.stack.kernels.gemm_sustained_fraction == Approx(0.62).epsilon(0.002));
  CHECK(std::abs(fit.files[0].error) < 1e-4);
  CHECK_FALSE(fit.files[0].loo_error.has_value());
}

TEST_CASE("a fit the measurements cannot determine is refused, naming the parameters", "[tools][calibrate]") {
  const auto dir = fresh_dir("undetermined");
  write_text(dir / "run.json", training_run_json(12.0));
  std::vector<cal::Measurement> one{cal::read_measurement((dir / "run.json").string(), "hgx-h100", registries())};
  // Every parameter that moves a one-node step, from one number.
  CHECK_THROWS_WITH(cal::fit_stack(mw::nemo_25_02(), one, {}),
                    Catch::Contains("gemm_sustained_fraction") &&
                        Catch::Contains("choose at most that many with --fit"));
  // Two parameters the same step moves alike.
  cal::FitOptions two;
  two.fit = {"gemm_sustained_fraction", "flash_attention_efficiency"};
  CHECK_THROWS_WITH(cal::fit_stack(mw::nemo_25_02(), one, two), Catch::Contains("from 1 measured point"));
  // A parameter that moves nothing here: one node has no NIC in its path.
  write_text(dir / "all_reduce_perf.txt",
             nccl_tests_text("all_reduce_perf", mc::CollectiveOp::kAllReduce, 1, mw::nemo_25_02()));
  std::vector<cal::Measurement> local{
      cal::read_measurement((dir / "all_reduce_perf.txt").string(), "hgx-h100", registries())};
  cal::FitOptions network;
  network.fit = {"network_efficiency"};
  CHECK_THROWS_WITH(cal::fit_stack(mw::nemo_25_02(), local, network),
                    Catch::Contains("network_efficiency moves no prediction"));
  cal::FitOptions unknown;
  unknown.fit = {"gemm_efficiency"};
  CHECK_THROWS_WITH(cal::fit_stack(mw::nemo_25_02(), local, unknown),
                    Catch::Contains("not a software stack parameter"));
}

TEST_CASE("a training run file is checked like a scenario's job, at its own pointers", "[tools][calibrate]") {
  const auto dir = fresh_dir("badrun");
  write_text(
      dir / "run.json",
      R"({"training_run": {"step_time": "12 s", "job": {"name": "x", "model": "llama3-8b", "parallelism": {"tp": 3}}}})");
  CHECK_THROWS_WITH(cal::read_measurement((dir / "run.json").string(), "hgx-h100", registries()),
                    Catch::Contains("run.json:/training_run/job/parallelism: tp x cp x pp = 3"));
  write_text(dir / "run2.json",
             R"({"training_run": {"step_time": "12 s", "log": "x.log", "job": {"model": "llama3-8b"}}})");
  CHECK_THROWS_WITH(cal::read_measurement((dir / "run2.json").string(), "hgx-h100", registries()),
                    Catch::Contains("exactly one of"));
  write_text(dir / "run3.json", R"({"training_run": {"step": "12 s", "job": {"model": "llama3-8b"}}})");
  CHECK_THROWS_WITH(cal::read_measurement((dir / "run3.json").string(), "hgx-h100", registries()),
                    Catch::Contains("run3.json:/training_run/step: unknown key"));
}

TEST_CASE("a training run's log gives its steady step: the median after the skipped warm-up", "[tools][calibrate]") {
  const auto dir = fresh_dir("log");
  // Megatron-LM's lines, the first iteration slow (compilation, data loader start).
  write_text(dir / "train.log",
             "iteration 1/4 | elapsed time per iteration (ms): 31000.0 |\n"
             "iteration 2/4 | elapsed time per iteration (ms): 12100.0 |\n"
             "iteration 3/4 | elapsed time per iteration (ms): 12300.0 |\n"
             "iteration 4/4 | elapsed time per iteration (ms): 12200.0 |\n");
  write_text(dir / "run.json", R"({"training_run": {"log": "train.log", "skip_iterations": 1,
    "job": {"name": "llama8b", "model": "llama3-8b", "nodes": 1,
            "parallelism": {"cp": 2, "distributed_optimizer": true}, "global_batch": 128}}})");
  const auto m = cal::read_measurement((dir / "run.json").string(), "hgx-h100", registries());
  REQUIRE(m.points.size() == 1);
  CHECK(m.points[0].measured_s == Approx(12.2));
  CHECK(m.what == "llama8b step, megatron log, 4 iterations");
  // A log beside the run file that is not there is named at its key.
  write_text(dir / "run2.json", R"({"training_run": {"log": "gone.log", "job": {"name": "x", "model": "llama3-8b",
    "parallelism": {"cp": 2, "distributed_optimizer": true}, "global_batch": 128}}})");
  CHECK_THROWS_WITH(cal::read_measurement((dir / "run2.json").string(), "hgx-h100", registries()),
                    Catch::Contains("run2.json:/training_run/log: gone.log: cannot open file"));
}
