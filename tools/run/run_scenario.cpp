#include "tools/run/run_scenario.hpp"

#include <chrono>

#include <fmt/format.h>

#include "models/datacenter/cluster_simulation.hpp"
#include "models/datacenter/training_fabric.hpp"
#include "models/facility/facility_simulation.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "tools/run/fabric_run.hpp"
#include "tools/output/run_output.hpp"
#include "tools/version.hpp"

namespace dcsim::tools::run {

namespace {

// Progress is polled every this many events: cheap enough to vanish in the event loop's cost.
constexpr std::uint64_t kProgressEveryEvents = 1 << 16;

}  // namespace

RunStats simulate(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                  sim::TraceSink& sink, const ProgressFn& progress) {
  const auto wall_start = std::chrono::steady_clock::now();
  sim::Simulator simulator;
  std::unique_ptr<models::datacenter::ClusterSimulation> cluster;
  try {
    if (scenario.has_cluster) {
      cluster = std::make_unique<models::datacenter::ClusterSimulation>(scenario.cluster, registries,
                                                                        simulator, sink);
    }
  } catch (const sim::ConfigError& e) {
    throw scenario::translate_config_error(scenario.source, e);
  }
  // The fabric shares the engine and the sink. Training jobs then run every step as their step
  // graph with PP and DP traffic as flows on it (flow mode, training_fabric.hpp): cluster node
  // i is fabric host i.
  std::unique_ptr<FabricRun> fabric;
  if (scenario.fabric) fabric = std::make_unique<FabricRun>(scenario, registries, simulator, sink);
  std::unique_ptr<models::datacenter::TrainingFabric> training_fabric;
  if (fabric && cluster && !scenario.cluster.training_jobs.empty()) {
    const std::size_t hosts = fabric->fabric().topology().host_count();
    if (hosts < static_cast<std::size_t>(scenario.cluster.nodes)) {
      throw sim::InputError(scenario.source + ":/fabric: the fabric has " + std::to_string(hosts) +
                            " hosts but the cluster has " + std::to_string(scenario.cluster.nodes) +
                            " nodes (training jobs map node i to host i)");
    }
    for (std::size_t j = 0; j < scenario.cluster.training_jobs.size(); ++j) {
      const int store = scenario.cluster.training_jobs[j].checkpoint.store_host;
      if (store >= 0 && (store < scenario.cluster.nodes || static_cast<std::size_t>(store) >= hosts)) {
        const std::string valid =
            static_cast<std::size_t>(scenario.cluster.nodes) < hosts
                ? "(" + std::to_string(scenario.cluster.nodes) + " to " + std::to_string(hosts - 1) + ")"
                : "(none: all " + std::to_string(hosts) + " fabric hosts are cluster nodes; give the fabric more hosts)";
        throw sim::InputError(scenario.source + ":/workload/training/" + std::to_string(j) +
                              "/checkpoint/store_host: must be a fabric host that is not a cluster node " + valid +
                              ", got " + std::to_string(store));
      }
    }
    std::vector<models::network::NodeId> node_hosts(static_cast<std::size_t>(scenario.cluster.nodes));
    for (std::size_t i = 0; i < node_hosts.size(); ++i) node_hosts[i] = static_cast<models::network::NodeId>(i);
    training_fabric = std::make_unique<models::datacenter::TrainingFabric>(simulator, fabric->driver(),
                                                                           std::move(node_hosts));
    cluster->set_training_fabric(training_fabric.get());
  }
  if (!training_fabric && cluster) {
    for (std::size_t j = 0; j < scenario.cluster.training_jobs.size(); ++j) {
      if (scenario.cluster.training_jobs[j].checkpoint.store_host >= 0) {
        throw sim::InputError(scenario.source + ":/workload/training/" + std::to_string(j) +
                              "/checkpoint/store_host: needs the scenario's /fabric section");
      }
    }
  }
  const sim::Time duration = scenario.duration;
  // The facility owns node power when the scenario has one (node_power_source.hpp).
  std::unique_ptr<models::facility::FacilitySimulation> facility;
  if (scenario.facility && cluster) {
    try {
      facility = std::make_unique<models::facility::FacilitySimulation>(
          *scenario.facility, scenario.cluster.nodes, scenario.cluster.nodes_per_rack, scenario.seed, registries,
          simulator, sink);
    } catch (const sim::ConfigError& e) {
      throw sim::InputError(scenario.source + ":/facility: " + e.field() + ": " + e.detail());
    }
    facility->attach(*cluster, duration);
  }
  if (progress) {
    simulator.set_progress_observer(kProgressEveryEvents, [&] {
      const double fraction = !duration.is_max() ? simulator.now().seconds() / duration.seconds()
                              : cluster          ? cluster->progress_fraction()
                              : fabric           ? fabric->progress_fraction()
                                                 : 1.0;
      progress(simulator.now(), fraction, simulator.events_executed());
    });
  }
  if (cluster) cluster->start();
  if (facility) facility->start();
  if (fabric) fabric->start();
  if (duration.is_max()) {
    simulator.run();
  } else {
    simulator.run_until(duration);
  }
  if (cluster) cluster->finish();
  if (facility) facility->finish();
  if (fabric) fabric->finish();
  // Deterministic, so they belong in summary.json: a changed count or fingerprint means the
  // event sequence changed (OMNeT++-style fingerprint for golden tests).
  sink.set_summary("engine/events", sim::SummaryValue{static_cast<std::int64_t>(simulator.events_executed()), "",
                                                      "events executed"});
  sink.set_summary("engine/fingerprint", sim::SummaryValue{fmt::format("{:016x}", simulator.fingerprint()), "",
                                                           "hash of the executed event times, in order"});
  RunStats stats;
  stats.events = simulator.events_executed();
  stats.simulated_s = simulator.now().seconds();
  stats.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

RunOutputs run_to_directory(const scenario::Scenario& scenario,
                            const models::ModelRegistries& registries,
                            const std::filesystem::path& output_dir, const ProgressFn& progress) {
  output::RunOutput out(output_dir);
  output::RunMeta meta;
  meta.scenario_name = scenario.name;
  meta.scenario_given = scenario.given.dump(2);
  meta.scenario_resolved = scenario.resolved.dump(2);
  meta.dcsim_version = std::string(version());
  meta.seed = static_cast<std::int64_t>(scenario.seed);
  meta.started_at = output::utc_now_iso8601();
  meta.source = scenario.source;
  out.set_meta(meta);

  RunOutputs result;
  result.stats = simulate(scenario, registries, out.sink(), progress);
  result.summary = output::summary_json(out.writer().summary(), meta);
  out.commit(result.stats.wall_s);
  result.trace_file = out.trace_path();
  result.summary_file = out.summary_path();
  return result;
}

}  // namespace dcsim::tools::run
