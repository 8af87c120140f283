#pragma once
// Named GPU presets ("h100-sxm5", "h200-sxm", "a100-sxm-80gb"). Each constant in
// gpu_presets.cpp cites its public source; node presets build on these.

#include <functional>

#include "models/hardware/node_spec.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::hardware {

using GpuPresetFactory = std::function<GpuSpec()>;
using GpuPresetRegistry = sim::Registry<GpuPresetFactory>;

GpuSpec h100_sxm5();
GpuSpec h200_sxm();
GpuSpec a100_sxm_80gb();

void register_gpu_presets(GpuPresetRegistry& registry);

}  // namespace dcsim::models::hardware
