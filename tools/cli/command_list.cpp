#include "tools/cli/command.hpp"

namespace dcsim::tools::cli {

std::vector<Command> add_all_commands(CLI::App& app, const CommandContext& context) {
  return {
      add_run_command(app, context),       add_validate_command(app, context), add_check_command(app, context),
      add_sweep_command(app, context),     add_design_command(app, context),   add_list_command(app, context),
      add_schema_command(app, context),    add_bench_command(app, context),    add_collective_command(app, context),
      add_topo_command(app, context),      add_export_command(app, context),   add_report_command(app, context),
      add_calibrate_command(app, context),
  };
}

}  // namespace dcsim::tools::cli
