#pragma once
// The store's config moved to its part (models/storage/storage_config.hpp); these names stay for
// the scenario layer until it includes that header.

#include "models/storage/storage_config.hpp"

namespace dcsim::models::datacenter {

using storage::CheckpointIntegrity;
using storage::StorageConfig;
using storage::StoreHostFault;

}  // namespace dcsim::models::datacenter
