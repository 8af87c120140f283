// `dcsim collective SCENARIO --op all_reduce --sizes 1K:8G [--algo NAME] [--gpus N] [--json]`:
// an nccl-tests-style sweep of the analytic collective model (models/collective) on the
// scenario's node type, node count and compute NICs. `--mode flow` runs every size as flows on
// the scenario's /fabric instead (models/collective/flow_collective.hpp; cluster node i is
// fabric host i, one channel per compute NIC, Simple protocol, a fresh fabric per size; `auto`
// runs what the analytic model picks with the Simple protocol, size by size).

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "models/collective/collective_estimator.hpp"
#include "models/collective/flow_collective.hpp"
#include "models/network/fabric.hpp"
#include "tools/scenario/fabric_mapping.hpp"
#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/collective/collective_report.hpp"
#include "tools/collective/size_range.hpp"
#include "tools/scenario/training_spec.hpp"

namespace dcsim::tools::cli {

namespace mc = models::collective;

Command add_collective_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    ScenarioArgs scenario;
    std::string op = "all_reduce";
    std::string sizes = "8:128M";
    std::string algo = "auto";
    std::string mode = "analytic";
    int gpus = 0;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "collective",
      "nccl-tests-style table of a collective on the scenario's cluster (analytic closed forms, or "
      "flows on its /fabric with --mode flow)");
  args->scenario.add_to(*cmd);
  cmd->add_option("--op", args->op,
                  "all_reduce, all_gather, reduce_scatter, all_to_all, broadcast or point_to_point")
      ->capture_default_str();
  cmd->add_option("--sizes", args->sizes,
                  "MIN:MAX bytes, doubling (binary K, M, G as nccl-tests: 1K:8G), or one size")
      ->capture_default_str();
  cmd->add_option("--algo", args->algo,
                  "ring, tree, nvls, hierarchical, or auto (what NCCL would pick)")
      ->capture_default_str();
  cmd->add_option("--mode", args->mode,
                  "analytic (closed forms) or flow (flows on the scenario's /fabric, Simple "
                  "protocol; every algorithm the closed forms run, auto = the analytic pick)")
      ->capture_default_str();
  cmd->add_option("--gpus", args->gpus,
                  "ranks in the communicator (default: every GPU of the cluster; more than one "
                  "node's GPUs must be whole nodes)");
  cmd->add_flag("--json", args->json,
                "print the rows as a JSON array of {bytes, time_s, algbw_GBps, busbw_GBps, ...}");
  return {cmd, [args, &context] {
            const auto scenario = args->scenario.load(context.registries);
            if (!scenario.has_cluster) {
              throw sim::InputError(args->scenario.file +
                                    ": a collective needs /cluster (its nodes and GPUs)");
            }
            const auto range = collective::parse_size_range(args->sizes);
            const mc::CollectiveOp op = mc::parse_op(args->op);
            const auto& algorithms = context.registries.collective_algorithms;
            if (args->algo != "auto" && algorithms.find(args->algo) == nullptr) {
              std::string valid;
              for (const auto& name : algorithms.names()) valid += ", " + name;
              throw sim::InputError("--algo: unknown collective algorithm '" + args->algo +
                                    "'; valid: auto" + valid);
            }
            if (args->mode != "analytic" && args->mode != "flow") {
              throw sim::InputError("--mode: unknown mode '" + args->mode +
                                    "'; valid: analytic, flow");
            }
            const bool flow = args->mode == "flow";
            if (flow && !scenario.fabric) {
              throw sim::InputError(args->scenario.file +
                                    ": --mode flow needs the scenario's /fabric section (the "
                                    "network the collective's flows run on); use --mode analytic "
                                    "or add /fabric");
            }
            if (flow && args->algo != "auto" && !mc::flow_mode_supports(op, args->algo)) {
              throw sim::InputError("--algo: flow mode does not run " + std::string(mc::op_name(op)) +
                                    " with '" + args->algo + "'; flow mode runs " +
                                    mc::flow_mode_algorithms());
            }
            const auto& node = scenario.cluster.node;
            const int nodes = scenario.cluster.nodes;
            mc::CollectiveSweep sweep;
            try {
              const auto system = mc::make_collective_system(
                  node, nodes, scenario::collective_fabric_params(node), args->gpus);
              const auto sizes = mc::size_sweep(range.min_bytes, range.max_bytes, 2.0);
              if (flow) {
                const auto topology =
                    scenario::build_topology(*scenario.fabric, context.registries, scenario.source);
                if (topology.host_count() < static_cast<std::size_t>(system.nodes)) {
                  throw sim::InputError(args->scenario.file + ":/fabric: the fabric has " +
                                        std::to_string(topology.host_count()) +
                                        " hosts but the communicator spans " +
                                        std::to_string(system.nodes) +
                                        " nodes (node i runs on host i)");
                }
                std::vector<models::network::NodeId> hosts(static_cast<std::size_t>(system.nodes));
                for (int i = 0; i < system.nodes; ++i) {
                  hosts[static_cast<std::size_t>(i)] = static_cast<models::network::NodeId>(i);
                }
                mc::CollectiveTuning tuning = scenario.software.collective_tuning();
                for (int p = 0; p < 2; ++p) tuning.enable_protocol[p] = false;  // Simple
                sweep.op = op;
                sweep.ranks = system.ranks();
                const double factor = mc::bus_bandwidth_factor(op, system.ranks());
                for (double bytes : sizes) {
                  // What NCCL would run at this size (Simple: the protocol flow mode models).
                  const std::string flow_algo =
                      args->algo != "auto"
                          ? args->algo
                          : mc::estimate_collective(algorithms, op, bytes, system, tuning, "auto").algorithm;
                  models::network::Fabric fabric(topology, scenario.fabric->options);
                  const auto r = mc::collective_on_fabric(fabric, hosts, op, bytes, system, tuning,
                                                          flow_algo, std::max(1, system.nics_per_node));
                  if (r.failed) {
                    throw sim::InputError(args->scenario.file +
                                          ":/fabric: a collective flow found no path between "
                                          "the communicator's hosts");
                  }
                  mc::CollectiveRow row;
                  row.bytes = bytes;
                  row.time_s = r.time_s;
                  row.algbw_GBps = r.time_s > 0.0 ? bytes / r.time_s * 1e-9 : 0.0;
                  row.busbw_GBps = row.algbw_GBps * factor;
                  row.algorithm = flow_algo;
                  row.protocol = mc::Protocol::kSimple;
                  sweep.rows.push_back(std::move(row));
                }
              } else {
                sweep = mc::collective_sweep(context.registries.collective_algorithms, op, sizes, system,
                                             scenario.software.collective_tuning(), args->algo);
              }
              if (args->json) {
                std::cout << collective::collective_rows_json(sweep).dump(2) << '\n';
              } else {
                collective::ReportContext report{args->scenario.file, args->algo,
                                                 system.nodes, system.gpus_per_node};
                if (flow) report.model = "flow mode on the scenario's /fabric";
                std::cout << collective::format_collective_table(sweep, report);
              }
            } catch (const sim::ConfigError& e) {
              // The options' own names for what they control; the rest comes from the scenario.
              const std::string& f = e.field();
              if (f == "gpus") throw sim::InputError("--gpus: " + e.detail());
              if (f == "algorithm") throw sim::InputError("--algo: " + e.detail());
              if (f == "bytes" || f == "sizes") throw sim::InputError("--sizes: " + e.detail());
              if (f == "fabric.nics_per_node") {
                throw sim::InputError(args->scenario.file + ":/cluster/node/compute_nics: " + e.detail());
              }
              throw scenario::cluster_config_error(scenario, e, context.registries);
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
