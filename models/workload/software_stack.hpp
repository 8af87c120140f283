#pragma once
// A software stack (issue 40, item 1): what one release of a framework, its kernels and its
// communication library achieve on the hardware, as the efficiencies the mechanisms take. The
// mechanisms (the GEMM tile waves, FlashAttention's query tiles, NCCL's algorithms, protocols and
// size ramp, the pipeline schedule, the overlap of TP communication) are the same under every
// stack; a stack only sets how close to the datasheet each kind of work runs:
//
//   gemm_sustained_fraction     fraction of the tensor peak a fully loaded SM sustains in a GEMM's
//                               k loop (cuBLASLt's kernels and the clock they hold)
//   gemm_tile_overhead          per-wave fixed cost of a GEMM (k-loop fill, epilogue)
//   kernel_overhead             per-kernel fixed cost not hidden by the asynchronous stream
//   flash_attention_efficiency  fraction of the BF16 peak the attention kernel sustains at full
//                               waves (FlashAttention-2: 0.342; a Hopper-native kernel more)
//   memory_efficiency           fraction of HBM bandwidth memory-bound kernels reach
//   nvlink_efficiency, nvls_efficiency, network_efficiency
//                               fraction of line rate NCCL's Simple protocol reaches on NVLink, on
//                               NVLink SHARP and on the RoCE/InfiniBand NICs
//   nccl_latency_scale          multiplies NCCL's base and per-hop latencies (its tuning tables)
//
// Each is a ParamSpec of the registered preset (`dcsim list` shows them with their defaults and
// the preset's source and date), so a scenario names a preset and overrides what it measured
// (`/software`), and `dcsim calibrate` fits them to a site's measurements and writes the result
// as a profile a scenario names in the same place.

#include <functional>
#include <string>
#include <vector>

#include "models/collective/collective_types.hpp"
#include "models/compute/compute_model.hpp"
#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::workload {

struct SoftwareStack {
  std::string name;
  std::string release;  // what it stands for, one line ("NVIDIA NeMo 25.02 ...")
  std::string source;   // where the figures come from
  std::string as_of;    // the release's date
  compute::ComputeModelConfig kernels;
  collective::CollectiveTuning communication;  // latencies as NCCL's tables (see latency scale)
  double nccl_latency_scale = 1.0;

  // `communication` with every base and per-step latency times nccl_latency_scale.
  collective::CollectiveTuning collective_tuning() const;
  // Every parameter's value, "name=value;..." in stack_parameters' order: what a cache keyed on a
  // configuration adds so two stacks never share an entry.
  std::string fingerprint() const;
};

// One parameter of a stack: where it lives, its unit ("" or "duration"), valid range and help.
struct StackParameter {
  std::string name;
  double* value = nullptr;
  std::string unit;
  std::string valid_range;  // "0 < x <= 1", "x >= 0", "x > 0"
  std::string help;
};
std::vector<StackParameter> stack_parameters(SoftwareStack& stack);
// Parameter names in order (what `dcsim calibrate --fit` accepts).
std::vector<std::string> stack_parameter_names();

// sim::ConfigError("<parameter>", ...) for a value outside its range.
void validate(const SoftwareStack& stack);

using SoftwareStackFactory = std::function<SoftwareStack(const sim::Params&)>;

// The stack every scenario uses unless it names another (README, "Fidelity").
inline constexpr const char* kDefaultSoftwareStack = "nemo-25.02";

SoftwareStack nemo_25_02();

// Writes `params` over the preset (each a stack parameter, SI units) and validates the result.
SoftwareStack with_params(SoftwareStack stack, const sim::Params& params);

void register_software_stacks(sim::Registry<SoftwareStackFactory>& registry);

}  // namespace dcsim::models::workload
