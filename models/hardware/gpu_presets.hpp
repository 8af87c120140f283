#pragma once
// Named GPU presets ("h100-sxm5", "h200-sxm", "a100-sxm-80gb", "h800-sxm5", "b200", "gb200"). Each constant in
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
GpuSpec h800_sxm5();  // export Hopper: the H100 with NVLink at 200 GB/s per direction
GpuSpec b200();       // HGX/DGX B200 GPU at 1,000 W
GpuSpec gb200();      // the Blackwell GPU of a GB200 superchip at 1,200 W

void register_gpu_presets(GpuPresetRegistry& registry);

}  // namespace dcsim::models::hardware
