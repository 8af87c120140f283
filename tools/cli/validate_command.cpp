#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tools/cli/command.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/run/build_datacenter.hpp"

namespace dcsim::tools::cli {

Command add_validate_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    ScenarioArgs scenario;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("validate", "check a scenario and build its models as `run` would (nothing runs, nothing is written); print every error with its JSON pointer");
  args->scenario.add_to(*cmd);
  cmd->add_flag("--json", args->json, "print the resolved scenario (defaults filled) as JSON");
  return {cmd, [args, &context] {
            const auto scenario = args->scenario.load(context.registries);
            // Everything `run` does before its first event: a scenario that validates starts.
            run::check_models_build(scenario, context.registries);
            if (args->json) {
              std::cout << scenario.resolved.dump(2) << '\n';
            } else {
              std::cout << fmt::format("{}: ok ({})\n", args->scenario.file, scenario.name);
              // What each job trace gave, and what it left out and why.
              for (const auto& t : scenario.traces) {
                std::cout << fmt::format("  trace {} ({}): {}\n", t.name, t.file, t.summary);
              }
              // The plans "parallelism": {"auto": true} chose (issue 37, item 2).
              for (const auto& [i, o] : scenario.plan_searches) {
                std::cout << fmt::format("  training {}: auto plan {} ({} plans, {} pruned, {} evaluated)\n",
                                         scenario.cluster.training_jobs[i].job.name, o.plan, o.enumerated, o.pruned,
                                         o.evaluated);
              }
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
