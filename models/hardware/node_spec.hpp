#pragma once
// A compute node's hardware, as far as the models need it. Presets come from public figures
// (gpu_presets.cpp and node_presets.cpp cite them); every field is a plain value that a scenario
// may override.
//
// Units: FLOP/s (dense, no sparsity), bytes, bytes/s for memory and NVLink, bits/s for NICs,
// watts. NVLink bandwidth is per GPU and per direction (H100: 18 links x 25 GB/s = 450 GB/s out
// and 450 GB/s in), which is what NCCL's bus bandwidth is compared with.

#include <string>

namespace dcsim::models::hardware {

struct GpuSpec {
  std::string model = "H100 SXM5";
  double idle_power_w = 0.0;    // at the idle clock, no work
  double max_power_w = 0.0;     // power limit at full utilisation
  double min_power_limit_w = 0.0;  // lowest power cap the driver accepts
  double peak_bf16_flops = 0.0; // dense tensor FLOP/s (also FP16)
  double peak_fp8_flops = 0.0;  // dense tensor FLOP/s; 0: no FP8 tensor cores (A100)
  double peak_tf32_flops = 0.0; // dense tensor FLOP/s
  double hbm_bytes = 0.0;
  double hbm_bandwidth_bytes_per_s = 0.0;
  double nvlink_bandwidth_bytes_per_s = 0.0;  // per direction, all links of one GPU together
  int nvlink_links = 0;
  int sms = 0;                  // streaming multiprocessors (wave quantisation in the GEMM model)
  double max_sm_clock_hz = 0.0;
  // Thermal limits the driver enforces (nvidia-smi -q "GPU Max Operating / Slowdown / Shutdown
  // Temp"): clocks start to fall above max operating, hardware slowdown at slowdown, the GPU
  // stops at shutdown. The facility's throttling takes them unless the scenario sets its own.
  double max_operating_c = 0.0;
  double slowdown_c = 0.0;
  double shutdown_c = 0.0;
};

struct NodeSpec {
  std::string preset;           // name it was built from ("" when fully custom)
  int gpus = 0;
  GpuSpec gpu;
  // Everything that is not a GPU (CPUs, DRAM, NICs, NVMe, fans, PSU losses), idle and at full
  // load; it scales linearly with the node's GPU utilisation in between.
  double other_idle_power_w = 0.0;
  double other_max_power_w = 0.0;
  // The system's maximum power, what its PSUs are sized for and a colocation contract is written
  // on (DGX H100: 10.2 kW). Not a draw: a node training draws less (other_max_power_w). 0: the
  // full-load draw, max_power_w().
  double rated_power_w = 0.0;
  // Back-end (compute) fabric: NICs that carry collectives between nodes. With rail-optimised
  // wiring NIC i serves GPU i (gpus / compute_nics GPUs share one NIC when there are fewer).
  int compute_nics = 0;
  double compute_nic_bandwidth_bps = 0.0;
  // Front-end / storage NICs (checkpoints, data loading), not used by collectives.
  int storage_nics = 0;
  double storage_nic_bandwidth_bps = 0.0;
  // NVLink domain: GPUs that reach each other over NVLink (one node for HGX/DGX; larger for
  // NVL72-like racks). With an NVSwitch every GPU reaches every other at full NVLink bandwidth;
  // nvls says the switch can reduce in-network (NVLink SHARP, third-generation NVSwitch).
  int nvlink_domain_gpus = 0;
  bool nvswitch = false;
  bool nvls = false;
  int cpu_sockets = 0;
  std::string cpu_model;
  double dram_bytes = 0.0;
  double nvme_bytes = 0.0;
  // Sustained sequential write of the node's local NVMe array (checkpoints to local disk).
  double nvme_write_bandwidth_bytes_per_s = 0.0;

  double max_power_w() const { return gpus * gpu.max_power_w + other_max_power_w; }
  double idle_power_w() const { return gpus * gpu.idle_power_w + other_idle_power_w; }
  double nameplate_power_w() const { return rated_power_w > 0.0 ? rated_power_w : max_power_w(); }
  double compute_nic_bandwidth_bytes_per_s() const { return compute_nic_bandwidth_bps / 8.0; }
};

}  // namespace dcsim::models::hardware
