#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/design/design_evaluator.hpp"
#include "tools/design/design_outputs.hpp"
#include "tools/design/design_runner.hpp"
#include "tools/design/design_spec.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/progress_reporter.hpp"
#include "tools/sweep/mpi_world.hpp"
#include "tools/sweep/parallel_for.hpp"

namespace dcsim::tools::cli {

namespace {

// Grid points tried, spread over the space, before a design is refused as bad input because none
// of its candidates loads.
constexpr std::size_t kProbePoints = 16;
// Distinct from 2 (bad input: nothing ran), 3 (`check`'s failed checks) and 4 (`sweep`'s failed
// variants): the search ran and its outputs are written, but no candidate met the constraints.
constexpr int kExitNoFeasibleDesign = 5;

std::string describe(const design::Evaluation& e) {
  std::string out;
  for (const auto& [path, value] : e.values) out += (out.empty() ? "" : ", ") + path + "=" + value.dump();
  return out;
}

}  // namespace

Command add_design_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    std::string design;
    std::string output_dir;
    std::size_t jobs = 0;
    bool quiet = false;
    bool no_sensitivity = false;
    bool dry_run = false;
    std::optional<std::string> max_memory;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "design",
      "search a space of designs for the one that best meets objectives under constraints (grid, random, "
      "bayesian or successive halving); evaluations.csv, pareto.csv, the best design as a scenario and its "
      "sensitivity; exit 5 when no candidate met the constraints");
  cmd->add_option("design", args->design, "design file (JSON; docs/design-search.md)")->required();
  cmd->add_option("-o,--output", args->output_dir,
                  "folder for the results and the evaluation cache; a search run again into the same folder reuses "
                  "the evaluations already done");
  cmd->add_option("-j,--jobs", args->jobs,
                  "candidates evaluated at once (default: the core count; per rank under mpirun)");
  cmd->add_flag("-q,--quiet", args->quiet, "no progress line");
  cmd->add_flag("--dry-run", args->dry_run,
                "check the design (its paths, keys, strategy and that its candidates load) and say what the search "
                "would do, without running or writing anything");
  cmd->add_flag("--no-sensitivity", args->no_sensitivity,
                "skip sensitivity.csv (one evaluation per neighbour of the best)");
  cmd->add_option("--max-memory", args->max_memory,
                  "memory the candidates evaluated at once on this machine may use together, e.g. \"16 GB\" (default: "
                  "3/4 of this machine's memory)");
  return {cmd, [args, &context] {
            sweep::MpiWorld world;
            const run::InterruptHandlers interrupts;
            const std::size_t jobs =
                args->jobs > 0
                    ? args->jobs
                    : std::max<std::size_t>(1, sweep::core_count() / static_cast<std::size_t>(world.local_size()));
            const design::Design d = design::load_design(args->design);
            design::StrategyRegistry strategies{"search strategy"};
            design::register_builtin_strategies(strategies);
            const std::uint64_t seed = design::design_seed(d, context.registries);
            // An unknown strategy or parameter is refused here, before anything is written.
            const auto planned = design::make_strategy(d, strategies, seed)->planned_evaluations();
            if (!args->dry_run && args->output_dir.empty()) {
              throw sim::InputError("design: -o DIR is required (where evaluations.csv and the best design go)");
            }
            auto limits = resource_limits(args->max_memory);
            limits.max_memory_bytes /= static_cast<double>(jobs * static_cast<std::size_t>(world.local_size()));
            const std::filesystem::path dir(args->output_dir);
            const design::DesignEvaluator evaluator(d, context.registries, limits, seed,
                                                    args->dry_run ? std::filesystem::path() : dir / "evaluations");
            evaluator.check(design::probe_points(design::search_space(d), kProbePoints));
            if (args->dry_run) {
              if (world.rank() == 0) {
                std::cout << fmt::format(
                    "design {}: {} variables, {} couplings, {} constraints, {} objectives; "
                    "strategy {}, {} evaluations planned{}; fidelities:",
                    d.name, d.variables.size(), d.couplings.size(), d.constraints.size(), d.objectives.size(),
                    d.strategy, planned, planned == 0 ? " (decided as it goes)" : "");
                for (const auto& f : d.fidelities) std::cout << " " << f.name;
                std::cout << "\n";
              }
              return 0;
            }

            std::filesystem::create_directories(dir / "evaluations");
            if (world.rank() == 0) {
              const auto copy = dir / "design.json";
              std::error_code same;
              if (!std::filesystem::equivalent(args->design, copy, same)) {
                std::filesystem::copy_file(args->design, copy, std::filesystem::copy_options::overwrite_existing);
              }
            }
            design::SearchOptions options;
            options.cache_dir = dir / "evaluations";
            options.jobs = jobs;
            options.rank = world.rank();
            options.ranks = world.size();
            options.barrier = [&world] { world.barrier(); };
            sweep::SweepProgress progress(std::cerr, d.name, 0, !args->quiet && world.rank() == 0,
                                          run::stderr_is_terminal());
            progress.set_kind("design");
            design::SearchResult result;
            std::vector<design::Evaluation> around;
            try {
              result = design::run_search(d, strategies, evaluator, options, &progress);
              // Sensitivity around the best: one evaluation per neighbour, at the best's fidelity.
              if (world.rank() == 0 && result.best && !args->no_sensitivity) {
                const auto& best = result.evaluations[*result.best];
                const auto moves = design::neighbours(design::search_space(d), best.candidate.point);
                around.resize(moves.size());
                sweep::parallel_for(moves.size(), jobs, [&](std::size_t k) {
                  run::throw_if_interrupted();
                  around[k] = evaluator.evaluate({moves[k].second, best.candidate.fidelity});
                });
              }
            } catch (const run::Interrupted& e) {
              progress.finish();
              if (world.size() > 1) std::cerr << "dcsim: " << e.what() << "\n";
              world.abort(e.exit_code());
              throw;
            }
            progress.finish();
            if (world.rank() != 0) return 0;
            design::write_design_outputs(d, result, around, context.registries, dir);
            std::size_t counts[4] = {0, 0, 0, 0};
            for (const auto& e : result.evaluations) ++counts[static_cast<int>(e.status)];
            std::cout << fmt::format(
                "design {}: {} evaluations ({} feasible, {} infeasible, {} pruned before running, "
                "{} failed); {}\n",
                d.name, result.evaluations.size(), counts[0], counts[1], counts[2], counts[3],
                (dir / design::kEvaluationsCsv).string());
            if (result.pareto.empty()) {
              // The nearest miss says which constraint binds and by how much.
              const design::Evaluation* nearest = nullptr;
              for (const auto& e : result.evaluations) {
                if (e.status == design::EvaluationStatus::kFailed) continue;
                if (nearest == nullptr || e.violation < nearest->violation) nearest = &e;
              }
              std::cout << "  no candidate met the constraints; evaluations.csv says which each missed\n";
              if (nearest != nullptr) {
                std::cout << fmt::format("  nearest: {}: {}\n", describe(*nearest), nearest->reason);
              } else if (!result.evaluations.empty()) {
                std::cout << fmt::format("  every candidate failed; the first: {}\n",
                                         result.evaluations.front().reason);
              }
              return kExitNoFeasibleDesign;
            }
            if (result.best) {
              const auto& best = result.evaluations[*result.best];
              std::cout << fmt::format("  best: {} = {:.6g} with {}\n  as a scenario: {}\n", d.objectives[0].key,
                                       best.objectives[0], describe(best), (dir / design::kBestScenario).string());
            } else {
              std::cout << fmt::format("  Pareto front: {} designs; {}\n", result.pareto.size(),
                                       (dir / design::kParetoCsv).string());
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
