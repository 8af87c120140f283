// dcsim command line: argument parsing and exit codes only; the work is in tools/.
// Exit codes: 0 success, 2 bad input (usage, scenario, data files), 1 internal error.

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/bench_engine.hpp"
#include "sim/error.hpp"
#include "tools/cli/list_command.hpp"
#include "tools/cli/run_report.hpp"
#include "tools/run/progress_reporter.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/version.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitInput = 2;

struct ScenarioArgs {
  std::string file;
  std::vector<std::string> overrides;
  std::optional<std::uint64_t> seed;
};

void add_scenario_args(CLI::App* cmd, ScenarioArgs& args) {
  cmd->add_option("scenario", args.file, "scenario file (JSON)")->required();
  cmd->add_option("--set", args.overrides,
                  "override a key, e.g. --set cluster.nodes=16 (repeatable; VALUE is JSON or a string)");
  cmd->add_option("--seed", args.seed, "override the scenario's seed");
}

dcsim::tools::scenario::Scenario load(const ScenarioArgs& args,
                                      const dcsim::models::ModelRegistries& registries) {
  return dcsim::tools::scenario::load_scenario_file(args.file, args.overrides, args.seed, registries);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dcsim;
  models::ModelRegistries registries;
  models::register_builtin_models(registries);

  CLI::App app{"dcsim: discrete-event simulator of AI datacenters (compute, fabric, power, cost)"};
  app.set_version_flag("--version", std::string("dcsim ") + std::string(tools::version()));
  app.require_subcommand(1);

  ScenarioArgs run_args;
  std::string output_dir;
  bool quiet = false;
  bool run_json = false;
  auto* run_cmd = app.add_subcommand("run", "run a scenario; writes trace.h5 and summary.json");
  add_scenario_args(run_cmd, run_args);
  run_cmd->add_option("-o,--output", output_dir, "output directory (created if needed)")->required();
  run_cmd->add_flag("-q,--quiet", quiet, "no progress line and no headline results");
  run_cmd->add_flag("--json", run_json, "print summary.json's content on stdout instead of the headline");

  ScenarioArgs validate_args;
  bool validate_json = false;
  auto* validate_cmd = app.add_subcommand("validate", "check a scenario; print every error with its JSON pointer");
  add_scenario_args(validate_cmd, validate_args);
  validate_cmd->add_flag("--json", validate_json, "print the resolved scenario (defaults filled) as JSON");

  std::string list_kind;
  bool list_json = false;
  auto* list_cmd = app.add_subcommand("list", "list registered models and policies with their parameters");
  list_cmd->add_option("kind", list_kind, "only this kind (e.g. scheduler, \"node preset\")");
  list_cmd->add_flag("--json", list_json, "machine-readable output");

  auto* schema_cmd = app.add_subcommand("schema", "print the scenario format's JSON Schema");

  auto* bench_cmd = app.add_subcommand("bench", "benchmarks (wall-clock figures; run on a quiet machine)");
  bench_cmd->require_subcommand(1);
  std::size_t bench_pending = 100'000;
  std::uint64_t bench_events = 10'000'000;
  bool bench_json = false;
  auto* bench_engine_cmd = bench_cmd->add_subcommand(
      "engine", "hold model on the event engine vs a plain std::priority_queue baseline");
  bench_engine_cmd->add_option("--pending", bench_pending, "events pending at all times")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  bench_engine_cmd->add_option("--events", bench_events, "events executed (after warm-up)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{10'000'000'000ULL}));
  bench_engine_cmd->add_flag("--json", bench_json, "print one JSON object");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitInput;
  }

  try {
    if (*run_cmd) {
      const auto scenario = load(run_args, registries);
      std::optional<tools::run::ProgressReporter> reporter;
      tools::run::ProgressFn progress;
      if (!quiet && tools::run::stderr_is_terminal()) {
        reporter.emplace(std::cerr);
        progress = [&](sim::Time now, double fraction, std::uint64_t events) {
          reporter->update(now, fraction, events);
        };
      }
      const auto outputs = tools::run::run_to_directory(scenario, registries, output_dir, progress);
      if (reporter) reporter->done();
      if (run_json) {
        std::cout << outputs.summary.dump(2) << '\n';
      } else if (!quiet) {
        std::cout << tools::cli::headline_report(scenario, outputs);
      }
    } else if (*validate_cmd) {
      const auto scenario = load(validate_args, registries);
      if (validate_json) {
        std::cout << scenario.resolved.dump(2) << '\n';
      } else {
        std::cout << fmt::format("{}: ok ({})\n", validate_args.file, scenario.name);
      }
    } else if (*list_cmd) {
      std::cout << tools::cli::list_registries(registries, list_kind, list_json);
    } else if (*schema_cmd) {
      std::cout << tools::scenario::scenario_schema(registries).dump(2) << '\n';
    } else if (*bench_engine_cmd) {
      const auto r = sim::run_engine_bench(bench_pending, bench_events);
      if (bench_json) {
        std::cout << nlohmann::json{{"pending", r.pending},
                                    {"events", r.events},
                                    {"engine_events_per_s", r.engine_events_per_s},
                                    {"heap_events_per_s", r.heap_events_per_s},
                                    {"ratio", r.ratio}}
                         .dump()
                  << '\n';
      } else {
        std::cout << fmt::format(
            "hold model, {} pending, {} events\n  engine      {:8.2f} M events/s\n"
            "  plain heap  {:8.2f} M events/s\n  ratio       {:8.2f}x\n",
            r.pending, r.events, r.engine_events_per_s / 1e6, r.heap_events_per_s / 1e6, r.ratio);
      }
    }
  } catch (const sim::InputErrors& e) {
    for (const auto& m : e.messages()) std::cerr << "dcsim: error: " << m << '\n';
    return kExitInput;
  } catch (const sim::InputError& e) {
    std::cerr << "dcsim: error: " << e.what() << '\n';
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "dcsim: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
  return kExitOk;
}
