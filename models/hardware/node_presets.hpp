#pragma once
// Named node presets ("hgx-h100", "dgx-h100", "hgx-h200", "dgx-a100"), registered in
// ModelRegistries::node_presets. Every field is a plain value a scenario may override.

#include <functional>

#include "models/hardware/node_spec.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::hardware {

using NodePresetRegistry = sim::Registry<std::function<NodeSpec()>>;

// HGX H100 8-GPU baseboard in a typical OEM server (8 compute NICs at 400G, 2 front-end NICs).
NodeSpec hgx_h100();
// NVIDIA DGX H100: the same GPUs and compute NICs plus two storage NICs.
NodeSpec dgx_h100();
// HGX H200 8-GPU: the hgx-h100 server with H200 GPUs.
NodeSpec hgx_h200();
// NVIDIA DGX A100 (640 GB): 8 x A100 80GB on NVSwitch gen 2, 8 x 200G HDR compute NICs.
NodeSpec dgx_a100();

void register_node_presets(NodePresetRegistry& registry);

}  // namespace dcsim::models::hardware
