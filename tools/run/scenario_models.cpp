#include "tools/run/scenario_models.hpp"

#include <string>
#include <vector>

#include "sim/discard_trace_sink.hpp"
#include "sim/error.hpp"
#include "tools/scenario/facility_mapping.hpp"

namespace dcsim::tools::run {

namespace dc = models::datacenter;

namespace {

// The leaf switch each cluster node's first NIC attaches to (node i is fabric host i), for
// topology-aware placement. Nodes beyond the fabric's hosts, and hosts that route themselves
// (direct topologies), are each their own group.
std::vector<int> fabric_groups(const models::network::Topology& topology, int nodes) {
  std::vector<int> groups(static_cast<std::size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    const auto host = static_cast<models::network::NodeId>(i);
    const bool attached = static_cast<std::size_t>(i) < topology.host_count() && !topology.hosts_are_routers() &&
                          !topology.out_links(host).empty();
    groups[static_cast<std::size_t>(i)] =
        attached ? static_cast<int>(topology.link(topology.out_links(host).front()).dst) : -1 - i;
  }
  return groups;
}

}  // namespace

ScenarioModels::ScenarioModels(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                               sim::Simulator& simulator, sim::TraceSink& sink)
    : scenario_(scenario) {
  try {
    if (scenario.has_cluster) {
      dc::ClusterConfig config = scenario.cluster;
      // Checkpoint intervals are optimised against the fault model's rate (failover policies).
      if (scenario.reliability) {
        config.node_fault_rate_per_hour = models::reliability::node_interruption_rate_per_hour(*scenario.reliability);
      }
      cluster_ = std::make_unique<dc::ClusterSimulation>(std::move(config), registries, simulator, sink);
    }
  } catch (const sim::ConfigError& e) {
    throw scenario::translate_config_error(scenario.source, e, &scenario.resolved);
  }
  // The fabric shares the engine and the sink. Training jobs then run every step as their step
  // graph with PP and DP traffic as flows on it (flow mode, training_fabric.hpp): cluster node
  // i is fabric host i.
  if (scenario.fabric) fabric_ = std::make_unique<FabricRun>(scenario, registries, simulator, sink);
  if (fabric_ && cluster_) cluster_->set_fabric_groups(fabric_groups(fabric_->fabric().topology(), scenario.cluster.nodes));
  if (fabric_ && cluster_ && !scenario.cluster.training_jobs.empty()) {
    const std::size_t hosts = fabric_->fabric().topology().host_count();
    if (hosts < static_cast<std::size_t>(scenario.cluster.nodes)) {
      throw sim::InputError(scenario.source + ":/fabric: the fabric has " + std::to_string(hosts) +
                            " hosts but the cluster has " + std::to_string(scenario.cluster.nodes) +
                            " nodes (training jobs map node i to host i)");
    }
    check_store_hosts(hosts);
    std::vector<models::network::NodeId> node_hosts(static_cast<std::size_t>(scenario.cluster.nodes));
    for (std::size_t i = 0; i < node_hosts.size(); ++i) node_hosts[i] = static_cast<models::network::NodeId>(i);
    training_fabric_ = std::make_unique<dc::TrainingFabric>(simulator, fabric_->driver(), std::move(node_hosts));
    cluster_->set_training_fabric(training_fabric_.get());
  }
  if (!training_fabric_ && cluster_) {
    for (std::size_t j = 0; j < scenario.cluster.training_jobs.size(); ++j) {
      if (scenario.cluster.training_jobs[j].checkpoint.store_host >= 0) {
        throw sim::InputError(scenario.source + ":/workload/training/" + std::to_string(j) +
                              "/checkpoint/store_host: needs the scenario's /fabric section");
      }
    }
  }
  // The facility owns node power when the scenario has one (node_power_source.hpp).
  if (scenario.facility && cluster_) {
    try {
      facility_ = std::make_unique<models::facility::FacilitySimulation>(
          *scenario.facility, scenario.cluster.nodes, scenario.cluster.nodes_per_rack, scenario.seed, registries,
          simulator, sink);
    } catch (const sim::ConfigError& e) {
      throw scenario::facility_config_error(scenario.source, scenario.resolved.at("facility"), e);
    }
    facility_->attach(*cluster_, scenario.duration);
  }
  if (scenario.reliability) build_fault_process(simulator, sink);
}

// The random faults, listed in events/faults and counted in the summary, act through the models
// that own the components: a node, GPU or NIC fault takes the node down (its jobs are interrupted
// and handed to the failover policy) until its repair; a job crash interrupts the node's jobs and
// leaves it up; a link or switch fault takes that part of the fabric down until its repair
// (flows re-route or wait), or without a fabric model interrupts one node's jobs; a cooling-zone
// fault stops that zone's heat removal until its repair (GPUs heat, throttle, may shut down).
void ScenarioModels::build_fault_process(sim::Simulator& simulator, sim::TraceSink& sink) {
  namespace rel = models::reliability;
  sink_ = &sink;
  const sim::TableId table = sink.declare_table(
      "faults", {{"time_s", sim::ColumnType::kFloat64, "s", "simulated time of the fault"},
                 {"class", sim::ColumnType::kString, "", "fault class (/reliability/classes, or the preset's)"},
                 {"component", sim::ColumnType::kString, "", "component path, e.g. node/12/gpu/3, fabric/link/881"},
                 {"node", sim::ColumnType::kInt64, "", "node the component belongs to (-1: link, switch, zone)"},
                 {"repair_s", sim::ColumnType::kFloat64, "s", "time until it is back in service"},
                 {"effect", sim::ColumnType::kString, "", "node_down, job_crash, nic_down, link_down, ..."}});
  if (fabric_) {
    const auto& topology = fabric_->fabric().topology();
    for (models::network::LinkId l = 0; l < topology.link_count(); ++l) {
      if (topology.link(l).reverse > l) fabric_cables_.push_back(l);
    }
  }
  const auto act = [this](const rel::Fault& f, bool up) {
    const rel::FaultClass& c = faults_->fault_class(f);
    switch (c.effect) {
      case rel::FaultEffect::kNodeDown:
      case rel::FaultEffect::kNicDown:  // no bonding model: a NIC port down stops the node's jobs
        if (cluster_ && f.node >= 0 && f.node < scenario_.cluster.nodes) {
          if (up) {
            cluster_->set_node_up(f.node);
          } else {
            cluster_->set_node_down(f.node, c.name);
          }
        }
        break;
      case rel::FaultEffect::kJobCrash:
        if (cluster_ && !up && f.node >= 0 && f.node < scenario_.cluster.nodes) cluster_->crash_jobs_on_node(f.node, c.name);
        break;
      case rel::FaultEffect::kLinkDown:
      case rel::FaultEffect::kSwitchDown:
        if (!fabric_) {
          // No fabric model: the collective that used the part times out (NCCL watchdog), which
          // interrupts one node's jobs, as Llama 3 counts its 35 switch/cable interruptions.
          if (cluster_ && !up) {
            cluster_->crash_jobs_on_node(static_cast<int>(f.instance % static_cast<std::size_t>(scenario_.cluster.nodes)),
                                         c.name);
          }
        } else if (c.effect == rel::FaultEffect::kLinkDown) {
          // Cable i of the inventory is the fabric's i-th cable (modulo its count when the
          // inventory was given by hand): flows re-route around it or wait.
          if (!fabric_cables_.empty()) fabric_->driver().set_link_state(fabric_cables_[f.instance % fabric_cables_.size()], up);
        } else {
          const auto& topology = fabric_->fabric().topology();
          const std::size_t switches = topology.node_count() - topology.host_count();
          if (switches > 0) {
            fabric_->driver().set_switch_state(
                static_cast<models::network::NodeId>(topology.host_count() + f.instance % switches), up);
          }
        }
        break;
      case rel::FaultEffect::kZoneCoolingLoss:
        // The zone's heat removal stops until the repair (the facility's zone i is instance i).
        if (facility_ && facility_->zones() > 0) {
          const auto zones = static_cast<std::size_t>(facility_->zones());
          facility_->set_zone_cooling_lost(static_cast<int>(f.instance % zones), !up, c.name);
        }
        break;
    }
  };
  const auto on_fault = [this, table, act](const rel::Fault& f) {
    const auto& c = faults_->fault_class(f);
    sink_->append_row(table, {f.at.seconds(), c.name, faults_->path(f), static_cast<std::int64_t>(f.node),
                              (f.repair_done - f.at).seconds(), std::string(rel::effect_name(c.effect))});
    act(f, false);
  };
  const auto on_repair = [act](const rel::Fault& f) { act(f, true); };
  faults_ = std::make_unique<rel::FaultProcess>(*scenario_.reliability, scenario_.seed, simulator, on_fault, on_repair,
                                                scenario_.duration);
  // A failover policy that acts on a precursor signal (predictive_migration) hears its alarms.
  if (const auto signal = cluster_ ? cluster_->failover_policy().precursor() : std::nullopt) {
    try {
      precursor_ = std::make_unique<rel::FaultPrecursor>(
          *signal, *faults_, scenario_.seed, simulator,
          [this](const rel::Alarm& a) { cluster_->warn_node(a.node, a.cause, a.drain_until, a.false_alarm); },
          scenario_.duration);
    } catch (const sim::ConfigError& e) {
      throw scenario::translate_config_error(
          scenario_.source, sim::ConfigError("failover_params." + e.field(), e.detail()), &scenario_.resolved);
    }
  }
}

ScenarioModels::~ScenarioModels() = default;

void ScenarioModels::check_store_hosts(std::size_t hosts) const {
  const int nodes = scenario_.cluster.nodes;
  for (std::size_t j = 0; j < scenario_.cluster.training_jobs.size(); ++j) {
    const int store = scenario_.cluster.training_jobs[j].checkpoint.store_host;
    if (store >= 0 && (store < nodes || static_cast<std::size_t>(store) >= hosts)) {
      const std::string valid =
          static_cast<std::size_t>(nodes) < hosts
              ? "(" + std::to_string(nodes) + " to " + std::to_string(hosts - 1) + ")"
              : "(none: all " + std::to_string(hosts) + " fabric hosts are cluster nodes; give the fabric more hosts)";
      throw sim::InputError(scenario_.source + ":/workload/training/" + std::to_string(j) +
                            "/checkpoint/store_host: must be a fabric host that is not a cluster node " + valid +
                            ", got " + std::to_string(store));
    }
  }
}

void ScenarioModels::start() {
  if (cluster_) cluster_->start();
  if (facility_) facility_->start();
  if (fabric_) fabric_->start();
  if (faults_) faults_->start();
  if (precursor_) precursor_->start();
}

void ScenarioModels::finish() {
  if (cluster_) cluster_->finish();
  if (facility_) facility_->finish();
  if (fabric_) fabric_->finish();
  if (faults_) {
    const auto& config = faults_->config();
    sink_->set_summary("reliability/faults_total",
                       {static_cast<std::int64_t>(faults_->faults_total()), "", "random faults in the run (all classes)"});
    double expected = 0;
    for (std::size_t c = 0; c < config.classes.size(); ++c) {
      sink_->set_summary("reliability/faults/" + config.classes[c].name,
                         {static_cast<std::int64_t>(faults_->faults(c)), "", "random faults of this class"});
      expected += faults_->nominal_rate_per_hour(c);
    }
    const sim::Time until = scenario_.duration.is_max() ? sim::Time::zero() : scenario_.duration;
    sink_->set_summary("reliability/expected_faults",
                       {expected * until.seconds() / 3600.0, "",
                        "rate x instances x /duration summed over classes (ignores instances under repair)"});
  }
}

double ScenarioModels::progress_fraction() const {
  if (cluster_) return cluster_->progress_fraction();
  if (fabric_) return fabric_->progress_fraction();
  return 1.0;
}

void check_models_build(const scenario::Scenario& scenario, const models::ModelRegistries& registries) {
  sim::Simulator simulator;
  sim::DiscardTraceSink sink;
  ScenarioModels models(scenario, registries, simulator, sink);
  // Expands job generators and schedules the first events, which can still find a bad config.
  models.start();
}

}  // namespace dcsim::tools::run
