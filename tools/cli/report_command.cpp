#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>

#include "tools/cli/command.hpp"
#include "tools/report/report_builder.hpp"

namespace dcsim::tools::cli {

Command add_report_command(CLI::App& app, const CommandContext& /*context*/) {
  struct Args {
    std::string run_dir;
    std::string output;
  };
  auto args = std::make_shared<Args>();
  auto* cmd =
      app.add_subcommand("report",
                         "write a run's results as one self-contained HTML page (headline, power "
                         "and PUE, temperatures, job timeline, throughput, links, costs)");
  cmd->add_option("run_dir", args->run_dir,
                  "a directory written by dcsim run -o (trace.h5 and summary.json); for one written by dcsim "
                  "design, the report it wrote")
      ->required();
  cmd->add_option("-o,--output", args->output,
                  "the HTML file to write (default RUN_DIR/report.html); its directory must exist");
  return {cmd, [args] {
            // A design search's folder has its page already: dcsim design writes it with its results.
            const std::filesystem::path dir(args->run_dir);
            if (std::filesystem::exists(dir / "design.json") && std::filesystem::exists(dir / "report.html") &&
                !std::filesystem::exists(dir / "summary.json")) {
              std::cout << fmt::format("{} is a design search; dcsim design wrote its report: {}\n", dir.string(),
                                       (dir / "report.html").string());
              return 0;
            }
            const auto written = report::write_report(args->run_dir, args->output);
            std::cout << fmt::format("report written to {}\n", written.string());
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
