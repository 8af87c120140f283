#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tools/cli/command.hpp"
#include "tools/output/trace_csv_export.hpp"
#include "tools/output/trace_timeline.hpp"

namespace dcsim::tools::cli {

Command add_export_command(CLI::App& app, const CommandContext& /*context*/) {
  struct Args {
    std::string trace;
    std::string csv_dir;
    std::string timeline;
    output::TimelineOptions timeline_options;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("export", "convert a run's trace.h5 for other tools: --csv DIR writes every series, "
                                           "table and summary value as CSV with units in the headers; --timeline "
                                           "FILE.json the run's Perfetto / Chrome timeline");
  cmd->add_option("trace", args->trace, "a trace.h5 written by dcsim run")->required();
  auto* csv = cmd->add_option("--csv", args->csv_dir,
                              "directory to write series/, events/, summary/ and summary.csv into");
  auto* timeline = cmd->add_option("--timeline", args->timeline,
                                   "write the run's Chrome / Perfetto trace-event JSON (as `dcsim run --timeline` "
                                   "does) to this file");
  auto& limits = args->timeline_options;
  cmd->add_option("--timeline-max-steps", limits.max_step_slices,
                  "step slices in the timeline, shared evenly by the training jobs")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--timeline-max-points", limits.max_counter_points, "points per counter track in the timeline")
      ->check(CLI::Range(std::size_t{2}, std::size_t{100000000}))
      ->capture_default_str();
  cmd->add_option("--timeline-max-jobs", limits.records.max_jobs,
                  "job tracks in the timeline besides the named jobs")
      ->capture_default_str();
  // One of them at least (CLI11 reports "at least 1 required" as a usage error: exit 2).
  auto* what = cmd->add_option_group("output", "what to export");
  what->add_option(csv);
  what->add_option(timeline);
  what->require_option(1, 2);
  return {cmd, [args, csv, timeline] {
            // Checked before anything is read: a bad timeline path writes nothing.
            std::optional<output::TimelineFile> timeline_file;
            if (timeline->count() > 0) timeline_file.emplace(args->timeline, args->timeline_options);
            if (csv->count() > 0) {
              const auto files = output::export_trace_csv(args->trace, args->csv_dir);
              std::cout << fmt::format("{} CSV files in {}\n", files.size(), args->csv_dir);
            }
            if (timeline_file) {
              const auto stats = output::export_trace_timeline(args->trace, *timeline_file);
              timeline_file->commit();
              std::cout << fmt::format("timeline of {} events in {}\n", stats.events, args->timeline);
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
