#include "models/reliability/llama3_faults.hpp"

#include <string>

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

constexpr double kHour = 3600.0;

sim::Distribution lognormal_h(double median_h) {
  return {sim::Distribution::Kind::kLognormal, median_h * kHour, 1.0};
}
sim::Distribution fixed_s(double s) { return {sim::Distribution::Kind::kFixed, s, 0.0}; }

}  // namespace

const std::vector<Llama3Cause>& llama3_causes() {
  // Llama 3 paper table 5 (via glennklockwood.com/garden/component-reliability).
  static const std::vector<Llama3Cause> causes{
      {"faulty GPU (incl. NVLink)", "gpu_faulty", 148},
      {"GPU HBM3 memory", "gpu_hbm3", 72},
      {"software bug", "software", 54},
      {"network switch/cable", "network_cable", 35},
      {"host maintenance (unplanned)", "host_maintenance", 32},
      {"GPU SRAM memory", "gpu_sram", 19},
      {"GPU system processor", "gpu_system_processor", 17},
      {"NIC", "nic", 7},
      {"NCCL watchdog timeouts", "nccl_watchdog", 7},
      {"silent data corruption", "silent_data_corruption", 6},
      {"GPU thermal interface and sensor", "gpu_thermal_interface", 6},
      {"SSD", "ssd", 3},
      {"power supply", "psu", 3},
      {"server chassis", "chassis", 2},
      {"IO expansion board", "io_board", 2},
      {"dependency", "dependency", 2},
      {"CPU", "cpu", 2},
      {"system memory", "system_memory", 2},
  };
  return causes;
}

std::vector<FaultClass> llama3_fault_classes(int gpus_per_node) {
  if (gpus_per_node < 1) {
    throw sim::ConfigError("gpus_per_node", "expected at least 1 GPU per node, got " + std::to_string(gpus_per_node));
  }
  using CK = ComponentKind;
  using FE = FaultEffect;
  const double node_share = gpus_per_node / 8.0;  // host rates scale with GPUs per host (see header)
  struct Row {
    const char* name;
    CK kind;
    FE effect;
    sim::Distribution repair;
  };
  const sim::Distribution gpu_hw = lognormal_h(24.0);
  const sim::Distribution host_fru = lognormal_h(8.0);
  const sim::Distribution restart = fixed_s(600.0);
  const std::vector<Row> rows{
      {"gpu_faulty", CK::kGpu, FE::kNodeDown, gpu_hw},
      {"gpu_hbm3", CK::kGpu, FE::kNodeDown, gpu_hw},
      {"software", CK::kNode, FE::kJobCrash, restart},
      {"network_cable", CK::kLink, FE::kLinkDown, lognormal_h(2.0)},
      {"host_maintenance", CK::kNode, FE::kNodeDown, lognormal_h(4.0)},
      {"gpu_sram", CK::kGpu, FE::kNodeDown, gpu_hw},
      {"gpu_system_processor", CK::kGpu, FE::kNodeDown, gpu_hw},
      {"nic", CK::kNic, FE::kNicDown, lognormal_h(4.0)},
      {"nccl_watchdog", CK::kNode, FE::kJobCrash, restart},
      {"silent_data_corruption", CK::kGpu, FE::kJobCrash, fixed_s(3600.0)},
      {"gpu_thermal_interface", CK::kGpu, FE::kNodeDown, gpu_hw},
      {"ssd", CK::kNode, FE::kNodeDown, host_fru},
      {"psu", CK::kNode, FE::kNodeDown, host_fru},
      {"chassis", CK::kNode, FE::kNodeDown, host_fru},
      {"io_board", CK::kNode, FE::kNodeDown, host_fru},
      {"dependency", CK::kNode, FE::kJobCrash, restart},
      {"cpu", CK::kNode, FE::kNodeDown, host_fru},
      {"system_memory", CK::kNode, FE::kNodeDown, host_fru},
  };
  const auto& causes = llama3_causes();
  std::vector<FaultClass> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (std::string(r.name) != causes[i].class_name) {
      throw sim::InternalError("llama3_fault_classes: row " + std::to_string(i) + " is not cause '" +
                               causes[i].cause + "' (this is a bug)");
    }
    double instances = 0;
    switch (r.kind) {
      case CK::kGpu: instances = kLlama3Gpus; break;
      case CK::kNode: instances = kLlama3Nodes; break;
      case CK::kNic: instances = kLlama3Nics; break;
      case CK::kLink: instances = kLlama3Cables; break;
      default: break;
    }
    double rate = causes[i].count / (kLlama3Hours * instances);
    if (r.kind == CK::kNode) rate *= node_share;
    out.push_back({r.name, r.kind, rate, 1.0, r.repair, r.effect});
  }
  return out;
}

Inventory llama3_405b_inventory() {
  Inventory inv;
  inv.nodes = 2048;
  inv.gpus_per_node = 8;
  inv.nics_per_node = 8;
  inv.links = static_cast<std::int64_t>(kLlama3Cables);
  inv.switches = 0;
  inv.zones = 1;
  return inv;
}

}  // namespace dcsim::models::reliability
