#include "models/hardware/node_presets.hpp"

namespace dcsim::models::hardware {

namespace {

GpuSpec h100_sxm5() {
  GpuSpec gpu;
  gpu.model = "H100 SXM5";
  // Midpoint of the 75-93 W idle draw at 33-35 C and 345 MHz reported by nvidia-smi on a 700 W
  // Hopper SXM (shared/reference/public-figures.md: liguodongiot/llm-action nvidia-smi.md; GKE A3).
  gpu.idle_power_w = 84.0;
  // Default (maximum) power limit of the SXM5 part (NVIDIA Hopper whitepaper via
  // glennklockwood.com/garden/processors/h100).
  gpu.max_power_w = 700.0;
  gpu.peak_bf16_flops = 989.4e12;            // dense BF16 tensor, same source
  gpu.hbm_bytes = 80e9;                      // HBM3, same source
  gpu.hbm_bandwidth_bytes_per_s = 3.35e12;   // peak, same source
  return gpu;
}

}  // namespace

NodeSpec hgx_h100() {
  NodeSpec node;
  node.preset = "hgx-h100";
  node.gpus = 8;
  node.gpu = h100_sxm5();
  // DGX H100 maximum system power 10.2 kW (DGX H100 user guide) less 8 x 700 W of GPUs: what the
  // CPUs, DRAM, NICs, NVSwitches, NVMe, fans and PSU losses draw at full load.
  node.other_max_power_w = 10'200.0 - 8 * 700.0;
  // Not published. Bottom-up estimate of the same parts at idle: 2 x Xeon 8480C package idle
  // ~100 W each, 2 TB DDR5 ~130 W, 10 ConnectX-7 ~20 W each, 4 NVSwitch ~60 W each, fans ~100 W,
  // NVMe ~40 W, plus ~6% PSU loss: about 1 kW. Override /cluster/node/other_idle_power when
  // a measured figure is at hand.
  node.other_idle_power_w = 1'000.0;
  node.compute_nics = 8;                     // 8 x ConnectX-7 400 Gb/s (mlcommons v4.0 eos headers)
  node.compute_nic_bandwidth_bps = 400e9;
  return node;
}

NodeSpec dgx_h100() {
  NodeSpec node = hgx_h100();
  node.preset = "dgx-h100";
  return node;
}

void register_node_presets(NodePresetRegistry& registry) {
  registry.add({"hgx-h100",
                "HGX H100 8-GPU server: 8 x H100 SXM5 (700 W), 8 x 400G compute NICs, 10.2 kW max",
                {},
                &hgx_h100});
  registry.add({"dgx-h100",
                "NVIDIA DGX H100: as hgx-h100, plus 2 x 400G storage NICs, 2 x Xeon 8480C, 2 TB RAM",
                {},
                &dgx_h100});
}

}  // namespace dcsim::models::hardware
