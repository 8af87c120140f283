#pragma once
// A compute node's hardware, as far as the models need it. Presets come from public figures
// (see node_presets.cpp, which cites them); every field can be overridden in a scenario.

#include <string>

namespace dcsim::models::hardware {

struct GpuSpec {
  std::string model = "H100 SXM5";
  double idle_power_w = 0.0;    // at the idle clock, no work
  double max_power_w = 0.0;     // power limit at full utilisation
  double peak_bf16_flops = 0.0; // dense tensor FLOP/s
  double hbm_bytes = 0.0;
  double hbm_bandwidth_bytes_per_s = 0.0;
};

struct NodeSpec {
  std::string preset;           // name it was built from ("" when fully custom)
  int gpus = 0;
  GpuSpec gpu;
  // Everything that is not a GPU (CPUs, DRAM, NICs, NVMe, fans, PSU losses), idle and at full
  // load; it scales linearly with the node's GPU utilisation in between.
  double other_idle_power_w = 0.0;
  double other_max_power_w = 0.0;
  int compute_nics = 0;
  double compute_nic_bandwidth_bps = 0.0;

  double max_power_w() const { return gpus * gpu.max_power_w + other_max_power_w; }
  double idle_power_w() const { return gpus * gpu.idle_power_w + other_idle_power_w; }
};

}  // namespace dcsim::models::hardware
