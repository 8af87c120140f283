#pragma once
// One `dcsim` subcommand per file. Each add_*_command() declares its options on `app` and returns
// the action to run when that subcommand was chosen; main() only parses and maps errors to exit
// codes. Adding a command touches its own file plus one line in command_list.cpp.

#include <functional>
#include <vector>

#include "models/model_registries.hpp"

namespace CLI {
class App;
}

namespace dcsim::tools::cli {

struct CommandContext {
  const models::ModelRegistries& registries;
};

// The action of a parsed subcommand; returns the exit code (0 ok).
using CommandAction = std::function<int()>;

struct Command {
  CLI::App* subcommand;  // owned by the parent App
  CommandAction action;
};

// Every command, in `--help` order.
std::vector<Command> add_all_commands(CLI::App& app, const CommandContext& context);

Command add_run_command(CLI::App& app, const CommandContext& context);
Command add_validate_command(CLI::App& app, const CommandContext& context);
Command add_list_command(CLI::App& app, const CommandContext& context);
Command add_schema_command(CLI::App& app, const CommandContext& context);
Command add_bench_command(CLI::App& app, const CommandContext& context);
Command add_collective_command(CLI::App& app, const CommandContext& context);
Command add_topo_command(CLI::App& app, const CommandContext& context);
Command add_export_command(CLI::App& app, const CommandContext& context);
Command add_check_command(CLI::App& app, const CommandContext& context);
Command add_report_command(CLI::App& app, const CommandContext& context);
Command add_sweep_command(CLI::App& app, const CommandContext& context);
Command add_design_command(CLI::App& app, const CommandContext& context);
Command add_calibrate_command(CLI::App& app, const CommandContext& context);

}  // namespace dcsim::tools::cli
