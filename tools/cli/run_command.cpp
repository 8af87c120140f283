#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tools/cli/command.hpp"
#include "tools/cli/output_paths.hpp"
#include "tools/cli/run_report.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/output/timeline_file.hpp"
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
    std::string timeline;
    output::TimelineOptions timeline_options;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("run", "run a scenario; writes trace.h5 and summary.json");
  args->scenario.add_to(*cmd);
  cmd->add_option("-o,--output", args->output_dir, "output directory (created if needed; an earlier run's summary.json and trace.h5 there are deleted when the run starts)")->required();
  cmd->add_flag("-q,--quiet", args->quiet, "no progress line and no headline results");
  cmd->add_flag("--json", args->json, "print summary.json's content on stdout instead of the headline");
  auto* timeline_option = cmd->add_option("--timeline", args->timeline,
                  "also write a Chrome / Perfetto trace-event JSON of the run (jobs' phases, training steps, "
                  "faults, throttling, power and PUE) to this file; open it in ui.perfetto.dev or chrome://tracing");
  auto& limits = args->timeline_options;
  cmd->add_option("--timeline-max-steps", limits.max_step_slices,
                  "step slices in the timeline, shared evenly by the training jobs; beyond its share, a job's "
                  "slices each group k consecutive steps")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--timeline-max-points", limits.max_counter_points,
                  "points per counter track in the timeline; beyond, time-weighted means over equal buckets")
      ->check(CLI::Range(std::size_t{2}, std::size_t{100000000}))
      ->capture_default_str();
  cmd->add_option("--timeline-max-jobs", limits.records.max_jobs,
                  "job tracks in the timeline besides the named jobs (generated and trace jobs beyond are left out)")
      ->capture_default_str();
  return {cmd, [args, timeline_option, &context] {
            // Ctrl-C or SIGTERM from here on: stop at the next event, delete the temporaries,
            // exit 130 or 143 (main.cpp).
            const run::InterruptHandlers interrupts;
            const auto scenario = args->scenario.load(context.registries);
            // Opened (and checked) before the run: a bad path is exit 2 at once, nothing written.
            std::optional<output::TimelineFile> timeline;
            if (timeline_option->count() > 0) {
              // Into the folder -o names (or one above it), which the run would create a moment
              // later: created now.
              std::error_code ec;
              if (!args->output_dir.empty() && !args->timeline.empty() &&
                  !std::filesystem::is_directory(folder_of(args->timeline), ec) &&
                  contains_folder(folder_of(args->timeline), args->output_dir)) {
                std::filesystem::create_directories(args->output_dir, ec);  // a failure: the run says why
              }
              timeline.emplace(args->timeline, args->timeline_options);
            }
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
                run::run_to_directory(scenario, context.registries, args->output_dir, progress, phase,
                                      timeline ? &*timeline : nullptr);
            if (reporter) reporter->done();
            if (args->json) {
              std::cout << outputs.summary.dump(2) << '\n';
            } else if (!args->quiet) {
              std::cout << headline_report(scenario, outputs);
              if (timeline) {
                std::error_code ec;
                const auto bytes = std::filesystem::file_size(timeline->path(), ec);
                const double mb = ec ? 0.0 : static_cast<double>(bytes) / 1e6;
                std::cout << fmt::format("  timeline    {} ({} events, {}, written in {:.2f} s)\n",
                                         timeline->path().string(), timeline->stats().events,
                                         mb < 1.0 ? fmt::format("{:.0f} kB", mb * 1e3) : fmt::format("{:.1f} MB", mb),
                                         outputs.stats.timeline_s);
              }
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
