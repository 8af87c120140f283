// `dcsim collective SCENARIO --op all_reduce --sizes 1K:8G [--algo NAME] [--gpus N] [--json]`:
// an nccl-tests-style sweep of the analytic collective model (models/collective) on the
// scenario's node type, node count and compute NICs.

#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "models/collective/collective_estimator.hpp"
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
    int gpus = 0;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "collective",
      "nccl-tests-style table of a collective on the scenario's cluster (analytic model)");
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
            const auto& node = scenario.cluster.node;
            const int nodes = scenario.cluster.nodes;
            mc::CollectiveSweep sweep;
            try {
              const auto system = mc::make_collective_system(
                  node, nodes, scenario::collective_fabric_params(node), args->gpus);
              sweep = mc::collective_sweep(context.registries.collective_algorithms, op,
                                           mc::size_sweep(range.min_bytes, range.max_bytes, 2.0),
                                           system, {}, args->algo);
              if (args->json) {
                std::cout << collective::collective_rows_json(sweep).dump(2) << '\n';
              } else {
                collective::ReportContext report{args->scenario.file, args->algo,
                                                 system.nodes, system.gpus_per_node};
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
              throw scenario::translate_config_error(args->scenario.file, e);
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
