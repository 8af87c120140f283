#pragma once
// Named node presets ("hgx-h100", "dgx-h100"), registered in ModelRegistries::node_presets.

#include <functional>

#include "models/hardware/node_spec.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::hardware {

using NodePresetRegistry = sim::Registry<std::function<NodeSpec()>>;

// HGX H100 8-GPU baseboard in a typical OEM server (8 compute NICs at 400G).
NodeSpec hgx_h100();
// NVIDIA DGX H100: the same GPUs and compute NICs plus two storage NICs.
NodeSpec dgx_h100();

void register_node_presets(NodePresetRegistry& registry);

}  // namespace dcsim::models::hardware
