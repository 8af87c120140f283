#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/progress_reporter.hpp"
#include "tools/sweep/mpi_world.hpp"
#include "tools/sweep/parallel_for.hpp"
#include "tools/sweep/sweep_results.hpp"
#include "tools/sweep/sweep_runner.hpp"
#include "tools/sweep/sweep_spec.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace dcsim::tools::cli {

namespace {

// Distinct from 2 (bad input in the sweep file: nothing ran) and 3 (`dcsim check`'s failed
// checks): the sweep ran, results.csv is written, and some variants failed.
constexpr int kExitVariantsFailed = 4;
// Failed variants listed on stderr; the rest are in results.csv (status "failed").
constexpr std::size_t kFailuresListed = 20;

}  // namespace

Command add_sweep_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    std::string sweep;
    std::string output_dir;
    std::size_t jobs = 0;
    bool quiet = false;
    bool dry_run = false;
    std::optional<std::string> max_memory;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "sweep", "run a scenario over a grid, zip or random sample of --set values (and seeds), in parallel; results.csv "
               "and results.h5 with one row per variant; exit 4 when some variants failed");
  cmd->add_option("sweep", args->sweep, "sweep file (JSON; docs/cli.md, \"Sweeps\")")->required();
  cmd->add_option("-o,--output", args->output_dir,
                  "folder for the variants (v0000/ ...) and results.csv; an interrupted sweep run again into the same "
                  "folder skips the variants already finished");
  cmd->add_option("-j,--jobs", args->jobs, "variants run at once (default: the core count; per rank under mpirun)");
  cmd->add_flag("-q,--quiet", args->quiet, "no progress line");
  cmd->add_flag("--dry-run", args->dry_run, "validate and list the variants without running or writing anything");
  cmd->add_option("--max-memory", args->max_memory,
                  "memory the variants running at once on this machine may use together, e.g. \"16 GB\"; each gets "
                  "its share (SIZE / (jobs x ranks on this machine)) and a variant estimated above it fails (default: "
                  "3/4 of this machine's memory)");
  return {cmd, [args, &context] {
            sweep::MpiWorld world;
            const run::InterruptHandlers interrupts;
            // Under mpirun, the ranks on one machine share its cores.
            const std::size_t jobs =
                args->jobs > 0 ? args->jobs
                               : std::max<std::size_t>(1, sweep::core_count() / static_cast<std::size_t>(world.local_size()));
            if (!args->dry_run && args->output_dir.empty()) {
              throw sim::InputError("sweep: -o DIR is required (where the variants and results.csv go)");
            }
            const sweep::Sweep s = sweep::load_sweep(args->sweep);
            // Each of the variants that run at once on this machine (every local rank's threads)
            // gets its part of the memory limit.
            auto limits = resource_limits(args->max_memory);
            limits.max_memory_bytes /= static_cast<double>(jobs * static_cast<std::size_t>(world.local_size()));
            // Every variant loads before anything is written: bad input costs seconds and leaves -o untouched.
            const sweep::Plan plan = sweep::validate_sweep(s, context.registries, jobs, limits);
            const std::size_t count = sweep::variant_count(s);
            if (args->dry_run) {
              if (world.rank() == 0) {
                std::cout << fmt::format("{}: {} variants ({} points x {} replication{})\n", s.name, count,
                                         sweep::point_count(s), s.replications, s.replications == 1 ? "" : "s");
                for (std::size_t i = 0; i < count; ++i) {
                  const auto v = sweep::variant_at(s, i, plan.base_seed);
                  std::cout << fmt::format("  {}  {}\n", v.name, sweep::describe_values(s, v));
                }
              }
              return 0;
            }
            const std::filesystem::path dir(args->output_dir);
            std::filesystem::create_directories(dir);
            if (world.rank() == 0) {
              // The sweep file beside its results: which sweep produced them.
              const auto copy = dir / "sweep.json";
              std::error_code same;
              if (!std::filesystem::equivalent(args->sweep, copy, same)) {
                std::filesystem::copy_file(args->sweep, copy, std::filesystem::copy_options::overwrite_existing);
              }
            }
            sweep::RunOptions options;
            options.output_dir = dir;
            options.jobs = jobs;
            options.rank = world.rank();
            options.ranks = world.size();
            const std::string label =
                world.size() > 1 ? fmt::format("{} (rank 0 of {})", s.name, world.size()) : s.name;
            sweep::SweepProgress progress(std::cerr, label, sweep::share_count(count, 0, world.size()),
                                          !args->quiet && world.rank() == 0, run::stderr_is_terminal());
            sweep::RunTally tally;
            try {
              tally = sweep::run_variants(s, plan, context.registries, limits, options, progress);
            } catch (const run::Interrupted& e) {
              progress.finish();
              // The other ranks would wait for this one at the barrier: end them all.
              if (world.size() > 1) std::cerr << "dcsim: " << e.what() << "\n";
              world.abort(e.exit_code());
              throw;
            } catch (const std::exception& e) {
              progress.finish();
              if (world.size() > 1) std::cerr << "dcsim: error: " << e.what() << "\n";
              world.abort(1);
              throw;
            }
            progress.finish();
            world.barrier();  // every rank's variants are on disk before rank 0 reads them
            const auto totals = world.sum({static_cast<double>(tally.ran), static_cast<double>(tally.reused)});
            if (world.rank() != 0) return 0;
            const sweep::ResultsReport report = sweep::write_results(s, plan, dir);
            std::cout << fmt::format("sweep {}: {} variants, {} ok, {} failed ({} run now, {} reused); {}\n", s.name,
                                     count, report.ok, report.failures.size(), totals[0], totals[1],
                                     (dir / sweep::kResultsCsvName).string());
            for (std::size_t i = 0; i < report.failures.size() && i < kFailuresListed; ++i) {
              const auto& f = report.failures[i];
              std::cerr << fmt::format("  failed {} ({}): {}\n", f.variant, f.values, f.error);
            }
            if (report.failures.size() > kFailuresListed) {
              std::cerr << fmt::format("  ... and {} more failed variants (status \"failed\" in results.csv)\n",
                                       report.failures.size() - kFailuresListed);
            }
            return report.failures.empty() ? 0 : kExitVariantsFailed;
          }};
}

}  // namespace dcsim::tools::cli
