#pragma once
// The datacenter's shared object store (storage_subsystem.hpp), as a plain config: the store
// itself (models/storage/store_config.hpp: its OSD hosts are hosts of one of the datacenter's
// networks, beyond the cluster's nodes), which network holds it, how many checkpoints a job
// keeps there, and scripted OSD host faults.

#include <vector>

#include "models/storage/store_config.hpp"
#include "sim/time.hpp"

namespace dcsim::models::datacenter {

// OSD host `host` (an index into the store's hosts) goes down at `at` and comes back at
// `repair` (max(): never). Its OSDs are marked out down_out_interval after it went down.
struct StoreHostFault {
  int host = 0;
  sim::Time at;
  sim::Time repair = sim::Time::max();
};

struct StorageConfig {
  storage::StoreConfig store;     // store.hosts: hosts of the network below
  bool on_backend = false;        // false: the /frontend network; true: the backend /fabric
  // Checkpoints a job keeps in the store: once a newer one is saved, the oldest beyond these are
  // deleted (their bytes freed), as checkpoint managers' "keep last N" do. >= 1.
  int keep_checkpoints = 2;
  std::vector<StoreHostFault> faults;  // in time order
};

}  // namespace dcsim::models::datacenter
