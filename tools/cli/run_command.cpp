#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include "tools/cli/command.hpp"
#include "tools/cli/run_report.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/progress_reporter.hpp"
#include "tools/run/run_scenario.hpp"

namespace dcsim::tools::cli {

Command add_run_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    ScenarioArgs scenario;
    std::string output_dir;
    bool quiet = false;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("run", "run a scenario; writes trace.h5 and summary.json");
  args->scenario.add_to(*cmd);
  cmd->add_option("-o,--output", args->output_dir, "output directory (created if needed; an earlier run's summary.json and trace.h5 there are deleted when the run starts)")->required();
  cmd->add_flag("-q,--quiet", args->quiet, "no progress line and no headline results");
  cmd->add_flag("--json", args->json, "print summary.json's content on stdout instead of the headline");
  return {cmd, [args, &context] {
            // Ctrl-C or SIGTERM from here on: stop at the next event, delete the temporaries,
            // exit 130 or 143 (main.cpp).
            const run::InterruptHandlers interrupts;
            const auto scenario = args->scenario.load(context.registries);
            std::optional<run::ProgressReporter> reporter;
            run::ProgressFn progress;
            run::PhaseFn phase;
            if (!args->quiet && run::stderr_is_terminal()) {
              reporter.emplace(std::cerr);
              progress = [&](sim::Time now, double fraction, std::uint64_t events) {
                reporter->update(now, fraction, events);
              };
              phase = [&](const std::string& what) { reporter->phase(what); };
            }
            const auto outputs =
                run::run_to_directory(scenario, context.registries, args->output_dir, progress, phase);
            if (reporter) reporter->done();
            if (args->json) {
              std::cout << outputs.summary.dump(2) << '\n';
            } else if (!args->quiet) {
              std::cout << headline_report(scenario, outputs);
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
