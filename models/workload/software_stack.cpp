#include "models/workload/software_stack.hpp"

#include <charconv>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

std::string number_text(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

bool in_range(double v, const std::string& range) {
  if (!std::isfinite(v)) return false;
  if (range == "0 < x <= 1") return v > 0.0 && v <= 1.0;
  if (range == "x >= 0") return v >= 0.0;
  return v > 0.0;  // "x > 0"
}

}  // namespace

collective::CollectiveTuning SoftwareStack::collective_tuning() const {
  collective::CollectiveTuning t = communication;
  if (nccl_latency_scale == 1.0) return t;
  for (int p = 0; p < collective::kProtocolCount; ++p) {
    for (double* latency : {&t.ring_base_latency_us[p], &t.tree_base_latency_us[p], &t.ring_nvlink_step_us[p],
                            &t.tree_nvlink_step_us[p], &t.ring_net_step_us[p], &t.tree_net_step_us[p]}) {
      *latency *= nccl_latency_scale;
    }
  }
  t.nvls_latency_us *= nccl_latency_scale;
  return t;
}

std::string SoftwareStack::fingerprint() const {
  SoftwareStack copy = *this;
  std::string out;
  for (const auto& p : stack_parameters(copy)) out += p.name + "=" + number_text(*p.value) + ";";
  return out;
}

std::vector<StackParameter> stack_parameters(SoftwareStack& s) {
  return {
      {"gemm_sustained_fraction", &s.kernels.gemm_sustained_fraction, "", "0 < x <= 1",
       "Fraction of the tensor peak a fully loaded SM sustains in a GEMM's k loop."},
      {"gemm_tile_overhead", &s.kernels.gemm_tile_overhead_s, "duration", "x >= 0",
       "Per-wave fixed cost of a GEMM: k-loop fill and the epilogue that writes a tile."},
      {"kernel_overhead", &s.kernels.kernel_overhead_s, "duration", "x >= 0",
       "Per-kernel fixed cost the asynchronous stream does not hide (launch, synchronisation)."},
      {"flash_attention_efficiency", &s.kernels.flash_attention_efficiency, "", "0 < x <= 1",
       "Fraction of the BF16 peak the attention kernel sustains at full waves."},
      {"memory_efficiency", &s.kernels.mem_efficiency, "", "0 < x <= 1",
       "Fraction of HBM bandwidth memory-bound kernels (norms, element-wise, optimizer) reach."},
      {"nvlink_efficiency", &s.communication.nvlink_efficiency, "", "0 < x <= 1",
       "Fraction of NVLink line rate NCCL's Simple protocol reaches (ring, tree)."},
      {"nvls_efficiency", &s.communication.nvls_efficiency, "", "0 < x <= 1",
       "Fraction of NVLink line rate NCCL's NVLS (NVLink SHARP) all-reduce reaches."},
      {"network_efficiency", &s.communication.network_efficiency, "", "0 < x <= 1",
       "Fraction of a compute NIC's line rate NCCL reaches across nodes (headers, flow control)."},
      {"nccl_latency_scale", &s.nccl_latency_scale, "", "x > 0",
       "Multiplies NCCL's base and per-hop latencies (its tuning tables): 1 as the library states them."},
  };
}

std::vector<std::string> stack_parameter_names() {
  SoftwareStack s;
  std::vector<std::string> names;
  for (const auto& p : stack_parameters(s)) names.push_back(p.name);
  return names;
}

void validate(const SoftwareStack& stack) {
  SoftwareStack copy = stack;
  for (const auto& p : stack_parameters(copy)) {
    if (!in_range(*p.value, p.valid_range)) {
      throw sim::ConfigError(p.name, "expected " + p.valid_range + ", got " + number_text(*p.value));
    }
  }
}

// The default. Its kernel figures are microbenchmarks, not fits to any training run: cuBLASLt FP8
// GEMMs on Azure ND H100 v5 and FlashAttention-2's own benchmark (compute_model.hpp), STREAM triad
// for memory-bound kernels, NCCL 2.30.7's tuning tables and nccl-tests on 8 x H100 and between two
// nodes (collective_types.hpp). With them, NVIDIA's DGX Cloud recipe for Llama 3.1 8B on one node
// (dgxc-benchmarking v25.04, NeMo 25.02: 12.27 s BF16, 9.33 s FP8 per step) comes out within 10%
// (tests/models/workload/published_runs_test.cpp): the release this stack stands for.
SoftwareStack nemo_25_02() {
  SoftwareStack s;
  s.name = "nemo-25.02";
  s.release = "NVIDIA NeMo 25.02 (Megatron-Core, Transformer Engine, NCCL), the default";
  s.source =
      "kernels: cuBLASLt FP8 on ND H100 v5 (samuel-bohman/AI-benchmarking-guide), FlashAttention-2 benchmark, "
      "STREAM; NCCL 2.30.7 tuning.cc, nccl-tests#212/#290; checked against NVIDIA dgxc-benchmarking v25.04 "
      "(NeMo 25.02) Llama 3.1 8B";
  s.as_of = "2025-04";
  return s;
}

namespace {

// The default calibrated to NeMo 24.09's one-node run (`dcsim calibrate
// scenarios/calibration/nemo-24.09/llama3.1-8b-bf16-8gpu.json --fit gemm_sustained_fraction`):
// Llama 3.1 8B on 8 H100, TP 1 x CP 2, BF16, 12.91 s per step (dgxc-benchmarking v24.11.1). One
// run determines one parameter; the GEMMs are most of that step, so it is their efficiency. The
// other published runs of the release are predicted, not fitted
// (tests/tools/calibrate/published_fidelity_test.cpp).
SoftwareStack nemo_24_09() {
  SoftwareStack s = nemo_25_02();
  s.name = "nemo-24.09";
  s.release = "NVIDIA NeMo 24.09, calibrated on its one-node Llama 3.1 8B BF16 run";
  s.source =
      "nemo-25.02's kernels with gemm_sustained_fraction fitted by dcsim calibrate to NVIDIA dgxc-benchmarking "
      "v24.11.1 (NeMo 24.09) Llama 3.1 8B BF16, 12.91 s per step";
  s.as_of = "2024-11";
  s.kernels.gemm_sustained_fraction = 0.6935;
  return s;
}

}  // namespace

SoftwareStack with_params(SoftwareStack stack, const sim::Params& params) {
  for (const auto& p : stack_parameters(stack)) {
    if (params.has(p.name)) *p.value = params.number(p.name);
  }
  validate(stack);
  return stack;
}

void register_software_stacks(sim::Registry<SoftwareStackFactory>& registry) {
  for (SoftwareStack (*make)() : {&nemo_25_02, &nemo_24_09}) {
    SoftwareStack preset = make();
    std::vector<sim::ParamSpec> specs;
    for (const auto& p : stack_parameters(preset)) {
      const std::string value = number_text(*p.value);
      specs.push_back({p.name, p.unit, p.unit == "duration" ? "\"" + value + " s\"" : value, p.valid_range, p.help});
    }
    registry.add({preset.name, preset.release + " (source: " + preset.source + "; as of " + preset.as_of + ")",
                  std::move(specs), [make](const sim::Params& params) { return with_params(make(), params); }});
  }
}

}  // namespace dcsim::models::workload
