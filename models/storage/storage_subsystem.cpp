#include "models/storage/storage_subsystem.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::storage {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

}  // namespace

// One run's checkpoint writes into the store: every node of the job its share.
class StorageSubsystem::Writer final : public seams::CheckpointWriter {
 public:
  Writer(StorageSubsystem& owner, std::string job, int pool, std::vector<int> nodes, bool job_waits)
      : owner_(owner), job_(std::move(job)), pool_(pool), nodes_(std::move(nodes)), job_waits_(job_waits) {}
  void start(double bytes_per_node, std::function<void(bool)> on_done) override {
    owner_.write(job_, pool_, job_waits_, owner_.shares(nodes_, bytes_per_node), abandoned_, std::move(on_done));
  }
  void abandon() override { *abandoned_ = true; }

 private:
  StorageSubsystem& owner_;
  std::string job_;
  int pool_;
  std::vector<int> nodes_;
  bool job_waits_;
  std::shared_ptr<bool> abandoned_ = std::make_shared<bool>(false);  // outlives the writer in the store's callbacks
};

StorageSubsystem::StorageSubsystem(const StorageConfig& config, const StorageSite& site, sim::Simulator& simulator,
                                   sim::TraceSink& sink, seams::DatacenterSignals& signals)
    : config_(config), sim_(simulator), sink_(sink) {
  // Single-key ranges (keep_checkpoints, integrity, series_interval) are the scenario format's
  // (tools/scenario/storage_spec.cpp); here only what spans keys or parts.
  seed_ = site.seed;
  gpus_per_node_ = std::max(1, site.gpus_per_node);
  const int nodes = site.cluster_nodes;
  const std::size_t hosts = site.network.host_count();
  for (std::uint32_t h : config_.store.hosts) {
    if (h < static_cast<std::uint32_t>(nodes) || h >= hosts) {
      throw sim::ConfigError("hosts", "OSD hosts are hosts of the store's network beyond the cluster's nodes (" +
                                          std::to_string(nodes) + " to " + std::to_string(hosts == 0 ? 0 : hosts - 1) +
                                          "): host " + std::to_string(h) + " is not; give the network at least " +
                                          std::to_string(nodes + config_.store.hosts.size()) + " hosts");
    }
  }
  store_ = std::make_unique<ObjectStore>(sim_, site.network, config_.store);
  if (config_.series_interval > sim::Time::zero()) {
    load_ = std::make_unique<StoreLoadSampler>(*store_, site.network, config_.series_interval, sim_, sink_);
    store_->set_on_busy([this](bool busy) { load_->on_busy(busy); });
  }
  host_faults_.assign(config_.store.hosts.size(), 0);
  osd_faults_.assign(config_.store.hosts.size() * static_cast<std::size_t>(config_.store.drives_per_host), 0);
  // Random OSD host and OSD faults (the reliability model's osd_host_down and osd_down classes).
  signals.store_host_fault.connect([this](const seams::StoreHostChange& f) {
    if (f.host < 0 || static_cast<std::size_t>(f.host) >= host_faults_.size()) return;
    if (f.drive < 0) set_host(f.host, f.repaired);
    else if (f.drive < config_.store.drives_per_host) set_osd(f.host, f.drive, f.repaired);
  });
  for (std::size_t i = 0; i < config_.faults.size(); ++i) {
    const int h = config_.faults[i].host;
    if (h < 0 || static_cast<std::size_t>(h) >= config_.store.hosts.size()) {
      throw sim::ConfigError("faults[" + std::to_string(i) + "].host",
                             "must be an OSD host index below " + std::to_string(config_.store.hosts.size()));
    }
    if (config_.faults[i].drive >= config_.store.drives_per_host) {
      throw sim::ConfigError("faults[" + std::to_string(i) + "].drive",
                             "must be a drive index below " + std::to_string(config_.store.drives_per_host) +
                                 " (drives_per_host)");
    }
  }
  for (std::size_t j = 0; j < site.training_jobs.size(); ++j) {
    const StorePoolUser& job = site.training_jobs[j];
    if (job.checkpoint_pool && pool_of(*job.checkpoint_pool) < 0) {
      throw sim::ConfigError("training[" + std::to_string(j) + "].checkpoint.pool",
                             "names no pool of the store: '" + *job.checkpoint_pool + "'");
    }
    if (job.dataset_pool && pool_of(*job.dataset_pool) < 0) {
      throw sim::ConfigError("training[" + std::to_string(j) + "].dataset.pool",
                             "names no pool of the store: '" + *job.dataset_pool + "'");
    }
  }
  for (const PoolConfig& p : config_.store.pools) {
    stored_series_.push_back(sink_.declare_series("storage/" + p.name + "/stored_bytes", "B",
                                                  "client bytes the pool keeps (checkpoints saved and not deleted)"));
  }
  hosts_down_series_ = sink_.declare_series("storage/hosts_down", "hosts", "OSD hosts down");
  osds_down_series_ = sink_.declare_series("storage/osds_down", "OSDs", "single OSDs (drives) down, their hosts up");
  operations_ = sink_.declare_table(
      "storage/operations",
      {{"job", sim::ColumnType::kString, "", "training job"},
       {"kind", sim::ColumnType::kString, "", "checkpoint_write, checkpoint_read, dataset_read or weights_read"},
       {"pool", sim::ColumnType::kString, "", "the store's pool"},
       {"bytes", sim::ColumnType::kFloat64, "B", "client bytes, all nodes"},
       {"start_s", sim::ColumnType::kFloat64, "s", "when the job's nodes began"},
       {"end_s", sim::ColumnType::kFloat64, "s", "when the last of them finished (or it failed)"},
       {"ok", sim::ColumnType::kInt64, "", "1: saved or read; 0: refused, or data unavailable"},
       {"corrupt", sim::ColumnType::kInt64, "",
        "1: the checkpoint was corrupted on its way in (a write: saved so; a read: found by checksums or "
        "loaded)"}});
  site.jobs.attach_checkpoint_store(*this);
}

StorageSubsystem::~StorageSubsystem() {
  for (sim::EventHandle& e : fault_events_) sim_.cancel(e);
}

std::vector<network::UplinkSource> StorageSubsystem::copy_sources(const std::string& pool) const {
  // Each host reads its share off its own drives (the primaries' copies, or the data chunks an
  // EC pool spreads: a parallel reader, without the gather at a primary a client read makes).
  const std::vector<double> shares = store_->read_shares(pool_of(pool));
  double total = 0.0;
  for (double s : shares) total += s;
  std::vector<network::UplinkSource> sources;
  if (!(total > 0.0)) return sources;
  for (std::size_t h = 0; h < shares.size(); ++h) {
    if (shares[h] > 0.0) {
      sources.push_back({static_cast<network::NodeId>(config_.store.hosts[h]), shares[h] / total,
                         store_->drive_read_resource(static_cast<int>(h))});
    }
  }
  return sources;
}

int StorageSubsystem::pool_of(const std::string& name) const { return name.empty() ? 0 : store_->pool_index(name); }

std::vector<ObjectStore::ClientShare> StorageSubsystem::shares(const std::vector<int>& nodes,
                                                               double bytes_per_node) const {
  std::vector<ObjectStore::ClientShare> clients;
  clients.reserve(nodes.size());
  for (int node : nodes) clients.push_back({static_cast<network::NodeId>(node), bytes_per_node});  // node i is host i
  return clients;
}

std::unique_ptr<seams::CheckpointWriter> StorageSubsystem::writer(const std::string& job, const std::string& pool,
                                                                  const std::vector<int>& nodes, bool job_waits) {
  jobs_[job].gpus = static_cast<int>(nodes.size()) * gpus_per_node_;
  return std::make_unique<Writer>(*this, job, pool_of(pool), nodes, job_waits);
}

sim::Time StorageSubsystem::hash_time(double bytes_per_node) const {
  return sim::Time::from_seconds(bytes_per_node / (gpus_per_node_ * config_.integrity.hash_bytes_per_s_per_gpu));
}

// A checkpoint write or read in progress (shared by the events and store callbacks it goes
// through: event callbacks hold a few words).
struct StorageSubsystem::Operation {
  std::string job;
  int pool = 0;
  bool job_waits = true;
  double bytes = 0.0;
  sim::Time start;
  std::vector<ObjectStore::ClientShare> clients;
  std::shared_ptr<const bool> abandoned;  // writes
  std::function<void(bool)> on_written;
  std::function<void(seams::CheckpointRead)> on_read;
};

void StorageSubsystem::write(const std::string& job, int pool, bool job_waits,
                             std::vector<ObjectStore::ClientShare> clients, std::shared_ptr<const bool> abandoned,
                             std::function<void(bool)> on_done) {
  auto op = std::make_shared<Operation>();
  op->job = job;
  op->pool = pool;
  op->job_waits = job_waits;
  op->start = sim_.now();
  double per_node = 0.0;
  for (const auto& c : clients) {
    op->bytes += c.bytes;
    per_node = std::max(per_node, c.bytes);
  }
  const auto nodes = static_cast<double>(clients.size());
  op->clients = std::move(clients);
  op->abandoned = std::move(abandoned);
  op->on_written = std::move(on_done);
  if (!config_.integrity.verify) {
    start_write(std::move(op));
    return;
  }
  // Every rank hashes its shard before it leaves the node.
  const sim::Time hashing = hash_time(per_node);
  hash_s_ += hashing.seconds() * nodes;
  sim_.after(hashing, [this, op = std::move(op)]() mutable { start_write(std::move(op)); });
}

void StorageSubsystem::start_write(std::shared_ptr<Operation> op) {
  store_->write(op->pool, std::move(op->clients), [this, op](bool ok) {
    bool corrupt = false;
    if (ok && *op->abandoned) {
      // The run that wrote it stopped first: it does not count as a checkpoint; drop it.
      store_->remove(op->pool, op->bytes);
      record_stored(op->pool);
    } else if (ok) {
      corrupt = save(op->job, op->pool, op->bytes);
    }
    ended(op->job, true, op->job_waits, op->pool, op->bytes, op->start, ok, corrupt);
    // The store may refuse at once, inside the caller's start: the caller hears of it as an event.
    sim_.at(sim_.now(), [op, ok] { op->on_written(ok); });
  });
}

bool StorageSubsystem::save(const std::string& job, int pool, double bytes) {
  JobRecord& r = jobs_[job];
  bool corrupt = false;
  if (config_.integrity.corruptions_per_pb > 0) {
    if (!r.corruption) r.corruption.emplace(seed_, "storage/integrity/" + job);
    corrupt = r.corruption->uniform01() < -std::expm1(-config_.integrity.corruptions_per_pb * bytes / 1e15);
    if (corrupt) ++saved_corrupt_;
  }
  r.saved.push_back({pool, bytes, corrupt});
  // Keep the newest keep_checkpoints: the older ones are deleted once this one is safe.
  keep_newest(r, static_cast<std::size_t>(config_.keep_checkpoints));
  record_stored(pool);
  return corrupt;
}

void StorageSubsystem::keep_newest(JobRecord& r, std::size_t count) {
  if (r.saved.size() <= count) return;
  const auto excess = static_cast<std::ptrdiff_t>(r.saved.size() - count);
  for (auto it = r.saved.begin(); it != r.saved.begin() + excess; ++it) {
    store_->remove(it->pool, it->bytes);
    record_stored(it->pool);
  }
  r.saved.erase(r.saved.begin(), r.saved.begin() + excess);
}

double StorageSubsystem::write_bound_s(const std::string& pool, double bytes, int nodes) const {
  const double hashing = config_.integrity.verify ? hash_time(bytes / std::max(1, nodes)).seconds() : 0.0;
  return store_->write_bound_s(pool_of(pool), bytes) + hashing;
}

void StorageSubsystem::hold_dataset(const std::string& job, const std::string& pool_name, double bytes) {
  const int pool = pool_of(pool_name);
  if (pool < 0) throw sim::InternalError("dataset of '" + job + "' in an unknown pool (this is a bug)");
  const auto p = static_cast<std::size_t>(pool);
  if (dataset_bytes_.size() <= p) dataset_bytes_.resize(config_.store.pools.size(), 0.0);
  const double capacity = store_->client_capacity_bytes(pool);
  if (store_->stored_bytes(pool) + bytes > capacity) {
    const auto tb = [](double b) {
      std::ostringstream out;
      out << std::fixed << std::setprecision(1) << b / 1e12 << " TB";
      return out.str();
    };
    throw sim::ConfigError("pools[" + std::to_string(pool) + "]",
                           "pool '" + config_.store.pools[p].name + "' keeps at most " + tb(capacity) +
                               " of client data (its fullest OSD at full_ratio), less than the datasets it holds: "
                               "job '" +
                               job + "' adds " + tb(bytes) + " to " + tb(store_->stored_bytes(pool)) +
                               "; add OSD hosts or drives, or give the dataset's size");
  }
  store_->hold(pool, bytes);
  dataset_bytes_[p] += bytes;
}

void StorageSubsystem::read_data(DataKind kind, const std::string& job, const std::string& pool,
                                 const std::vector<int>& nodes, double bytes_per_node,
                                 std::function<void(bool ok)> on_done) {
  auto op = std::make_shared<Operation>();
  op->job = job;
  op->pool = pool_of(pool);
  op->bytes = bytes_per_node * static_cast<double>(nodes.size());
  op->start = sim_.now();
  op->on_written = std::move(on_done);
  const bool weights = kind == DataKind::kWeights;
  if (!weights) jobs_[job].gpus = static_cast<int>(nodes.size()) * gpus_per_node_;
  store_->read(op->pool, shares(nodes, bytes_per_node), [this, op, weights](bool ok) {
    if (weights) {
      if (ok) {
        weight_read_s_.push_back((sim_.now() - op->start).seconds());
        weight_bytes_ += op->bytes;
      } else {
        ++weight_reads_failed_;
      }
    } else {
      JobRecord& r = jobs_[op->job];
      ++r.dataset_reads;
      if (ok) {
        r.dataset_bytes += op->bytes;
      } else {
        ++r.dataset_reads_failed;
      }
    }
    const std::string& pool_name = config_.store.pools[static_cast<std::size_t>(op->pool)].name;
    sink_.append_row(operations_,
                     {op->job, std::string(weights ? "weights_read" : "dataset_read"), pool_name, op->bytes,
                      op->start.seconds(), sim_.now().seconds(), std::int64_t{ok ? 1 : 0}, std::int64_t{0}});
    sim_.at(sim_.now(), [op, ok] { op->on_written(ok); });
  });
}

void StorageSubsystem::keep_oldest(const std::string& job, std::size_t count) {
  JobRecord& r = jobs_[job];
  while (r.saved.size() > count) {
    const Saved s = r.saved.back();
    r.saved.pop_back();
    store_->remove(s.pool, s.bytes);
    record_stored(s.pool);
  }
}

void StorageSubsystem::read(const std::string& job, const std::string& pool, const std::vector<int>& nodes,
                            double bytes_per_node, std::function<void(seams::CheckpointRead)> on_done) {
  auto op = std::make_shared<Operation>();
  op->job = job;
  op->pool = pool_of(pool);
  op->bytes = bytes_per_node * static_cast<double>(nodes.size());
  op->start = sim_.now();
  op->on_read = std::move(on_done);
  store_->read(op->pool, shares(nodes, bytes_per_node), [this, op, bytes_per_node](bool ok) {
    const JobRecord& r = jobs_[op->job];
    const bool corrupt = ok && !r.saved.empty() && r.saved.back().corrupt;
    // Every rank verifies its shard once it has it.
    const sim::Time hashing = ok && config_.integrity.verify ? hash_time(bytes_per_node) : sim::Time::zero();
    hash_s_ += hashing.seconds() * op->bytes / std::max(bytes_per_node, 1.0);
    sim_.after(hashing, [this, op, ok, corrupt] {
      ended(op->job, false, true, op->pool, op->bytes, op->start, ok, corrupt);
      const bool verify = config_.integrity.verify;
      if (corrupt) ++(verify ? corrupt_found_ : corrupt_loaded_);
      op->on_read(!ok        ? seams::CheckpointRead::kUnavailable
                  : !corrupt ? seams::CheckpointRead::kOk
                  : verify   ? seams::CheckpointRead::kCorruptFound
                             : seams::CheckpointRead::kCorruptUnnoticed);
    });
  });
}

void StorageSubsystem::ended(const std::string& job, bool is_write, bool job_waited, int pool, double bytes,
                             sim::Time start, bool ok, bool corrupt) {
  JobRecord& r = jobs_[job];
  const double s = (sim_.now() - start).seconds();
  if (job_waited) r.stall_s += s;
  if (ok) {
    (is_write ? r.write_s : r.read_s).push_back(s);
  } else {
    ++(is_write ? r.writes_failed : r.reads_failed);
  }
  const std::string& pool_name = config_.store.pools[static_cast<std::size_t>(pool)].name;
  sink_.append_row(operations_,
                   {job, std::string(is_write ? "checkpoint_write" : "checkpoint_read"), pool_name, bytes,
                    start.seconds(), sim_.now().seconds(), std::int64_t{ok ? 1 : 0}, std::int64_t{corrupt ? 1 : 0}});
}

void StorageSubsystem::record_stored(int pool) {
  sink_.append(stored_series_[static_cast<std::size_t>(pool)], sim_.now(), store_->stored_bytes(pool));
}

void StorageSubsystem::set_host(int host, bool up) {
  // A host several faults hold down (a scripted one and a random one) is up after the last repair.
  int& faults = host_faults_[static_cast<std::size_t>(host)];
  if (up) {
    if (faults == 0 || --faults > 0) return;
    store_->set_host_up(host);
    --hosts_down_;
  } else {
    if (faults++ > 0) return;
    store_->set_host_down(host);
    ++hosts_down_;
  }
  sink_.append(hosts_down_series_, sim_.now(), hosts_down_);
}

void StorageSubsystem::set_osd(int host, int drive, bool up) {
  int& faults = osd_faults_[static_cast<std::size_t>(host * config_.store.drives_per_host + drive)];
  if (up) {
    if (faults == 0 || --faults > 0) return;
    store_->set_osd_up(host, drive);
    --osds_down_;
  } else {
    if (faults++ > 0) return;
    store_->set_osd_down(host, drive);
    ++osds_down_;
  }
  sink_.append(osds_down_series_, sim_.now(), osds_down_);
}

void StorageSubsystem::start() {
  sink_.append(hosts_down_series_, sim_.now(), 0.0);
  sink_.append(osds_down_series_, sim_.now(), 0.0);
  for (std::size_t p = 0; p < stored_series_.size(); ++p) record_stored(static_cast<int>(p));
  for (const StoreHostFault& f : config_.faults) {
    const auto act = [this, h = f.host, d = f.drive](bool up) {
      if (d < 0) set_host(h, up);
      else set_osd(h, d, up);
    };
    fault_events_.push_back(sim_.at(f.at, [act] { act(false); }));
    if (!f.repair.is_max()) fault_events_.push_back(sim_.at(f.repair, [act] { act(true); }));
  }
}

void StorageSubsystem::finish() {
  const auto set = [this](const std::string& key, sim::SummaryValue v) { sink_.set_summary("storage/" + key, v); };
  if (load_) load_->finish();
  const StoreConfig& sc = config_.store;
  const auto osds = static_cast<std::int64_t>(sc.hosts.size()) * sc.drives_per_host;
  set("osd_hosts", {static_cast<std::int64_t>(sc.hosts.size()), "hosts", "OSD hosts of the store"});
  set("osds", {osds, "OSDs", "drives of the store, one OSD each"});
  set("raw_capacity_bytes", {static_cast<double>(osds) * sc.drive.capacity_bytes, "B", "drives x capacity"});
  std::vector<double> writes, reads;
  std::int64_t writes_failed = 0, reads_failed = 0, dataset_reads = 0, dataset_failed = 0;
  double stall_s = 0.0, stall_gpu_h = 0.0, dataset_bytes = 0.0;
  for (const auto& [name, r] : jobs_) {
    writes.insert(writes.end(), r.write_s.begin(), r.write_s.end());
    reads.insert(reads.end(), r.read_s.begin(), r.read_s.end());
    writes_failed += r.writes_failed;
    reads_failed += r.reads_failed;
    const double job_stall = r.stall_s;
    stall_s += job_stall;
    stall_gpu_h += job_stall * r.gpus / 3600.0;
    dataset_reads += r.dataset_reads;
    dataset_failed += r.dataset_reads_failed;
    dataset_bytes += r.dataset_bytes;
    const std::string job = "jobs/" + name + "/";
    set(job + "checkpoint_write_s_p50", {median(r.write_s), "s", "median time of the job's checkpoint writes"});
    set(job + "checkpoint_write_s_max", {max_of(r.write_s), "s", "longest checkpoint write of the job"});
    set(job + "checkpoint_read_s_p50", {median(r.read_s), "s", "median time of the job's restart reads"});
    set(job + "checkpoint_read_s_max", {max_of(r.read_s), "s", "longest restart read of the job's checkpoint"});
    set(job + "stall_s", {job_stall, "s",
                          "time the job waited on the store: synchronous writes (not an async save's write, which "
                          "runs beside its steps; its snapshot is the job's checkpoint_s) and restart reads"});
    set(job + "stall_gpu_h", {job_stall * r.gpus / 3600.0, "GPU-h", "stall_s x the job's GPUs"});
    if (r.dataset_reads > 0) {
      set(job + "dataset_reads", {r.dataset_reads, "reads", "chunks of input read ahead of the steps"});
      set(job + "dataset_bytes", {r.dataset_bytes, "B", "input bytes read"});
    }
  }
  set("checkpoint_writes", {static_cast<std::int64_t>(writes.size()), "writes", "checkpoint writes saved"});
  set("checkpoint_write_s_p50", {median(writes), "s", "median checkpoint write time, all jobs"});
  set("checkpoint_write_s_max", {max_of(writes), "s", "longest checkpoint write, all jobs"});
  set("checkpoint_writes_failed", {writes_failed, "writes", "refused (pool too full) or unplaceable: nothing saved"});
  set("checkpoint_reads", {static_cast<std::int64_t>(reads.size()), "reads", "restart reads completed"});
  set("checkpoint_read_s_p50", {median(reads), "s", "median restart read time, all jobs"});
  set("checkpoint_read_s_max", {max_of(reads), "s", "longest restart read, all jobs"});
  set("checkpoint_reads_failed", {reads_failed, "reads", "restart reads of data on no OSD up: the job started over"});
  set("stall_s", {stall_s, "s", "time training jobs waited on the store, summed over jobs"});
  set("stall_gpu_h", {stall_gpu_h, "GPU-h",
                      "GPU time jobs held waiting on checkpoint writes and restart reads (add data_stall_gpu_h for "
                      "all the goodput the store cost)"});
  set("dataset_reads", {dataset_reads, "reads", "chunks of job input read ahead of the steps"});
  set("dataset_reads_failed", {dataset_failed, "reads", "input reads of data on no OSD up (retried)"});
  set("dataset_bytes", {dataset_bytes, "B", "job input read from the store"});
  set("weight_reads", {static_cast<std::int64_t>(weight_read_s_.size()), "reads",
                       "inference replicas that loaded their weights from the store"});
  set("weight_reads_failed", {weight_reads_failed_, "reads", "weight reads of data on no OSD up (retried)"});
  set("weight_bytes", {weight_bytes_, "B", "weights read by inference replicas"});
  set("weight_read_s_p50", {median(weight_read_s_), "s", "median time a replica took to read its weights"});
  set("weight_read_s_max", {max_of(weight_read_s_), "s", "longest weight read of a replica"});
  const StoreCounters c = store_->counters();
  set("client_write_bytes", {c.client_bytes_written, "B", "bytes clients wrote into the store"});
  set("client_read_bytes", {c.client_bytes_read, "B", "bytes clients read from the store"});
  set("back_bytes", {c.back_bytes, "B", "primary-to-member forwards and EC chunk gathers between OSD hosts"});
  set("recovery_bytes", {c.recovery_bytes, "B", "bytes backfill wrote to new PG members after a host was marked out"});
  set("recovery_read_bytes", {c.recovery_read_bytes, "B", "bytes backfill read from surviving members"});
  set("degraded_s", {c.degraded_s, "s", "time with an OSD host down or its backfill in progress"});
  set("host_failures", {static_cast<std::int64_t>(c.host_failures), "failures", "OSD hosts that went down"});
  set("osd_failures",
      {static_cast<std::int64_t>(c.osd_failures), "failures", "single OSDs (drives) that went down, their hosts up"});
  set("integrity/checkpoints_corrupted",
      {saved_corrupt_, "checkpoints", "checkpoints saved corrupted (integrity.corruptions_per_pb)"});
  set("integrity/corrupt_reads_found",
      {corrupt_found_, "reads", "restart reads of a corrupted checkpoint its checksums caught: an older one was read"});
  set("integrity/corrupt_reads_loaded",
      {corrupt_loaded_, "reads", "restart reads of a corrupted checkpoint nothing checked: the job loaded it"});
  set("integrity/hash_node_s",
      {hash_s_, "node-s", "time nodes spent hashing checkpoint shards before writes and after reads (verify)"});
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const int pool = static_cast<int>(p);
    const std::string key = "pools/" + sc.pools[p].name + "/";
    double fill = 0.0;
    for (std::int64_t osd = 0; osd < osds; ++osd) {
      fill = std::max(fill, store_->osd_bytes(pool, static_cast<int>(osd)) / sc.drive.capacity_bytes);
    }
    set(key + "stored_bytes_end", {store_->stored_bytes(pool), "B", "client bytes the pool keeps at the end"});
    set(key + "dataset_bytes", {p < dataset_bytes_.size() ? dataset_bytes_[p] : 0.0, "B",
                                "training datasets the pool holds from the start (part of stored_bytes)"});
    set(key + "osd_fill_max", {fill, "", "the fullest OSD's share of its drive taken by this pool at the end"});
  }
}

}  // namespace dcsim::models::storage
