#pragma once
// The datacenter's shared object store (storage_subsystem.hpp), as a plain config: the store
// itself (models/storage/store_config.hpp: its OSD hosts are hosts of one of the datacenter's
// networks, beyond the cluster's nodes), which network holds it, how many checkpoints a job
// keeps there, and scripted OSD host faults.

#include <vector>

#include "models/storage/store_config.hpp"
#include "sim/time.hpp"

namespace dcsim::models::storage {

// OSD host `host` (an index into the store's hosts), or only its drive `drive`, goes down at `at`
// and comes back at `repair` (max(): never). Its OSDs (that OSD) are marked out
// down_out_interval after it went down.
struct StoreHostFault {
  int host = 0;
  sim::Time at;
  sim::Time repair = sim::Time::max();
  int drive = -1;  // -1: the whole host
};

// End-to-end integrity of checkpoints in the store: what a checkpoint library's own checksums
// add above the store's (a store's checksums catch its drives' rot, not bytes that were already
// wrong when they left the client).
struct CheckpointIntegrity {
  // Silent corruptions per PB of checkpoint data written (a flipped bit in host memory, on a
  // NIC or on the way through a store daemon that no lower checksum sees): each checkpoint of B
  // bytes is corrupted with probability 1 - exp(-rate x B / 1e15), drawn when it is saved from
  // the job's stream "storage/integrity/<job>". 0: none injected.
  double corruptions_per_pb = 0.0;
  // Checksums: every rank hashes its shard before the write and after the restart read, at
  // hash_bytes_per_s_per_gpu (one CPU core per rank); a corrupted checkpoint is then found when
  // it is read and the job falls back to an older one. Without, the job loads it.
  bool verify = false;
  // XXH64 on one core: 19.4 GB/s (xxHash README benchmark, i7-9700K, clang -O3); XXH3 31.5 GB/s.
  double hash_bytes_per_s_per_gpu = 19.4e9;
};

struct StorageConfig {
  StoreConfig store;        // store.hosts: hosts of the network below
  bool on_backend = false;  // false: the /frontend network; true: the backend /fabric
  // Checkpoints a job keeps in the store: once a newer one is saved, the oldest beyond these are
  // deleted (their bytes freed), as checkpoint managers' "keep last N" do. >= 1.
  int keep_checkpoints = 2;
  std::vector<StoreHostFault> faults;  // in time order
  CheckpointIntegrity integrity;
  // Samples of the drives' and pools' load while the store works (store_load_sampler.hpp);
  // zero: none.
  sim::Time series_interval = sim::Time::from_s(1);
};

}  // namespace dcsim::models::storage
