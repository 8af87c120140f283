// The registered subsystems (subsystem.hpp): one entry each.

#include "models/datacenter/datacenter_config_error.hpp"
#include "models/datacenter/economics_site.hpp"
#include "models/datacenter/fabric_faults.hpp"
#include "models/datacenter/subsystem.hpp"
#include "models/inference/inference_subsystem.hpp"
#include "models/network/site_uplink.hpp"
#include "models/reliability/fault_effects.hpp"
#include "models/reliability/scripted_node_faults.hpp"
#include "models/storage/nvmeof_subsystem.hpp"
#include "models/storage/storage_subsystem.hpp"
#include "sim/error.hpp"

namespace dcsim::models::datacenter {

SubsystemNetwork subsystem_network(const SubsystemContext& context, bool on_backend, const std::string& what) {
  network::FabricSimulation* fabric = on_backend ? context.parts.fabric : context.parts.frontend;
  const network::Topology* topology = on_backend ? context.parts.topology : context.parts.frontend_topology;
  if (fabric == nullptr || topology == nullptr) {
    throw sim::ConfigError("network", on_backend ? what + " on the backend needs the scenario's /fabric section"
                                                 : what +
                                                       " on the front-end network needs the scenario's /frontend "
                                                       "section (or put it on the backend)");
  }
  return {*fabric, *topology};
}

namespace {

std::unique_ptr<Subsystem> build_reliability(const SubsystemContext& c) {
  reliability::FaultTargets targets{c.parts.nodes, nullptr, c.parts.zones};
  if (c.parts.fabric != nullptr && c.parts.topology != nullptr) {
    targets.fabric = std::make_unique<FabricFaults>(*c.parts.fabric, *c.parts.topology);
  }
  try {
    return std::make_unique<reliability::FaultEffects>(*c.config.reliability, c.config.seed, c.config.duration,
                                                       std::move(targets), c.signals, c.simulator, c.sink);
  } catch (const reliability::FaultEffects::PrecursorConfigError& e) {
    throw DatacenterConfigError("cluster", e);  // the failover policy's parameters
  }
}

// The store's OSD hosts when it is on the given network (hosts a second user of it must avoid).
std::vector<std::uint32_t> store_hosts_on(const SubsystemContext& c, bool on_backend) {
  if (!c.config.storage || c.config.storage->on_backend != on_backend) return {};
  return c.config.storage->store.hosts;
}

std::unique_ptr<Subsystem> build_storage(const SubsystemContext& c) {
  const storage::StorageConfig& config = *c.config.storage;
  if (!c.config.cluster || c.parts.checkpoint_store_host == nullptr) {
    throw sim::ConfigError("", "needs the cluster: its training jobs' checkpoints are what the store keeps");
  }
  const cluster::ClusterConfig& cluster = *c.config.cluster;
  storage::StorageSite site{subsystem_network(c, config.on_backend, "the store").fabric,
                            cluster.nodes,
                            cluster.node.gpus,
                            c.config.seed,
                            {},
                            *c.parts.checkpoint_store_host};
  for (const auto& job : cluster.training_jobs) {
    storage::StorePoolUser& user = site.training_jobs.emplace_back();
    if (job.checkpoint.target == workload::CheckpointTarget::kStore) user.checkpoint_pool = job.checkpoint.pool;
    if (job.dataset.from_store) user.dataset_pool = job.dataset.pool;
  }
  return std::make_unique<storage::StorageSubsystem>(config, site, c.simulator, c.sink, c.signals);
}

std::unique_ptr<Subsystem> build_nvmeof(const SubsystemContext& c) {
  const NvmeofNamespacesConfig& config = *c.config.nvmeof;
  if (!c.config.cluster || c.parts.checkpoint_store_host == nullptr) {
    throw sim::ConfigError("", "needs the cluster: its training jobs' checkpoints are what the namespaces hold");
  }
  const storage::NvmeofSite site{subsystem_network(c, config.on_backend, "NVMe-oF").fabric, c.config.cluster->nodes,
                                 store_hosts_on(c, config.on_backend), *c.parts.checkpoint_store_host};
  return std::make_unique<storage::NvmeofSubsystem>(config.targets, site, c.simulator, c.sink);
}

std::unique_ptr<Subsystem> build_inference(const SubsystemContext& c) {
  if (c.parts.service_jobs == nullptr || !c.config.cluster) {
    throw sim::ConfigError("", "needs the cluster: a service's replicas are jobs on its nodes");
  }
  const network::Topology* fabric = c.parts.fabric != nullptr ? c.parts.topology : nullptr;
  const inference::InferenceSite site{*c.parts.service_jobs,
                                      c.config.cluster->node,
                                      c.config.cluster->gpu_phase_power,
                                      c.config.seed,
                                      c.parts.fabric,
                                      fabric != nullptr && !fabric->hosts_are_routers() ? fabric->host_count() : 0,
                                      {c.registries.collective_algorithms, c.registries.inference_routers,
                                       c.registries.autoscalers}};
  return std::make_unique<inference::InferenceSubsystem>(c.config.inference, site, c.simulator, c.sink, c.signals);
}

// A network as the uplink's gateway meets it: the hosts the store, the NVMe-oF targets and the
// jobs' remote checkpoints take on it.
network::UplinkNetwork uplink_network(const SubsystemContext& c, bool on_backend) {
  network::UplinkNetwork n{on_backend ? c.parts.fabric : c.parts.frontend, store_hosts_on(c, on_backend), {}, {}};
  if (c.config.nvmeof && c.config.nvmeof->on_backend == on_backend) n.nvmeof_targets = c.config.nvmeof->targets.targets;
  if (!c.config.cluster) return n;
  for (const auto& job : c.config.cluster->training_jobs) {
    const workload::CheckpointConfig& ck = job.checkpoint;
    if (ck.target == workload::CheckpointTarget::kRemote &&
        (ck.network == workload::CheckpointNetwork::kBackend) == on_backend) {
      n.checkpoint_hosts.emplace_back(job.job.name, ck.store_host);
    }
  }
  return n;
}

std::unique_ptr<Subsystem> build_uplink(const SubsystemContext& c) {
  network::UplinkSite site{c.config.duration, std::nullopt, c.parts.checkpoints, uplink_network(c, true),
                           uplink_network(c, false)};
  if (c.config.cluster) site.cluster_nodes = c.config.cluster->nodes;
  return std::make_unique<network::SiteUplink>(*c.config.uplink, site, c.simulator, c.sink, c.signals);
}

}  // namespace

const std::vector<SubsystemEntry>& subsystem_entries() {
  static const std::vector<SubsystemEntry> kEntries{
      {"reliability",
       "random faults of every component class, acting on the parts that own them "
       "(reliability/fault_effects.hpp)",
       [](const SubsystemContext& c) { return c.config.reliability ? build_reliability(c) : nullptr; }},
      {"node_faults", "scripted node faults and job crashes from /faults (scripted_node_faults.hpp)",
       [](const SubsystemContext& c) -> std::unique_ptr<Subsystem> {
         if (c.config.node_faults.empty()) return nullptr;
         return std::make_unique<reliability::ScriptedNodeFaults>(c.config.node_faults, c.parts.nodes, c.signals,
                                                                  c.simulator, c.sink);
       }},
      {"storage", "the shared object store training jobs checkpoint to (storage/storage_subsystem.hpp)",
       [](const SubsystemContext& c) { return c.config.storage ? build_storage(c) : nullptr; }},
      {"nvmeof", "NVMe-oF targets whose namespaces training jobs checkpoint to (storage/nvmeof_subsystem.hpp)",
       [](const SubsystemContext& c) { return c.config.nvmeof ? build_nvmeof(c) : nullptr; }},
      // Before economics: its finish reports the last bytes economics bills.
      {"uplink", "the site's internet ports and the transfers that cross them (network/site_uplink.hpp)",
       [](const SubsystemContext& c) { return c.config.uplink ? build_uplink(c) : nullptr; }},
      {"inference", "inference services whose replicas are cluster jobs (inference/inference_subsystem.hpp)",
       [](const SubsystemContext& c) { return c.config.inference.empty() ? nullptr : build_inference(c); }},
      {"economics", "prices the run: owning the cluster vs renting the same GPU-hours (economics_model.hpp)",
       [](const SubsystemContext& c) -> std::unique_ptr<Subsystem> {
         if (!c.config.economics) return nullptr;
         return std::make_unique<economics::EconomicsModel>(*c.config.economics, economics_site(c), c.simulator, c.sink,
                                                            c.signals);
       }},
  };
  return kEntries;
}

}  // namespace dcsim::models::datacenter
