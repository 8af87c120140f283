#pragma once
// Where training jobs keep checkpoints beyond a rate: the shared object store and remote NVMe
// namespaces as the jobs see them, and the seam through which the cluster is handed them.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/network/uplink_values.hpp"
#include "models/seams/checkpoint_writer.hpp"

namespace dcsim::models::seams {

// What a restart read of a checkpoint found: the data, none (some of it on no OSD up), or a
// checkpoint that was corrupted on its way into the store, found by its checksums (verified
// reads) or not (the job loads the corruption).
enum class CheckpointRead { kOk, kUnavailable, kCorruptFound, kCorruptUnnoticed };

// The shared object store as training jobs see it (storage_subsystem.hpp): a job whose
// checkpoint target is the store writes every checkpoint through a writer it gets here and reads
// its last one back here before a restart resumes. Node i is host i of the store's network.
class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;
  // A writer for one run of job `job` on `nodes`, into `pool` (empty: the store's first pool);
  // `job_waits`: the job stalls for each write (synchronous saves), not beside it (async).
  virtual std::unique_ptr<CheckpointWriter> writer(const std::string& job, const std::string& pool,
                                                   const std::vector<int>& nodes, bool job_waits) = 0;
  // Every node reads `bytes_per_node` of the job's newest kept checkpoint (and verifies it, when
  // the store checks integrity); on_done once all have, never before the call returns.
  virtual void read(const std::string& job, const std::string& pool, const std::vector<int>& nodes,
                    double bytes_per_node, std::function<void(CheckpointRead)> on_done) = 0;
  // How many of a job's latest checkpoints the store keeps (older ones are deleted): the ones a
  // rollback can go back to.
  virtual int kept_checkpoints() const = 0;
  // The least a synchronous save of `bytes` from `nodes` nodes into `pool` can stall a job (the
  // drives' bound, the hashing): what a checkpoint interval is optimised against.
  virtual double write_bound_s(const std::string& pool, double bytes, int nodes) const = 0;
  // The job goes on from its `count` oldest kept checkpoints: the newer ones (after a rollback
  // or a checkpoint found corrupt) are deleted.
  virtual void keep_oldest(const std::string& job, std::size_t count) = 0;
  // Every node reads `bytes_per_node` of the job's data from `pool`: its input (a training job's
  // dataset) or its weights (an inference replica's); on_done(ok) once all have, as an event.
  // ok is false when some of it is on no OSD up.
  enum class DataKind { kDataset, kWeights };
  // Job `job`'s dataset lies in `pool` from the start: `bytes` of client data that take its room
  // (a pool too small for them is a sim::ConfigError naming the pool).
  virtual void hold_dataset(const std::string& job, const std::string& pool, double bytes) = 0;
  virtual void read_data(DataKind kind, const std::string& job, const std::string& pool,
                         const std::vector<int>& nodes, double bytes_per_node, std::function<void(bool ok)> on_done) = 0;
  // Where a copy of a checkpoint in `pool` is read from as of now: each OSD host (a host of the
  // store's network) with its share of the bytes, read through its drives (the resource): what
  // an off-site copy of the checkpoint leaves from (site_uplink.hpp). Empty when no data of the
  // pool is on a member up.
  virtual std::vector<network::UplinkSource> copy_sources(const std::string& pool) const = 0;
};

// Remote NVMe namespaces as training jobs see them (models/storage/nvmeof_subsystem.hpp): a job whose checkpoint
// target is nvmeof writes every checkpoint through a writer it gets here (each node to its own
// namespace) and reads its last one back here before a restart resumes. Node i is host i of the
// targets' network.
class CheckpointNamespaces {
 public:
  virtual ~CheckpointNamespaces() = default;
  virtual std::unique_ptr<CheckpointWriter> writer(const std::vector<int>& nodes) = 0;
  // Every node reads `bytes_per_node` back; on_done(ok) once all have, never before the call
  // returns (ok false when some node could not reach its target).
  virtual void read(const std::vector<int>& nodes, double bytes_per_node, std::function<void(bool ok)> on_done) = 0;
  // The least a synchronous save of `bytes` from `nodes` nodes can stall a job (the targets'
  // drives and cores, a node's queue): what a checkpoint interval is optimised against.
  virtual double write_bound_s(double bytes, int nodes) const = 0;
};

// The owner of the training jobs (the cluster) takes the store and the namespaces while the
// datacenter is built.
class CheckpointStoreHost {
 public:
  virtual ~CheckpointStoreHost() = default;
  virtual void attach_checkpoint_store(CheckpointStore& store) = 0;
  virtual void attach_checkpoint_namespaces(CheckpointNamespaces& namespaces) = 0;
};

}  // namespace dcsim::models::seams
