#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/check/check_verdict.hpp"
#include "tools/check/expectations.hpp"
#include "tools/check/junit_report.hpp"
#include "tools/check/planned_summary.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/output_paths.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/run_scenario.hpp"

namespace dcsim::tools::cli {

namespace {

// Distinct from 2 (bad input) and 1 (a bug): the runs ran and a check did not hold.
constexpr int kExitChecksFailed = 3;

}  // namespace

Command add_check_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    std::string expectations;
    std::string output_dir = "out/check";
    std::string junit;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "check", "run the scenarios an expectations file names and check their summaries (a CI gate); exit 3 when a "
               "check fails");
  cmd->add_option("expectations", args->expectations, "expectations JSON (docs/cli.md, CI gates)")->required();
  cmd->add_option("-o,--output", args->output_dir, "where each run writes its trace.h5 and summary.json, one folder "
                                                   "per run (default out/check)");
  cmd->add_option("--junit", args->junit, "also write JUnit XML here (one testcase per check)");
  return {cmd, [args, &context] {
            const run::InterruptHandlers interrupts;
            const check::Expectations e = check::load_expectations(args->expectations);
            // Written after the runs: its folder must be there, or be made by the runs (-o or above).
            if (!args->junit.empty()) {
              std::error_code ec;
              const auto folder = folder_of(args->junit);
              if (std::filesystem::is_directory(args->junit, ec)) {
                throw sim::InputError("--junit '" + args->junit + "' is a folder; expected a file path such as '" +
                                      (std::filesystem::path(args->junit) / "junit.xml").string() + "'");
              }
              if (!std::filesystem::is_directory(folder, ec) && !contains_folder(folder, args->output_dir)) {
                throw sim::InputError("--junit '" + args->junit + "': folder '" + folder.string() +
                                      "' does not exist (only the -o folder and those above it are created)");
              }
            }
            // Every scenario loads and builds, and every check's path is one its run will report,
            // before anything runs: bad input is found in seconds, not after the first runs, and
            // a mistyped path is exit 2, not a failed check.
            std::vector<scenario::Scenario> scenarios;
            std::vector<std::string> errors;
            const auto collect = [&errors](const sim::InputError& x) {
              if (const auto* many = dynamic_cast<const sim::InputErrors*>(&x)) {
                errors.insert(errors.end(), many->messages().begin(), many->messages().end());
              } else {
                errors.emplace_back(x.what());
              }
            };
            for (const auto& run : e.runs) {
              try {
                scenarios.push_back(scenario::load_scenario_file(run.scenario, run.sets, std::nullopt,
                                                                 context.registries));
                const check::PlannedSummary planned(scenarios.back(), context.registries);
                for (const auto& c : run.checks) {
                  if (!c.path.empty() && !planned.may_report(c.path)) {
                    errors.push_back(args->expectations + ":" + c.pointer + "/path: " + planned.why_not(c.path));
                  } else if (!c.baseline_problem.empty()) {
                    errors.push_back(args->expectations + ":" + c.pointer + "/baseline: " + c.baseline_problem);
                  }
                }
              } catch (const sim::InputError& x) {
                collect(x);
              }
            }
            // A check every run shares is checked per run: each message once.
            std::vector<std::string> unique;
            for (auto& m : errors) {
              if (std::find(unique.begin(), unique.end(), m) == unique.end()) unique.push_back(std::move(m));
            }
            if (!unique.empty()) throw sim::InputErrors(std::move(unique));
            std::vector<check::Verdict> verdicts;
            std::vector<check::RunTime> times;
            for (std::size_t i = 0; i < e.runs.size(); ++i) {
              const auto dir = std::filesystem::path(args->output_dir) / e.runs[i].name;
              const auto outputs = run::run_to_directory(scenarios[i], context.registries, dir);
              times.push_back({e.runs[i].name, std::filesystem::path(e.runs[i].scenario).lexically_normal().string(),
                               outputs.stats.wall_s + outputs.stats.write_s});
              for (auto& v : check::judge(e.runs[i], outputs.summary)) verdicts.push_back(std::move(v));
            }
            std::size_t failed = 0;
            for (const auto& v : verdicts) failed += v.passed ? 0 : 1;
            std::cout << fmt::format("{}: {} run{}, {} check{}, {} failed\n", e.name, e.runs.size(),
                                     e.runs.size() == 1 ? "" : "s", verdicts.size(), verdicts.size() == 1 ? "" : "s",
                                     failed);
            for (const auto& v : verdicts) {
              std::cout << fmt::format("  {:<4} {:<16} {:<44} got {:<14} expected {:<22} {}\n",
                                       v.passed ? "pass" : "FAIL", v.run, v.check, v.value, v.limit, v.detail);
            }
            if (!args->junit.empty()) {
              std::ofstream out(args->junit, std::ios::binary | std::ios::trunc);
              if (!out) throw sim::InputError(args->junit + ": cannot write the JUnit report");
              check::write_junit(out, e.name, times, verdicts);
              out.close();
              if (!out) throw sim::InputError(args->junit + ": cannot write the JUnit report");
            }
            return failed == 0 ? 0 : kExitChecksFailed;
          }};
}

}  // namespace dcsim::tools::cli
