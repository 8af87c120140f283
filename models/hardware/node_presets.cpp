#include "models/hardware/node_presets.hpp"

#include "models/hardware/gpu_presets.hpp"

namespace dcsim::models::hardware {

NodeSpec hgx_h100() {
  NodeSpec node;
  node.preset = "hgx-h100";
  node.gpus = 8;
  node.gpu = h100_sxm5();
  // What the CPUs, DRAM, NICs, NVSwitches, NVMe, fans and PSU losses draw with every GPU at its
  // 700 W limit running a GPU job: the bottom-up model's (power/node_power_model.hpp: the host
  // loaded by the job's threads, the fans at full speed) 8,882.5 W less 8 x 700 W. Not the DGX
  // H100's 10.2 kW maximum system power (DGX H100 user guide), which is what the PSUs are sized
  // for (the CPUs at their TDP too): measured nodes training stay well under it (8.4 kW at most
  // training Llama 2 13B, Latif et al., arXiv 2412.08602; issue 40 item 7).
  node.other_max_power_w = 3'282.5;
  node.rated_power_w = 10'200.0;
  // Not published. Bottom-up estimate of the same parts at idle: 2 x Xeon 8480C package idle
  // ~100 W each, 2 TB DDR5 ~130 W, 10 ConnectX-7 ~20 W each, 4 NVSwitch ~60 W each, fans ~100 W,
  // NVMe ~40 W, plus ~6% PSU loss: about 1 kW. Override /cluster/node/other_idle_power when
  // a measured figure is at hand.
  node.other_idle_power_w = 1'000.0;
  node.compute_nics = 8;                     // 8 x ConnectX-7 400 Gb/s (mlcommons v4.0 eos headers)
  node.compute_nic_bandwidth_bps = 400e9;
  // Front-end: 2 x 400G as in Meta's Grand Teton (glennklockwood.com/garden/systems/
  // meta's-h100-clusters).
  node.storage_nics = 2;
  node.storage_nic_bandwidth_bps = 400e9;
  // One NVLink domain per baseboard: 8 GPUs on four third-generation NVSwitches, which reduce
  // in-switch (NVLS; NVIDIA/nccl-tests#212 measures it on 8 x H100).
  node.nvlink_domain_gpus = 8;
  node.nvswitch = true;
  node.nvls = true;
  node.cpu_sockets = 2;
  node.cpu_model = "Xeon Platinum 8480C";    // mlcommons v4.0 eos headers
  node.dram_bytes = 2e12;                    // same
  node.nvme_bytes = 8 * 3.84e12;             // 8 x 3.84 TB U.2 (DGX H100 datasheet, not in the reference)
  // Not in the reference file: an assumption of about 2 GB/s sustained write per PCIe Gen4 U.2
  // drive (datasheets quote 3-4 GB/s peak sequential writes) in an 8-drive RAID 0. Override
  // /cluster/node/nvme_write_bandwidth with a measured figure.
  node.nvme_write_bandwidth_bytes_per_s = 8 * 2e9;
  return node;
}

NodeSpec dgx_h100() {
  NodeSpec node = hgx_h100();
  node.preset = "dgx-h100";
  // Storage: 2 x 400G (mlcommons/training_results_v4.0 NVIDIA eos result headers).
  node.storage_nics = 2;
  node.storage_nic_bandwidth_bps = 400e9;
  return node;
}

NodeSpec hgx_h200() {
  NodeSpec node = hgx_h100();
  node.preset = "hgx-h200";
  node.gpu = h200_sxm();
  // Same 700 W GPU limit and server chassis as hgx-h100, so the same non-GPU power figures.
  return node;
}

NodeSpec dgx_a100() {
  // Not in the reference file: NVIDIA DGX A100 datasheet (640 GB system).
  NodeSpec node;
  node.preset = "dgx-a100";
  node.gpus = 8;
  node.gpu = a100_sxm_80gb();
  node.other_max_power_w = 6'500.0 - 8 * 400.0;  // 6.5 kW max system power less 8 x 400 W GPUs
  node.rated_power_w = 6'500.0;
  // Not published: the hgx-h100 bottom-up idle estimate scaled to this smaller system (2 EPYC
  // 7742, 2 TB DDR4, 10 ConnectX-6, 6 NVSwitch gen 2).
  node.other_idle_power_w = 900.0;
  node.compute_nics = 8;                          // 8 x single-port ConnectX-6 HDR 200 Gb/s
  node.compute_nic_bandwidth_bps = 200e9;
  node.storage_nics = 2;                          // 2 x dual-port ConnectX-6 (200 Gb/s each port)
  node.storage_nic_bandwidth_bps = 200e9;
  node.nvlink_domain_gpus = 8;
  node.nvswitch = true;                           // six second-generation NVSwitches
  node.nvls = false;                              // NVLink SHARP arrived with NVSwitch gen 3
  node.cpu_sockets = 2;
  node.cpu_model = "AMD EPYC 7742";
  node.dram_bytes = 2e12;
  node.nvme_bytes = 30e12;
  node.nvme_write_bandwidth_bytes_per_s = 8 * 2e9;  // assumption, as for hgx-h100
  return node;
}

NodeSpec hgx_h800() {
  // The hgx-h100 server with H800s (moe-hardware-stacks.md section 3: the same Hopper SXM5 part
  // with NVLink cut to 400 GB/s), 8 x 400G compute NICs as DeepSeek's clusters (DeepSeek-V3
  // report section 3.1). Same 700 W GPUs and chassis, so the same non-GPU power.
  NodeSpec node = hgx_h100();
  node.preset = "hgx-h800";
  node.gpu = h800_sxm5();
  return node;
}

NodeSpec hgx_b200() {
  // moe-hardware-stacks.md section 3 (B200 / DGX B200): DGX B200 user guide: 14.3 kW maximum,
  // 8 x B200 at 1,000 W on two NVLink 5 switch chips, 8 x ConnectX-7 400G compute NICs,
  // 2 x BlueField-3 (storage / management), 2 x Xeon Platinum 8570, 2 TB DDR5.
  NodeSpec node;
  node.preset = "hgx-b200";
  node.gpus = 8;
  node.gpu = b200();
  node.other_max_power_w = 14'300.0 - 8 * 1'000.0;
  node.rated_power_w = 14'300.0;
  // Not published: the hgx-h100 bottom-up idle estimate (1 kW) with newer CPUs and NVSwitches;
  // an assumption, override /cluster/node/other_idle_power with a measured figure.
  node.other_idle_power_w = 1'100.0;
  node.compute_nics = 8;
  node.compute_nic_bandwidth_bps = 400e9;
  node.storage_nics = 2;  // 2 x BlueField-3; 400 Gb/s each is an assumption (the guide lists the cards)
  node.storage_nic_bandwidth_bps = 400e9;
  node.nvlink_domain_gpus = 8;
  node.nvswitch = true;
  node.nvls = true;  // NVLink SHARP on the fourth-generation NVLink switch
  node.cpu_sockets = 2;
  node.cpu_model = "Xeon Platinum 8570";
  node.dram_bytes = 2e12;
  node.nvme_bytes = 8 * 3.84e12;                    // assumption: the DGX H100's 8 x 3.84 TB U.2
  node.nvme_write_bandwidth_bytes_per_s = 8 * 2e9;  // assumption, as for hgx-h100
  return node;
}

NodeSpec dgx_b200() {
  NodeSpec node = hgx_b200();
  node.preset = "dgx-b200";
  return node;
}

NodeSpec gb200_nvl72_tray() {
  // One compute tray of a GB200 NVL72 rack (moe-hardware-stacks.md section 3, GB200 NVL72;
  // docs.nvidia.com/dgx/dgxgb200-user-guide/hardware.html): 2 GB200 superchips = 2 Grace + 4
  // Blackwell GPUs, 4 x ConnectX-7 400G (one per GPU, compute fabric) + 2 x BlueField-3. A rack is
  // 18 such trays and 9 NVLink switch trays: every GPU reaches the other 71 at full NVLink 5
  // bandwidth, so the NVLink domain is 72 GPUs = 18 nodes, and a rack holds one domain.
  NodeSpec node;
  node.preset = "gb200-nvl72";
  node.gpus = 4;
  node.gpu = gb200();
  // The rack's ~120 kW (GTC 2024, ServeTheHome via TechRadar; Supermicro states 132 kW DC) less
  // 72 x 1,200 W of GPUs, spread over the 18 compute trays: the Grace CPUs and LPDDR5X, NICs,
  // fans and power-shelf losses of the tray *and* an 18th of the 9 NVLink switch trays and the
  // management switches, which have no node of their own. 6,666.7 - 4,800 = 1,866.7 W per tray.
  node.other_max_power_w = 120'000.0 / 18 - 4 * 1'200.0;
  node.rated_power_w = 120'000.0 / 18;
  // Not published; bottom-up assumption: 2 Grace + LPDDR5X ~250 W, 4 CX-7 + 2 BF3 ~140 W, a share
  // of the idle switch trays ~150 W, fans and losses ~60 W.
  node.other_idle_power_w = 600.0;
  node.compute_nics = 4;
  node.compute_nic_bandwidth_bps = 400e9;
  node.storage_nics = 2;  // 2 x BlueField-3; 400 Gb/s each is an assumption
  node.storage_nic_bandwidth_bps = 400e9;
  node.nvlink_domain_gpus = 72;
  node.nvswitch = true;
  node.nvls = true;
  node.cpu_sockets = 2;
  node.cpu_model = "Grace (72 Arm Neoverse V2 cores)";
  node.dram_bytes = 2 * 480e9;                      // assumption: 480 GB LPDDR5X per Grace (NVIDIA's maximum)
  node.nvme_bytes = 4 * 3.84e12;                    // assumption: 4 E1.S drives (GB300 RA lists 4)
  node.nvme_write_bandwidth_bytes_per_s = 4 * 2e9;  // assumption, as for hgx-h100
  return node;
}

void register_node_presets(NodePresetRegistry& registry) {
  registry.add({"hgx-h100",
                "HGX H100 8-GPU server: 8 x H100 SXM5 (700 W) on NVSwitch, 8 x 400G compute NICs, 10.2 kW max",
                {},
                &hgx_h100});
  registry.add({"dgx-h100",
                "NVIDIA DGX H100: as hgx-h100, plus 2 x 400G storage NICs, 2 x Xeon 8480C, 2 TB RAM",
                {},
                &dgx_h100});
  registry.add({"hgx-h200",
                "HGX H200 8-GPU server: as hgx-h100 with 8 x H200 (141 GB HBM3e, 4.8 TB/s)",
                {},
                &hgx_h200});
  registry.add({"dgx-a100",
                "NVIDIA DGX A100 640GB: 8 x A100 80GB (400 W) on NVSwitch gen 2, 8 x 200G HDR NICs, 6.5 kW max",
                {},
                &dgx_a100});
  registry.add({"hgx-h800", "HGX H800 8-GPU server: as hgx-h100 with 8 x H800 (NVLink 200 GB/s/dir)", {}, &hgx_h800});
  registry.add({"hgx-b200",
                "HGX B200 8-GPU server: 8 x B200 (1000 W, 180 GB) on NVLink 5, 8 x 400G compute NICs, 14.3 kW max",
                {},
                &hgx_b200});
  registry.add({"dgx-b200", "NVIDIA DGX B200: as hgx-b200, 2 x Xeon 8570, 2 TB RAM, 2 x BlueField-3", {}, &dgx_b200});
  registry.add({"gb200-nvl72",
                "GB200 NVL72 compute tray: 4 x GB200 (1200 W) + 2 Grace, 4 x 400G NICs; NVLink domain 72 GPUs = "
                "18 trays (one rack, ~120 kW with the switch trays)",
                {},
                &gb200_nvl72_tray});
}

}  // namespace dcsim::models::hardware
