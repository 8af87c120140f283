#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tools/cli/command.hpp"
#include "tools/output/trace_csv_export.hpp"

namespace dcsim::tools::cli {

Command add_export_command(CLI::App& app, const CommandContext& /*context*/) {
  struct Args {
    std::string trace;
    std::string csv_dir;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("export", "convert a run's trace.h5 for other tools: --csv DIR writes every series, "
                                           "table and summary value as CSV with units in the headers");
  cmd->add_option("trace", args->trace, "a trace.h5 written by dcsim run")->required();
  cmd->add_option("--csv", args->csv_dir, "directory to write series/, events/, summary/ and summary.csv into")
      ->required();
  return {cmd, [args] {
            const auto files = output::export_trace_csv(args->trace, args->csv_dir);
            std::cout << fmt::format("{} CSV files in {}\n", files.size(), args->csv_dir);
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
