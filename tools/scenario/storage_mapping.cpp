// Maps /storage to a StorageConfig (storage_spec.hpp), with the checks the schema cannot make.

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "models/workload/training_job.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/storage_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace ms = models::storage;

namespace {

// "95 GB", "5.67 TB": three significant figures at most.
std::string gigabytes(double bytes) {
  if (bytes >= 1e12) return format_number(std::round(bytes / 1e10) / 100.0) + " TB";
  return format_number(std::round(bytes / 1e8) / 10.0) + " GB";
}

// Failure domains a pool's members spread over.
int domains(ms::FailureDomain d, int hosts, int hosts_per_rack, int drives_per_host) {
  switch (d) {
    case ms::FailureDomain::kOsd: return hosts * drives_per_host;
    case ms::FailureDomain::kRack: return (hosts + hosts_per_rack - 1) / hosts_per_rack;
    case ms::FailureDomain::kHost: break;
  }
  return hosts;
}

const char* domain_name(ms::FailureDomain d) {
  return d == ms::FailureDomain::kOsd ? "OSDs" : d == ms::FailureDomain::kRack ? "racks" : "hosts";
}

}  // namespace

std::optional<models::storage::StorageConfig> map_storage_section(const json* storage, const Scenario& s,
                                                                  const ResourceLimits& limits) {
  std::vector<std::string> errors;
  const auto error = [&](const std::string& pointer, const std::string& message) {
    errors.push_back(s.source + ":" + pointer + ": " + message);
  };
  // Jobs that checkpoint to the store, by index in /workload/training.
  std::vector<std::size_t> store_jobs;
  if (s.has_cluster) {
    for (std::size_t i = 0; i < s.cluster.training_jobs.size(); ++i) {
      const auto& ck = s.cluster.training_jobs[i].checkpoint;
      if (ck.target == models::workload::CheckpointTarget::kStore) store_jobs.push_back(i);
    }
  }
  const auto job_ptr = [](std::size_t i) { return "/workload/training/" + std::to_string(i); };
  if (storage == nullptr) {
    for (std::size_t i : store_jobs) {
      error(job_ptr(i) + "/checkpoint/target", "\"store\" needs the scenario's /storage section (the shared store), "
                                               "which it lacks: add one, or use \"remote\" or \"nvme\"");
    }
    for (std::size_t i = 0; s.has_cluster && i < s.cluster.training_jobs.size(); ++i) {
      if (s.cluster.training_jobs[i].dataset.from_store) {
        error(job_ptr(i) + "/dataset", "needs the scenario's /storage section (the store it is read from), which it "
                                       "lacks: add one, or remove the key (input then costs nothing)");
      }
    }
    if (!errors.empty()) throw sim::InputErrors(std::move(errors));
    return std::nullopt;
  }
  const std::string base = "/storage";
  if (!s.has_cluster) {
    throw sim::InputError(s.source + ":" + base + ": needs /cluster: the store keeps the cluster's checkpoints");
  }
  models::storage::StorageConfig out;
  ms::StoreConfig& store = out.store;
  storage_bindings().apply(*storage, out);
  // What the bindings cannot say: the hosts' ids follow the cluster's nodes, the placement's salt
  // is the scenario's seed, and a pool's width must fit its failure domains.
  const int hosts = storage->at("hosts").get<int>();
  const int first = storage->contains("first_host") ? storage->at("first_host").get<int>() : s.cluster.nodes;
  {
    // Before the hosts are listed (2e9 of them were 8 GB); the placement's time is estimated with
    // the rest of the run (check_run_resources).
    MemoryEstimate hosts_memory;
    hosts_memory.add(format_number(hosts) + " OSD hosts",
                     static_cast<double>(hosts) * (kBytesPerOsdHost + kBytesPerOsd * storage->at("drives_per_host").get<double>()));
    check_memory(hosts_memory, limits, s.source, base + "/hosts");
  }
  for (int h = 0; h < hosts; ++h) store.hosts.push_back(static_cast<std::uint32_t>(first + h));
  store.seed = s.seed;
  std::set<std::string> names;
  for (std::size_t i = 0; i < store.pools.size(); ++i) {
    const ms::PoolConfig& pool = store.pools[i];
    const json& p = storage->at("pools").at(i);
    const std::string pointer = base + "/pools/" + std::to_string(i);
    if (!names.insert(pool.name).second) error(pointer + "/name", "expected each pool name once, got '" + pool.name + "' again");
    if (p.contains("ec") && p.contains("replicas")) error(pointer + "/replicas", "expected replicas or ec, got both");
    const int n = domains(pool.failure_domain, hosts, store.hosts_per_rack, store.drives_per_host);
    if (pool.width() > n) {
      const std::string what = pool.ec_k > 0 ? "ec k + m = " + std::to_string(pool.width())
                                             : "replicas = " + std::to_string(pool.width());
      error(pointer + (pool.ec_k > 0 ? "/ec" : "/replicas"),
            "expected at most " + std::to_string(n) + " (the store's " + domain_name(pool.failure_domain) +
                ": no two members of a placement group share one), got " + what +
                "; add OSD hosts or choose a smaller width or failure domain");
    }
  }

  // Scripted OSD host and OSD faults: /faults entries of kind osd_host and osd.
  const json& faults = s.resolved.contains("faults") ? s.resolved["faults"] : json::array();
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const json& f = faults[i];
    if (!f.contains("kind") || (f["kind"] != "osd_host" && f["kind"] != "osd")) continue;
    const std::string pointer = "/faults/" + std::to_string(i);
    models::storage::StoreHostFault fault;
    fault.host = f.contains("host") ? f.at("host").get<int>() : 0;
    if (f["kind"] == "osd") {
      fault.drive = f.at("drive").get<int>();
      if (fault.drive >= store.drives_per_host) {
        error(pointer + "/drive", "expected a drive index below " + std::to_string(store.drives_per_host) +
                                      " (/storage/drives_per_host), got " + std::to_string(fault.drive));
      }
    }
    fault.at = sim::Time::from_seconds(f.at("at").get<double>());
    if (f.contains("duration")) fault.repair = fault.at + sim::Time::from_seconds(f.at("duration").get<double>());
    if (fault.host >= hosts) {
      error(pointer + "/host", "expected an OSD host index below " + std::to_string(hosts) + " (/storage/hosts), got " +
                                   std::to_string(fault.host));
    }
    out.faults.push_back(fault);
  }
  std::stable_sort(out.faults.begin(), out.faults.end(),
                   [](const models::storage::StoreHostFault& a, const models::storage::StoreHostFault& b) {
                     return a.at < b.at;
                   });

  // Every job's pool exists and holds at least one of its checkpoints.
  const double raw = static_cast<double>(hosts) * store.drives_per_host * store.drive.capacity_bytes;
  for (std::size_t i : store_jobs) {
    const auto& spec = s.cluster.training_jobs[i];
    const std::string& name = spec.checkpoint.pool;
    int pool = 0;
    if (!name.empty()) {
      pool = -1;
      for (std::size_t k = 0; k < store.pools.size(); ++k) {
        if (store.pools[k].name == name) pool = static_cast<int>(k);
      }
      if (pool < 0) {
        error(job_ptr(i) + "/checkpoint/pool", "expected a pool of /storage/pools, got '" + name + "'");
        continue;
      }
    }
    if (spec.checkpoint.interval_steps <= 0) continue;
    const ms::PoolConfig& pc = store.pools[static_cast<std::size_t>(pool)];
    const double usable = raw * store.full_ratio / pc.amplification();
    const double one = models::workload::checkpoint_bytes(spec.job.model, spec.job.lora);
    if (one > usable) {
      error(base + "/pools/" + std::to_string(pool),
            "pool '" + pc.name + "' holds at most " + gigabytes(usable) + " of client data (" +
                std::to_string(hosts * store.drives_per_host) + " OSDs x " + gigabytes(store.drive.capacity_bytes) +
                " x full_ratio " + format_number(store.full_ratio) + " / amplification " +
                format_number(pc.amplification()) + "), less than one checkpoint of job '" + spec.job.name + "' (" +
                gigabytes(one) + "); add hosts or drives, or use a leaner layout");
    }
  }
  // Every dataset's pool exists.
  for (std::size_t i = 0; i < s.cluster.training_jobs.size(); ++i) {
    const auto& data = s.cluster.training_jobs[i].dataset;
    if (!data.from_store || data.pool.empty()) continue;
    bool found = false;
    for (const auto& p : store.pools) found = found || p.name == data.pool;
    if (!found) error(job_ptr(i) + "/dataset/pool", "expected a pool of /storage/pools, got '" + data.pool + "'");
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return out;
}

}  // namespace dcsim::tools::scenario
