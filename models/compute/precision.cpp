#include "models/compute/precision.hpp"

#include "sim/error.hpp"

namespace dcsim::models::compute {

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::kBf16: return "bf16";
    case Precision::kFp8: return "fp8";
    case Precision::kTf32: return "tf32";
  }
  return "?";
}

double bytes_per_element(Precision p) {
  switch (p) {
    case Precision::kBf16: return 2.0;
    case Precision::kFp8: return 1.0;
    case Precision::kTf32: return 4.0;
  }
  return 2.0;
}

double peak_flops(const hardware::GpuSpec& gpu, Precision p) {
  double peak = 0.0;
  switch (p) {
    case Precision::kBf16: peak = gpu.peak_bf16_flops; break;
    case Precision::kFp8: peak = gpu.peak_fp8_flops; break;
    case Precision::kTf32: peak = gpu.peak_tf32_flops; break;
  }
  if (!(peak > 0.0)) {
    throw sim::ConfigError("precision", "the " + gpu.model + " has no " +
                                            std::string(precision_name(p)) + " tensor-core peak");
  }
  return peak;
}

}  // namespace dcsim::models::compute
