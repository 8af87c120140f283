#pragma once
// Bottom-up node power: GPUs (gpu_power.hpp), CPU packages, DRAM, NICs, NVMe, NVSwitches and
// fans as DC loads, and the PSUs' load-dependent efficiency that turns them into AC input power
// (the node's IT power, which is also the heat it releases).
//
//   P_dc  = sum_g P_gpu,g + sockets * (P_cpu_idle + (P_cpu_max - P_cpu_idle) * h)
//           + P_dram(h) + nics * (P_nic + P_optic) + pcie_switches * P_pcie + nvme * P_nvme
//           + P_switch(u) + P_fan_max * s^3
//   P_ac  = P_dc / eta_psu(P_dc / psu_capacity)
//   h     = min(1, u * gpus * host_threads_per_gpu / (sockets * cpu_cores_per_socket))
//
// u is the GPU utilisation of the node's job; h the host's load: a GPU job keeps a few threads
// per GPU busy (the framework's launch thread, NCCL's proxy thread), not the whole host, so the
// packages draw for those cores (RAPL-style package power linear in busy cores) and not their
// TDP (issue 40 item 7: a node computing alone read ~20% high when the host followed the GPUs).
// h scales with u so that power stays linear in u (the mean power over a step is the power at
// its mean activity). s is the node fan speed fraction (fan affinity law: power ~ speed^3).
// eta_psu is piecewise linear through the 80 PLUS Titanium (230 V internal redundant) points:
// 90% at 10% load, 94% at 20%, 96% at 50%, 91% at 100% (80 PLUS program requirements).

#include <vector>

#include "models/power/gpu_power.hpp"

namespace dcsim::models::power {

struct NodePowerConfig {
  int gpus = 8;
  GpuPowerConfig gpu;
  // 2 x Xeon 8480C per DGX H100 (public-figures.md); 350 W TDP (Intel ARK), ~100 W idle package
  // power (assumption: typical RAPL idle of a 56-core Sapphire Rapids).
  int cpu_sockets = 2;
  double cpu_idle_power_w = 100.0;
  double cpu_max_power_w = 350.0;
  // 56 cores per Xeon Platinum 8480C (Intel ARK; DGX H100 user guide: 112 cores in 2 sockets).
  int cpu_cores_per_socket = 56;
  // Host threads a GPU job keeps busy per GPU: the framework's launch thread (one process per
  // GPU, as torchrun starts them) and NCCL's proxy thread, which polls the network for that GPU's
  // channels (NCCL documentation, "proxy thread"). Data loading of tokenised text adds little
  // (assumption). 16 of 112 cores on a DGX H100.
  double host_threads_per_gpu = 2.0;
  // 2 TB DDR5 as 32 x 64 GB RDIMMs at ~3-8 W each (assumption from DIMM datasheet ranges); its
  // dynamic part follows the host's load (the GPUs' HBM is in their own power).
  double dram_idle_power_w = 100.0;
  double dram_max_power_w = 250.0;
  // 10 ConnectX-7 (8 compute + 2 storage, public-figures.md) at ~20 W each (assumption).
  int nics = 10;
  double nic_power_w = 20.0;
  // The pluggable optic in each NIC cage: 8 W typical (9 W max) for a 400G OSFP transceiver
  // (NVIDIA MMA4Z00-NS400 / MMS4X00-NS400 product specifications, docs.nvidia.com/networking).
  double nic_optic_power_w = 8.0;
  // PCIe Gen5 switches between CPUs, GPUs and NICs: 4 per 8-GPU board (Grand Teton: 8 NICs behind
  // 4 PCIe Gen5 switches, public-figures.md). Derived: the 96-lane Gen4 PEX88096 dissipates 36 W
  // typical (Linley Group, 2019); a 144-lane Gen5 PEX89144 at the same power per lane, 54 W.
  int pcie_switches = 4;
  double pcie_switch_power_w = 54.0;
  int nvme_drives = 8;
  double nvme_power_w = 12.0;      // U.2 NVMe active power ~10-15 W (assumption)
  // Four NVLink switch chips on the HGX board (assumption ~ 50-100 W each with NVLink load).
  double switch_idle_power_w = 200.0;
  double switch_max_power_w = 400.0;
  // Chassis fans at full speed, air-cooled 8U HGX: ~1.5 kW (assumption; 10.2 kW system max less
  // the parts above, the CPUs at their TDP, leaves about this much).
  double fan_max_power_w = 1500.0;
  // 6 x 3.3 kW PSUs sharing the load (DGX H100 user guide, public-figures.md).
  double psu_capacity_w = 6 * 3300.0;
  // (load fraction, efficiency) points, ascending; flat outside.
  std::vector<std::pair<double, double>> psu_efficiency_curve = {
      {0.10, 0.90}, {0.20, 0.94}, {0.50, 0.96}, {1.00, 0.91}};
};

struct NodePowerBreakdown {
  double gpu_w = 0.0;
  double cpu_w = 0.0;
  double other_w = 0.0;   // DRAM, NICs and optics, PCIe switches, NVMe, NVSwitches
  double fan_w = 0.0;
  double dc_w = 0.0;
  double psu_loss_w = 0.0;
  double ac_w = 0.0;      // IT power at the node's inlet
};

double psu_efficiency(const NodePowerConfig& config, double load_fraction);

// The host's load h in [0, 1] at GPU utilisation u (the header's h).
double host_load(const NodePowerConfig& config, double utilization);

// gpu_power_w: power of each GPU (size gpus); utilization of the node's job; fan_speed in [0,1].
NodePowerBreakdown node_power(const NodePowerConfig& config, const double* gpu_power_w,
                              double utilization, double fan_speed);

}  // namespace dcsim::models::power
