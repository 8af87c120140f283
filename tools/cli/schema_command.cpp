#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "tools/check/expectations_format.hpp"
#include "tools/cli/command.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::cli {

Command add_schema_command(CLI::App& app, const CommandContext& context) {
  auto expectations = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("schema", "print the scenario format's JSON Schema (or, with --expectations, that "
                                           "of `dcsim check`'s expectations files)");
  cmd->add_flag("--expectations", *expectations,
                "the JSON Schema of expectations files instead (scenarios/ci/expectations.schema.json)");
  return {cmd, [expectations, &context] {
            std::cout << (*expectations ? check::expectations_schema() : scenario::scenario_schema(context.registries))
                             .dump(2)
                      << '\n';
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
