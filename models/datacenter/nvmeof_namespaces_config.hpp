#pragma once
// The datacenter's NVMe-oF targets (models/storage/nvmeof_subsystem.hpp) as a plain config: the targets
// themselves (models/storage/nvmeof_config.hpp: their hosts are hosts of one of the datacenter's
// networks, beyond the cluster's nodes) and which network holds them.

#include "models/storage/nvmeof_config.hpp"

namespace dcsim::models::datacenter {

struct NvmeofNamespacesConfig {
  storage::NvmeofConfig targets;  // targets.targets: hosts of the network below
  bool on_backend = false;        // false: the /frontend network; true: the backend /fabric
};

}  // namespace dcsim::models::datacenter
