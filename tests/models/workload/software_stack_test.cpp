// Software stacks (issue 40, item 1): a stack sets efficiencies, never a mechanism.
#include <catch2/catch.hpp>

#include <sstream>

#include "models/collective/collective_estimator.hpp"
#include "models/compute/compute_model.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/software_stack.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"

using namespace dcsim::models;
namespace mw = dcsim::models::workload;
namespace mc = dcsim::models::collective;
namespace sim = dcsim::sim;
using dcsim::sim::ConfigError;

namespace {

sim::Registry<mw::SoftwareStackFactory> stacks() {
  sim::Registry<mw::SoftwareStackFactory> r{"software stack"};
  mw::register_software_stacks(r);
  return r;
}

double default_number(const dcsim::sim::ParamSpec& p) {
  std::istringstream in(p.unit == "duration" ? p.default_value.substr(1) : p.default_value);
  double v = 0.0;
  in >> v;
  return v;
}

// NVIDIA's one-node Llama 3.1 8B recipe: TP 1 x CP 2, Adam state sharded over dp x cp.
mw::TrainingJobConfig llama8b_job() {
  mw::TrainingJobConfig j;
  j.model = mw::llama3_8b();
  j.nodes = 1;
  j.parallelism.cp = 2;
  j.parallelism.distributed_optimizer = true;
  j.micro_batch_size = 1;
  j.global_batch_sequences = 128;
  return j;
}

const mc::CollectiveRegistry& collective_algorithms() {
  static const mc::CollectiveRegistry r = [] {
    mc::CollectiveRegistry x{"collective algorithm"};
    mc::register_collective_algorithms(x);
    return x;
  }();
  return r;
}

mw::TrainingStepResult llama8b_step(const mw::SoftwareStack& stack) {
  return mw::estimate_training_step(llama8b_job(), hardware::hgx_h100(), {}, collective_algorithms(), stack.kernels,
                                    stack.collective_tuning());
}

}  // namespace

TEST_CASE("every registered software stack is valid and documents each parameter at the preset's value",
          "[models][workload][software]") {
  const auto registry = stacks();
  REQUIRE(registry.contains(mw::kDefaultSoftwareStack));
  for (const auto& e : registry.entries()) {
    INFO(e.name);
    mw::SoftwareStack s = e.factory({});
    CHECK_NOTHROW(mw::validate(s));
    CHECK(s.name == e.name);
    CHECK(e.description.find("source: ") != std::string::npos);
    CHECK(e.description.find("as of ") != std::string::npos);
    const auto params = mw::stack_parameters(s);
    REQUIRE(e.params.size() == params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
      CHECK(e.params[i].name == params[i].name);
      CHECK(default_number(e.params[i]) == Approx(*params[i].value));
    }
  }
}

TEST_CASE("the default stack is the step model's own defaults: naming it changes no answer",
          "[models][workload][software]") {
  const mw::SoftwareStack s = mw::nemo_25_02();
  const compute::ComputeModelConfig plain;
  CHECK(s.kernels.gemm_sustained_fraction == plain.gemm_sustained_fraction);
  CHECK(s.kernels.flash_attention_efficiency == plain.flash_attention_efficiency);
  CHECK(s.kernels.mem_efficiency == plain.mem_efficiency);
  CHECK(llama8b_step(s).step_time_s ==
        mw::estimate_training_step(llama8b_job(), hardware::hgx_h100(), {}, collective_algorithms()).step_time_s);
}

TEST_CASE("halving the attention kernel's efficiency doubles attention's time and nothing else",
          "[models][workload][software]") {
  // FlashAttention's time is FLOPs / (peak x efficiency x wave efficiency) (compute_model.hpp):
  // compute bound at this shape, so half the efficiency is exactly twice the time.
  mw::SoftwareStack s = mw::nemo_25_02();
  const compute::ComputeModel before(hardware::hgx_h100().gpu, s.kernels);
  s.kernels.flash_attention_efficiency /= 2.0;
  const compute::ComputeModel after(hardware::hgx_h100().gpu, s.kernels);
  const auto a = before.attention_forward(32, 8192, 8192, 128, true);
  const auto b = after.attention_forward(32, 8192, 8192, 128, true);
  CHECK(b.time_s == Approx(2.0 * a.time_s));
  CHECK(b.flops == a.flops);
  // GEMMs do not see it.
  CHECK(after.gemm(8192, 4096, 4096, compute::Precision::kBf16).time_s ==
        before.gemm(8192, 4096, 4096, compute::Precision::kBf16).time_s);
}

TEST_CASE("a slower stack lengthens the step but keeps the plan, the work and the memory",
          "[models][workload][software]") {
  mw::SoftwareStack slow = mw::nemo_25_02();
  slow.kernels.gemm_sustained_fraction *= 0.8;
  const auto a = llama8b_step(mw::nemo_25_02());
  const auto b = llama8b_step(slow);
  CHECK(b.step_time_s > a.step_time_s);
  CHECK(b.step_time_s < a.step_time_s / 0.8);  // attention, norms and communication do not slow
  CHECK(b.model_flops_per_step == a.model_flops_per_step);
  CHECK(b.micro_batches == a.micro_batches);
  CHECK(b.memory.total_bytes() == a.memory.total_bytes());
}

TEST_CASE("nccl_latency_scale multiplies every NCCL latency and leaves the bandwidth term",
          "[models][workload][software]") {
  mw::SoftwareStack s = mw::nemo_25_02();
  s.nccl_latency_scale = 2.0;
  const mc::CollectiveTuning t = s.collective_tuning();
  const mc::CollectiveTuning plain;
  for (int p = 0; p < mc::kProtocolCount; ++p) {
    CHECK(t.ring_base_latency_us[p] == 2.0 * plain.ring_base_latency_us[p]);
    CHECK(t.tree_net_step_us[p] == 2.0 * plain.tree_net_step_us[p]);
  }
  CHECK(t.nvls_latency_us == 2.0 * plain.nvls_latency_us);
  const auto& collectives = collective_algorithms();
  // One node: every latency of the ring is NCCL's (across nodes the cables' and switches' are
  // physics and stay).
  const auto system = mc::make_collective_system(hardware::hgx_h100(), 1, {});
  const auto e1 = mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce, 1 << 30, system, plain, "ring");
  const auto e2 = mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce, 1 << 30, system, t, "ring");
  CHECK(e2.latency_s == Approx(2.0 * e1.latency_s));
  CHECK(e2.bandwidth_s == Approx(e1.bandwidth_s));
}

TEST_CASE("network_efficiency sets the rate of a large all-reduce across nodes", "[models][workload][software]") {
  // A 4 GiB ring all-reduce between two 8-GPU nodes runs at the lesser of NVLink (450 GB/s x
  // 0.822 = 370) and the node's eight NICs (400 GB/s x efficiency). At 0.8 and 0.4 the NICs bind
  // (320, 160 GB/s): the bandwidth term is bytes over their rate, so halving it doubles the term.
  // (At the default 0.94 NVLink binds: 376 > 370.)
  mw::SoftwareStack s = mw::nemo_25_02();
  s.communication.network_efficiency = 0.8;
  const auto& collectives = collective_algorithms();
  const auto system = mc::make_collective_system(hardware::hgx_h100(), 2, {});
  const double bytes = 4.0 * (1 << 30);
  const auto a =
      mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce, bytes, system, s.collective_tuning(), "ring");
  s.communication.network_efficiency /= 2.0;
  const auto b =
      mc::estimate_collective(collectives, mc::CollectiveOp::kAllReduce, bytes, system, s.collective_tuning(), "ring");
  CHECK(b.bandwidth_s == Approx(2.0 * a.bandwidth_s));
}

TEST_CASE("a stack parameter outside its physical range is refused by name", "[models][workload][software]") {
  mw::SoftwareStack s = mw::nemo_25_02();
  s.kernels.gemm_sustained_fraction = 1.2;
  CHECK_THROWS_AS(mw::validate(s), ConfigError);
  try {
    mw::validate(s);
  } catch (const ConfigError& e) {
    CHECK(e.field() == "gemm_sustained_fraction");
  }
  sim::Params p;
  p.set_number("kernel_overhead", -1e-6);
  CHECK_THROWS_AS(mw::with_params(mw::nemo_25_02(), p), ConfigError);
  sim::Params ok;
  ok.set_number("network_efficiency", 0.9);
  CHECK(mw::with_params(mw::nemo_25_02(), ok).communication.network_efficiency == 0.9);
}
