#pragma once
// Named node presets ("hgx-h100", "dgx-h100", "hgx-h200", "dgx-a100", "hgx-h800", "hgx-b200",
// "dgx-b200", "gb200-nvl72"), registered in
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
// HGX H800 8-GPU: the hgx-h100 server with export H800 GPUs (NVLink 200 GB/s per direction).
NodeSpec hgx_h800();
// HGX B200 8-GPU server (DGX B200 figures: 14.3 kW max, 8 x 400G compute NICs).
NodeSpec hgx_b200();
NodeSpec dgx_b200();
// One compute tray of a GB200 NVL72 rack: a dcsim node is a tray (4 GPUs, 2 Grace, 4 x 400G),
// nvlink_domain_gpus = 72 makes 18 trays (a rack) one NVLink domain; the 9 NVLink switch trays
// have no node and their power is spread over the compute trays' other_max_power_w.
NodeSpec gb200_nvl72_tray();

void register_node_presets(NodePresetRegistry& registry);

}  // namespace dcsim::models::hardware
