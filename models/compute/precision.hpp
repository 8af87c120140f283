#pragma once
// Numeric precision of a compute phase and what it implies: the tensor-core peak it runs at and
// the bytes an element occupies in HBM.

#include <string>
#include <string_view>

#include "models/hardware/node_spec.hpp"

namespace dcsim::models::compute {

enum class Precision { kBf16, kFp8, kTf32 };

// "bf16", "fp8", "tf32".
std::string_view precision_name(Precision p);

// Bytes per element of GEMM operands (FP8 GEMMs write BF16 outputs; callers that care say so).
double bytes_per_element(Precision p);

// Dense tensor-core peak of the GPU in FLOP/s; throws sim::ConfigError("precision", ...) when the
// GPU has none (FP8 on an A100).
double peak_flops(const hardware::GpuSpec& gpu, Precision p);

}  // namespace dcsim::models::compute
