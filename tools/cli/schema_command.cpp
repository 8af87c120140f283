#include <iostream>

#include <CLI/CLI.hpp>

#include "tools/cli/command.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::cli {

Command add_schema_command(CLI::App& app, const CommandContext& context) {
  auto* cmd = app.add_subcommand("schema", "print the scenario format's JSON Schema");
  return {cmd, [&context] {
            std::cout << scenario::scenario_schema(context.registries).dump(2) << '\n';
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
