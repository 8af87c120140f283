#pragma once
// The shared object store as a subsystem of the datacenter (models/datacenter/subsystems.cpp hands
// it its section and a StorageSite): an ObjectStore (object_store.hpp) whose OSD hosts are hosts of the front-end
// network (or the backend), so checkpoints meet the store's drives, its NICs, its replication traffic and whatever else
// shares that network. It is the cluster's CheckpointStore (models/seams/checkpoint_store.hpp):
//   writes    a job whose checkpoint target is the store writes each checkpoint as the store's
//             write (every node its share, into the job's pool); the job's run waits for it (a
//             synchronous save). A write the pool refuses (too full) or cannot place (every
//             member of some PG down) saves nothing: the job's previous checkpoint stays its last.
//             Once a job has saved more than keep_checkpoints, its oldest are deleted.
//   reads     a restart from the checkpoint reads it back (every node its share of the job's
//             checkpoint) before the work resumes: degraded while an OSD host is down
//             (survivors, or k other chunks), competing with backfill once it is out.
//   datasets  a job whose input comes from the store reads it ahead of its steps
//             (dataset_reader.hpp): one store read per chunk, every node its share, a row of
//             storage/operations each (kind dataset_read).
//   faults    OSD host faults and single OSD (drive) faults: scripted (StorageConfig::faults, from
//             /faults) and random (the reliability model's osd_host_down and osd_down classes, as
//             StoreHostChange signals); a host or OSD is up again once every fault holding it
//             down is repaired.
//   integrity a checkpoint is saved corrupted at integrity.corruptions_per_pb; with verify, every
//             rank hashes its shard before the write and after the read (hash time per node =
//             bytes per node / (GPUs x hash rate), part of the write and read times) and a
//             corrupted checkpoint is found when read (CheckpointRead::kCorruptFound: the cluster
//             falls back to an older one); without, the job loads it (kCorruptUnnoticed).
// An interrupted run's write or read in flight finishes in the store (its bytes still move);
// only the run ignores its end, and a write it abandoned is dropped, not kept as a checkpoint.
// The job's kept checkpoints here and the ones the cluster can restart from are the same list:
// both keep the newest keep_checkpoints, and a restart from an older one deletes the newer
// (keep_oldest).
//
// Emits
//   series   storage/<pool>/stored_bytes (client bytes kept, at each write and delete),
//            storage/hosts_down, storage/osds_down (OSD hosts, single OSDs down, at each fault
//            and repair)
//   table    storage/operations: one row per checkpoint write or read that ended (job, kind, pool,
//            bytes, start, end, ok, corrupt)
//   summary  storage/osd_hosts, osds, raw_capacity_bytes; checkpoint_writes, checkpoint_write_s_p50,
//            checkpoint_write_s_max, checkpoint_writes_failed, checkpoint_reads, checkpoint_read_s_p50,
//            checkpoint_read_s_max, checkpoint_reads_failed, stall_s; client_write_bytes,
//            client_read_bytes, back_bytes, recovery_bytes, recovery_read_bytes, degraded_s,
//            host_failures, osd_failures; pools/<pool>/stored_bytes_end, pools/<pool>/osd_fill_max;
//            integrity/checkpoints_corrupted, corrupt_reads_found, corrupt_reads_loaded,
//            hash_node_s;
//            jobs/<job>/checkpoint_write_s_p50, checkpoint_write_s_max, checkpoint_read_s_max,
//            stall_s (seconds the job waited on the store: its synchronous writes (an async save's
//            write runs beside its steps) and its restart reads), stall_gpu_h (x its GPUs);
//            stall_gpu_h (all jobs); dataset_reads, dataset_reads_failed, dataset_bytes (and per
//            job): input read ahead of the steps (the cluster adds data_stall_s, the time steps
//            waited for it: cluster_hosts.cpp); weight_reads, weight_reads_failed,
//            weight_bytes, weight_read_s_p50, weight_read_s_max: inference replicas loading their
//            weights (rows of kind weights_read)
// Costs: the store's (O(hosts^2) per operation at most); O(1) per checkpoint here, plus
// O(checkpoints of a job) per percentile at the end.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/seams/checkpoint_store.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/flow_network.hpp"
#include "models/seams/subsystem.hpp"
#include "models/storage/object_store.hpp"
#include "models/storage/storage_config.hpp"
#include "models/storage/store_load_sampler.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::storage {

// The pools a training job names: its checkpoints' when its target is the store, its dataset's
// when it reads it from the store (none: it does not).
struct StorePoolUser {
  std::optional<std::string> checkpoint_pool, dataset_pool;
};

// What the store reads beyond its own section: the network its OSD hosts are on (cluster node i
// is its host i), the cluster's node count and GPUs per node, the seed, the training jobs' pools
// (by job index), and the cluster that checkpoints to it.
struct StorageSite {
  seams::FlowNetwork& network;
  int cluster_nodes = 0;
  int gpus_per_node = 1;
  std::uint64_t seed = 1;
  std::vector<StorePoolUser> training_jobs;
  seams::CheckpointStoreHost& jobs;
};

class StorageSubsystem final : public seams::Subsystem, public seams::CheckpointStore {
 public:
  // Throws sim::ConfigError naming the field: "hosts" (an OSD host that is a cluster node or not
  // a host of the network), "keep_checkpoints", the store's own fields (object_store.hpp),
  // "faults[i].host", and "training[i].checkpoint.pool" or "training[i].dataset.pool" (a job's
  // pool the store lacks). Listens to random OSD faults (signals.store_host_fault). Attaches
  // itself to the cluster (site.jobs).
  StorageSubsystem(const StorageConfig& config, const StorageSite& site, sim::Simulator& simulator,
                   sim::TraceSink& sink, seams::DatacenterSignals& signals);
  ~StorageSubsystem() override;

  void start() override;
  void finish() override;

  std::unique_ptr<seams::CheckpointWriter> writer(const std::string& job, const std::string& pool,
                                                  const std::vector<int>& nodes, bool job_waits) override;
  void read(const std::string& job, const std::string& pool, const std::vector<int>& nodes, double bytes_per_node,
            std::function<void(seams::CheckpointRead)> on_done) override;
  int kept_checkpoints() const override { return config_.keep_checkpoints; }
  void keep_oldest(const std::string& job, std::size_t count) override;
  double write_bound_s(const std::string& pool, double bytes, int nodes) const override;
  void hold_dataset(const std::string& job, const std::string& pool, double bytes) override;
  std::vector<network::UplinkSource> copy_sources(const std::string& pool) const override;
  void read_data(DataKind kind, const std::string& job, const std::string& pool, const std::vector<int>& nodes,
                 double bytes_per_node, std::function<void(bool ok)> on_done) override;

  ObjectStore& store() { return *store_; }

 private:
  class Writer;
  struct Operation;
  struct Saved {
    int pool = 0;
    double bytes = 0.0;
    bool corrupt = false;
  };
  struct JobRecord {
    std::vector<Saved> saved;  // the job's checkpoints in the store, oldest first
    std::vector<double> write_s, read_s;
    double stall_s = 0.0;  // synchronous writes and restart reads: the job waited for them
    int writes_failed = 0, reads_failed = 0;
    int gpus = 0;  // of its latest operation's nodes
    std::int64_t dataset_reads = 0, dataset_reads_failed = 0;
    double dataset_bytes = 0.0;
    std::optional<sim::RandomStream> corruption;  // "storage/integrity/<job>", at its first save
  };
  int pool_of(const std::string& name) const;
  std::vector<ObjectStore::ClientShare> shares(const std::vector<int>& nodes, double bytes_per_node) const;
  // Seconds a node takes to hash its share (verify): its GPUs' ranks hash their shards at once.
  sim::Time hash_time(double bytes_per_node) const;
  // `abandoned`: set once the run that wrote it stopped (its bytes are dropped, nothing saved).
  void write(const std::string& job, int pool, bool job_waits, std::vector<ObjectStore::ClientShare> clients,
             std::shared_ptr<const bool> abandoned, std::function<void(bool)> on_done);
  void start_write(std::shared_ptr<Operation> op);
  // A write is safe: the job's newest checkpoint, corrupted (returned) with the integrity rate.
  bool save(const std::string& job, int pool, double bytes);
  void keep_newest(JobRecord& r, std::size_t count);
  // A finished operation: its row and its time; the caller then tells its client (as an event:
  // never inside the client's call).
  void ended(const std::string& job, bool is_write, bool job_waited, int pool, double bytes, sim::Time start, bool ok,
             bool corrupt);
  void record_stored(int pool);
  void set_host(int host, bool up);
  void set_osd(int host, int drive, bool up);

  StorageConfig config_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::unique_ptr<ObjectStore> store_;
  std::unique_ptr<StoreLoadSampler> load_;  // after store_: destroyed before it
  std::map<std::string, JobRecord> jobs_;
  std::vector<sim::SeriesId> stored_series_;  // per pool
  sim::SeriesId hosts_down_series_ = 0;
  sim::SeriesId osds_down_series_ = 0;
  sim::TableId operations_ = 0;
  std::vector<sim::EventHandle> fault_events_;
  int hosts_down_ = 0;
  std::vector<int> host_faults_;  // per OSD host: faults holding it down
  int osds_down_ = 0;
  std::vector<int> osd_faults_;        // per OSD: faults holding it down
  std::vector<double> dataset_bytes_;  // per pool: the datasets it holds
  std::uint64_t seed_ = 1;
  int gpus_per_node_ = 1;
  // Integrity: checkpoints saved corrupted, corrupt ones read (found by checksums, or loaded),
  // node-seconds of hashing.
  std::int64_t saved_corrupt_ = 0, corrupt_found_ = 0, corrupt_loaded_ = 0;
  double hash_s_ = 0.0;
  // Inference replicas' weight reads (not per job: replicas come and go by the hundred).
  std::vector<double> weight_read_s_;
  double weight_bytes_ = 0.0;
  std::int64_t weight_reads_failed_ = 0;
};

}  // namespace dcsim::models::storage
