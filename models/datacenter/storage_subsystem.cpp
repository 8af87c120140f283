#include "models/datacenter/storage_subsystem.hpp"

#include <algorithm>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::datacenter {

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
class StorageSubsystem::Writer final : public CheckpointWriter {
 public:
  Writer(StorageSubsystem& owner, std::string job, int pool, std::vector<int> nodes, bool job_waits)
      : owner_(owner), job_(std::move(job)), pool_(pool), nodes_(std::move(nodes)), job_waits_(job_waits) {}
  void start(double bytes_per_node, std::function<void(bool)> on_done) override {
    owner_.write(job_, pool_, job_waits_, owner_.shares(nodes_, bytes_per_node), std::move(on_done));
  }

 private:
  StorageSubsystem& owner_;
  std::string job_;
  int pool_;
  std::vector<int> nodes_;
  bool job_waits_;
};

StorageSubsystem::StorageSubsystem(const SubsystemContext& context)
    : config_(*context.config.storage), sim_(context.simulator), sink_(context.sink) {
  const auto& cluster = context.config.cluster;
  if (!cluster || context.parts.checkpoint_store_host == nullptr) {
    throw sim::ConfigError("", "needs the cluster: its training jobs' checkpoints are what the store keeps");
  }
  network::FabricSimulation* network = config_.on_backend ? context.parts.fabric : context.parts.frontend;
  const network::Topology* topology = config_.on_backend ? context.parts.topology : context.parts.frontend_topology;
  if (network == nullptr || topology == nullptr) {
    throw sim::ConfigError("network", config_.on_backend
                                          ? "the store on the backend needs the scenario's /fabric section"
                                          : "the store on the front-end network needs the scenario's /frontend "
                                            "section (or put it on the backend)");
  }
  if (config_.keep_checkpoints < 1) throw sim::ConfigError("keep_checkpoints", "must be at least 1");
  const std::size_t hosts = topology->host_count();
  for (std::uint32_t h : config_.store.hosts) {
    if (h < static_cast<std::uint32_t>(cluster->nodes) || h >= hosts) {
      throw sim::ConfigError(
          "hosts", "OSD hosts are hosts of the store's network beyond the cluster's nodes (" +
                       std::to_string(cluster->nodes) + " to " + std::to_string(hosts == 0 ? 0 : hosts - 1) +
                       "): host " + std::to_string(h) + " is not; give the network at least " +
                       std::to_string(cluster->nodes + config_.store.hosts.size()) + " hosts");
    }
  }
  store_ = std::make_unique<storage::ObjectStore>(sim_, *network, config_.store);
  for (std::size_t i = 0; i < config_.faults.size(); ++i) {
    const int h = config_.faults[i].host;
    if (h < 0 || static_cast<std::size_t>(h) >= config_.store.hosts.size()) {
      throw sim::ConfigError("faults[" + std::to_string(i) + "].host",
                             "must be an OSD host index below " + std::to_string(config_.store.hosts.size()));
    }
  }
  for (std::size_t j = 0; j < cluster->training_jobs.size(); ++j) {
    const workload::CheckpointConfig& ck = cluster->training_jobs[j].checkpoint;
    if (ck.target != workload::CheckpointTarget::kStore) continue;
    if (pool_of(ck.pool) < 0) {
      throw sim::ConfigError("training[" + std::to_string(j) + "].checkpoint.pool",
                             "names no pool of the store: '" + ck.pool + "'");
    }
  }
  for (const storage::PoolConfig& p : config_.store.pools) {
    stored_series_.push_back(sink_.declare_series("storage/" + p.name + "/stored_bytes", "B",
                                                  "client bytes the pool keeps (checkpoints saved and not deleted)"));
  }
  hosts_down_series_ = sink_.declare_series("storage/hosts_down", "hosts", "OSD hosts down");
  operations_ = sink_.declare_table(
      "storage/operations",
      {{"job", sim::ColumnType::kString, "", "training job"},
       {"kind", sim::ColumnType::kString, "", "checkpoint_write or checkpoint_read"},
       {"pool", sim::ColumnType::kString, "", "the store's pool"},
       {"bytes", sim::ColumnType::kFloat64, "B", "client bytes, all nodes"},
       {"start_s", sim::ColumnType::kFloat64, "s", "when the job's nodes began"},
       {"end_s", sim::ColumnType::kFloat64, "s", "when the last of them finished (or it failed)"},
       {"ok", sim::ColumnType::kInt64, "", "1: saved or read; 0: refused, or data unavailable"}});
  context.parts.checkpoint_store_host->attach_checkpoint_store(*this);
}

StorageSubsystem::~StorageSubsystem() {
  for (sim::EventHandle& e : fault_events_) sim_.cancel(e);
}

int StorageSubsystem::pool_of(const std::string& name) const {
  return name.empty() ? 0 : store_->pool_index(name);
}

std::vector<storage::ObjectStore::ClientShare> StorageSubsystem::shares(const std::vector<int>& nodes,
                                                                         double bytes_per_node) const {
  std::vector<storage::ObjectStore::ClientShare> clients;
  clients.reserve(nodes.size());
  for (int node : nodes) clients.push_back({static_cast<network::NodeId>(node), bytes_per_node});  // node i is host i
  return clients;
}

std::unique_ptr<CheckpointWriter> StorageSubsystem::writer(const std::string& job, const std::string& pool,
                                                           const std::vector<int>& nodes, bool job_waits) {
  return std::make_unique<Writer>(*this, job, pool_of(pool), nodes, job_waits);
}

void StorageSubsystem::write(const std::string& job, int pool, bool job_waits,
                             std::vector<storage::ObjectStore::ClientShare> clients, std::function<void(bool)> on_done) {
  double bytes = 0.0;
  for (const auto& c : clients) bytes += c.bytes;
  const sim::Time start = sim_.now();
  store_->write(pool, std::move(clients),
                [this, job, pool, job_waits, bytes, start, on_done = std::move(on_done)](bool ok) mutable {
    if (ok) {
      std::vector<double>& saved = jobs_[job].saved_bytes;
      saved.push_back(bytes);
      // Keep the newest keep_checkpoints: the older ones are deleted once this one is safe.
      const auto excess = static_cast<std::ptrdiff_t>(saved.size()) - config_.keep_checkpoints;
      for (std::ptrdiff_t i = 0; i < excess; ++i) store_->remove(pool, saved[static_cast<std::size_t>(i)]);
      if (excess > 0) saved.erase(saved.begin(), saved.begin() + excess);
      record_stored(pool);
    }
    ended(job, true, job_waits, pool, bytes, start, ok, std::move(on_done));
  });
}

void StorageSubsystem::read(const std::string& job, const std::string& pool, const std::vector<int>& nodes,
                            double bytes_per_node, std::function<void(bool ok)> on_done) {
  const int p = pool_of(pool);
  const double bytes = bytes_per_node * static_cast<double>(nodes.size());
  const sim::Time start = sim_.now();
  store_->read(p, shares(nodes, bytes_per_node), [this, job, p, bytes, start, on_done = std::move(on_done)](bool ok) mutable {
    ended(job, false, true, p, bytes, start, ok, std::move(on_done));
  });
}

void StorageSubsystem::ended(const std::string& job, bool is_write, bool job_waited, int pool, double bytes,
                             sim::Time start, bool ok, std::function<void(bool)> on_done) {
  JobRecord& r = jobs_[job];
  const double s = (sim_.now() - start).seconds();
  if (job_waited) r.stall_s += s;
  if (ok) {
    (is_write ? r.write_s : r.read_s).push_back(s);
  } else {
    ++(is_write ? r.writes_failed : r.reads_failed);
  }
  const std::string& pool_name = config_.store.pools[static_cast<std::size_t>(pool)].name;
  sink_.append_row(operations_, {job, std::string(is_write ? "checkpoint_write" : "checkpoint_read"), pool_name, bytes,
                                 start.seconds(), sim_.now().seconds(), std::int64_t{ok ? 1 : 0}});
  // The store may refuse at once, inside the caller's start: the caller hears of it as an event.
  sim_.at(sim_.now(), [on_done = std::move(on_done), ok] { on_done(ok); });
}

void StorageSubsystem::record_stored(int pool) {
  sink_.append(stored_series_[static_cast<std::size_t>(pool)], sim_.now(), store_->stored_bytes(pool));
}

void StorageSubsystem::set_host(int host, bool up) {
  if (up) {
    store_->set_host_up(host);
    --hosts_down_;
  } else {
    store_->set_host_down(host);
    ++hosts_down_;
  }
  sink_.append(hosts_down_series_, sim_.now(), hosts_down_);
}

void StorageSubsystem::start() {
  sink_.append(hosts_down_series_, sim_.now(), 0.0);
  for (std::size_t p = 0; p < stored_series_.size(); ++p) record_stored(static_cast<int>(p));
  for (const StoreHostFault& f : config_.faults) {
    fault_events_.push_back(sim_.at(f.at, [this, h = f.host] { set_host(h, false); }));
    if (!f.repair.is_max()) fault_events_.push_back(sim_.at(f.repair, [this, h = f.host] { set_host(h, true); }));
  }
}

void StorageSubsystem::finish() {
  const auto set = [this](const std::string& key, sim::SummaryValue v) { sink_.set_summary("storage/" + key, v); };
  const storage::StoreConfig& sc = config_.store;
  const auto osds = static_cast<std::int64_t>(sc.hosts.size()) * sc.drives_per_host;
  set("osd_hosts", {static_cast<std::int64_t>(sc.hosts.size()), "hosts", "OSD hosts of the store"});
  set("osds", {osds, "OSDs", "drives of the store, one OSD each"});
  set("raw_capacity_bytes", {static_cast<double>(osds) * sc.drive.capacity_bytes, "B", "drives x capacity"});
  std::vector<double> writes, reads;
  std::int64_t writes_failed = 0, reads_failed = 0;
  double stall_s = 0.0;
  for (const auto& [name, r] : jobs_) {
    writes.insert(writes.end(), r.write_s.begin(), r.write_s.end());
    reads.insert(reads.end(), r.read_s.begin(), r.read_s.end());
    writes_failed += r.writes_failed;
    reads_failed += r.reads_failed;
    const double job_stall = r.stall_s;
    stall_s += job_stall;
    const std::string job = "jobs/" + name + "/";
    set(job + "checkpoint_write_s_p50", {median(r.write_s), "s", "median time of the job's checkpoint writes"});
    set(job + "checkpoint_write_s_max", {max_of(r.write_s), "s", "longest checkpoint write of the job"});
    set(job + "checkpoint_read_s_max", {max_of(r.read_s), "s", "longest restart read of the job's checkpoint"});
    set(job + "stall_s", {job_stall, "s",
                          "time the job waited on the store: synchronous writes (not an async save's write, which "
                          "runs beside its steps; its snapshot is the job's checkpoint_s) and restart reads"});
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
  const storage::StoreCounters c = store_->counters();
  set("client_write_bytes", {c.client_bytes_written, "B", "bytes clients wrote into the store"});
  set("client_read_bytes", {c.client_bytes_read, "B", "bytes clients read from the store"});
  set("back_bytes", {c.back_bytes, "B", "primary-to-member forwards and EC chunk gathers between OSD hosts"});
  set("recovery_bytes", {c.recovery_bytes, "B", "bytes backfill wrote to new PG members after a host was marked out"});
  set("recovery_read_bytes", {c.recovery_read_bytes, "B", "bytes backfill read from surviving members"});
  set("degraded_s", {c.degraded_s, "s", "time with an OSD host down or its backfill in progress"});
  set("host_failures", {static_cast<std::int64_t>(c.host_failures), "failures", "OSD hosts that went down"});
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const int pool = static_cast<int>(p);
    const std::string key = "pools/" + sc.pools[p].name + "/";
    double fill = 0.0;
    for (std::int64_t osd = 0; osd < osds; ++osd) {
      fill = std::max(fill, store_->osd_bytes(pool, static_cast<int>(osd)) / sc.drive.capacity_bytes);
    }
    set(key + "stored_bytes_end", {store_->stored_bytes(pool), "B", "client bytes the pool keeps at the end"});
    set(key + "osd_fill_max", {fill, "", "the fullest OSD's share of its drive taken by this pool at the end"});
  }
}

}  // namespace dcsim::models::datacenter
