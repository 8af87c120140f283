#include "models/datacenter/datacenter.hpp"

#include <string>
#include <utility>

#include "models/datacenter/facility_coupling.hpp"
#include "models/reliability/fault_class.hpp"


namespace dcsim::models::datacenter {

namespace {

// The leaf switch each cluster node's first NIC attaches to (node i is fabric host i), for
// topology-aware placement. Nodes beyond the fabric's hosts, and hosts that route themselves
// (direct topologies), are each their own group.
std::vector<int> fabric_groups(const network::Topology& topology, int nodes) {
  std::vector<int> groups(static_cast<std::size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    const auto host = static_cast<network::NodeId>(i);
    const bool attached = static_cast<std::size_t>(i) < topology.host_count() && !topology.hosts_are_routers() &&
                          !topology.out_links(host).empty();
    groups[static_cast<std::size_t>(i)] =
        attached ? static_cast<int>(topology.link(topology.out_links(host).front()).dst) : -1 - i;
  }
  return groups;
}

}  // namespace

Datacenter::Datacenter(DatacenterConfig config, const ModelRegistries& registries, sim::Simulator& simulator,
                       sim::TraceSink& sink)
    : config_(std::move(config)), simulator_(simulator), sink_(sink) {
  if (config_.cluster) build_cluster(registries);
  if (config_.fabric) {
    try {
      fabric_ = std::make_unique<network::FabricRun>(*config_.fabric, registries.topologies, simulator, sink);
    } catch (const sim::ConfigError& e) {
      throw DatacenterConfigError("fabric", e);
    }
    fabric_->driver().flow_finished().connect(
        [this](const network::FinishedFlow& f) { signals_.flow_finished.emit(f); });
  }
  if (config_.frontend) {
    if (!cluster_) throw DatacenterConfigError("frontend", "", "needs a cluster: the front-end network connects its nodes");
    config_.frontend->name = "frontend";
    try {
      frontend_ = std::make_unique<network::FabricRun>(*config_.frontend, registries.topologies, simulator, sink);
    } catch (const sim::ConfigError& e) {
      throw DatacenterConfigError("frontend", e);
    }
  }
  cluster::ClusterConnections links{.signals = &signals_};
  if (cluster_) {
    check_store_hosts();
    connect_fabric(links);
    connect_frontend(links);
  }
  if (config_.facility) {
    if (!cluster_) throw DatacenterConfigError("facility", "", "needs a cluster: the facility cools and powers its nodes");
    try {
      const facility::FacilityRegistries facility_registries{registries.cooling_controls, registries.power_capping};
      facility_ = std::make_unique<facility::FacilitySimulation>(*config_.facility, config_.cluster->nodes,
                                                                 config_.cluster->nodes_per_rack, config_.seed,
                                                                 facility_registries, simulator, sink);
    } catch (const sim::ConfigError& e) {
      throw DatacenterConfigError("facility", e);
    }
    facility_->set_signals(&signals_);
    couple_facility(*cluster_, *facility_, config_.duration, links);
  } else if (cluster_) {
    cluster_->connect(links);
  }
  DatacenterParts parts;
  parts.nodes = cluster_.get();
  parts.checkpoints = cluster_.get();
  parts.service_jobs = &cluster_->service_jobs();
  if (fabric_) {
    parts.fabric = &fabric_->driver();
    parts.topology = &fabric_->fabric().topology();
  }
  if (frontend_) {
    parts.frontend = &frontend_->driver();
    parts.frontend_topology = &frontend_->fabric().topology();
  }
  parts.checkpoint_store_host = cluster_.get();
  parts.zones = facility_.get();
  const SubsystemContext context{config_, registries, simulator, sink, signals_, parts};
  for (const SubsystemEntry& entry : subsystem_entries()) {
    try {
      if (auto subsystem = entry.build(context)) subsystems_.push_back(std::move(subsystem));
    } catch (const DatacenterConfigError&) {
      throw;  // already names the part it is about
    } catch (const sim::ConfigError& e) {
      throw DatacenterConfigError(std::string(entry.name), e);
    }
  }
}

Datacenter::~Datacenter() = default;

void Datacenter::build_cluster(const ModelRegistries& registries) {
  // The cluster gets the trace jobs (millions, moved); config_.cluster keeps everything else for
  // the subsystems to read.
  cluster::ClusterConfig cluster = *config_.cluster;
  cluster.trace_jobs = std::move(config_.cluster->trace_jobs);
  config_.cluster->trace_jobs = {};
  // Checkpoint intervals are optimised against the fault model's node interruption rate.
  if (config_.reliability) {
    cluster.node_fault_rate_per_hour = reliability::node_interruption_rate_per_hour(*config_.reliability);
  }
  if (config_.storage && (config_.storage->integrity.verify || config_.storage->integrity.corruptions_per_pb > 0)) {
    cluster.integrity_events = true;
  }
  try {
    cluster_ = std::make_unique<cluster::ClusterSimulation>(std::move(cluster), registries, simulator_, sink_);
  } catch (const sim::ConfigError& e) {
    throw DatacenterConfigError("cluster", e);
  }
}

namespace {

// Cluster node i is host i of a network: (0, 1, ..., nodes - 1).
std::vector<network::NodeId> first_hosts(int nodes) {
  std::vector<network::NodeId> hosts(static_cast<std::size_t>(nodes));
  for (std::size_t i = 0; i < hosts.size(); ++i) hosts[i] = static_cast<network::NodeId>(i);
  return hosts;
}

}  // namespace

void Datacenter::connect_fabric(cluster::ClusterConnections& links) {
  const cluster::ClusterConfig& cluster = *config_.cluster;
  if (!fabric_) return;
  const network::Topology& topology = fabric_->fabric().topology();
  links.fabric_groups = fabric_groups(topology, cluster.nodes);
  if (cluster.training_jobs.empty()) return;
  // Training jobs run every step as their step graph with PP and DP traffic as flows on the
  // fabric (flow mode, training_fabric.hpp): cluster node i is fabric host i.
  const std::size_t hosts = topology.host_count();
  if (hosts < static_cast<std::size_t>(cluster.nodes)) {
    throw DatacenterConfigError("fabric", "", "the fabric has " + std::to_string(hosts) + " hosts but the cluster has " +
                                                  std::to_string(cluster.nodes) +
                                                  " nodes (training jobs map node i to host i)");
  }
  training_fabric_ =
      std::make_unique<cluster::TrainingFabric>(simulator_, fabric_->driver(), first_hosts(cluster.nodes));
  links.training_fabric = training_fabric_.get();
}

void Datacenter::connect_frontend(cluster::ClusterConnections& links) {
  if (!frontend_) return;
  const int nodes = config_.cluster->nodes;
  const std::size_t hosts = frontend_->fabric().topology().host_count();
  if (hosts < static_cast<std::size_t>(nodes)) {
    throw DatacenterConfigError("frontend", "", "the front-end network has " + std::to_string(hosts) +
                                                    " hosts but the cluster has " + std::to_string(nodes) +
                                                    " nodes (node i is its host i; give it at least as many hosts)");
  }
  frontend_network_ = std::make_unique<cluster::TrainingFabric>(simulator_, frontend_->driver(), first_hosts(nodes));
  links.frontend_network = frontend_network_.get();
}

// A store host is a host of the network the job's checkpoints use, beyond the cluster's nodes.
void Datacenter::check_store_hosts() const {
  const cluster::ClusterConfig& cluster = *config_.cluster;
  const int nodes = cluster.nodes;
  for (std::size_t j = 0; j < cluster.training_jobs.size(); ++j) {
    const workload::CheckpointConfig& ck = cluster.training_jobs[j].checkpoint;
    if (ck.store_host < 0) continue;
    const std::string job = "training[" + std::to_string(j) + "].checkpoint.";
    const bool frontend = ck.network == workload::CheckpointNetwork::kFrontend;
    const network::FabricRun* run = frontend ? frontend_.get() : fabric_.get();
    if (run == nullptr) {
      throw DatacenterConfigError("cluster", job + "store_host",
                                  frontend ? "is a host of the front-end network (checkpoint network `frontend`, the "
                                             "default), which needs the scenario's /frontend section; or set the "
                                             "checkpoint network to `backend` to write to a /fabric host"
                                           : "is a host of the backend network (checkpoint network `backend`), which "
                                             "needs the scenario's /fabric section");
    }
    const std::size_t hosts = run->fabric().topology().host_count();
    if (static_cast<std::size_t>(ck.store_host) < static_cast<std::size_t>(nodes) ||
        static_cast<std::size_t>(ck.store_host) >= hosts) {
      const std::string section = frontend ? "/frontend" : "/fabric";
      const std::string valid =
          static_cast<std::size_t>(nodes) < hosts
              ? "(" + std::to_string(nodes) + " to " + std::to_string(hosts - 1) + ")"
              : "(none: all " + std::to_string(hosts) + " hosts of " + section +
                    " are cluster nodes; give it more hosts)";
      throw DatacenterConfigError("cluster", job + "store_host",
                                  "must be a host of " + section + " that is not a cluster node " + valid + ", got " +
                                      std::to_string(ck.store_host));
    }
  }
}

void Datacenter::start() {
  if (cluster_) cluster_->start();
  if (facility_) facility_->start();
  if (fabric_) fabric_->start();
  if (frontend_) frontend_->start();
  for (auto& s : subsystems_) s->start();
}

void Datacenter::finish() {
  if (cluster_) cluster_->finish();
  if (facility_) facility_->finish();
  if (fabric_) fabric_->finish();
  if (frontend_) frontend_->finish();
  for (auto& s : subsystems_) s->finish();
}

double Datacenter::progress_fraction() const {
  if (cluster_) return cluster_->progress_fraction();
  if (fabric_) return fabric_->progress_fraction();
  return 1.0;
}

}  // namespace dcsim::models::datacenter
