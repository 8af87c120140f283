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
#include "tools/cli/command.hpp"
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
  cmd->add_option("expectations", args->expectations, "expectations JSON (README, CI gates)")->required();
  cmd->add_option("-o,--output", args->output_dir, "where each run writes its trace.h5 and summary.json, one folder "
                                                   "per run (default out/check)");
  cmd->add_option("--junit", args->junit, "also write JUnit XML here (one testcase per check)");
  return {cmd, [args, &context] {
            const run::InterruptHandlers interrupts;
            const check::Expectations e = check::load_expectations(args->expectations);
            // Every scenario loads before anything runs: bad input is found in seconds, not after
            // the first runs.
            std::vector<scenario::Scenario> scenarios;
            std::vector<std::string> errors;
            for (const auto& run : e.runs) {
              try {
                scenarios.push_back(scenario::load_scenario_file(run.scenario, run.sets, std::nullopt,
                                                                 context.registries));
              } catch (const sim::InputErrors& x) {
                errors.insert(errors.end(), x.messages().begin(), x.messages().end());
              } catch (const sim::InputError& x) {
                errors.emplace_back(x.what());
              }
            }
            if (!errors.empty()) throw sim::InputErrors(std::move(errors));
            std::vector<check::Verdict> verdicts;
            for (std::size_t i = 0; i < e.runs.size(); ++i) {
              const auto dir = std::filesystem::path(args->output_dir) / e.runs[i].name;
              const auto outputs = run::run_to_directory(scenarios[i], context.registries, dir);
              for (auto& v : check::judge(e.runs[i], outputs.summary)) verdicts.push_back(std::move(v));
            }
            std::size_t failed = 0;
            for (const auto& v : verdicts) failed += v.passed ? 0 : 1;
            std::cout << fmt::format("{}: {} runs, {} checks, {} failed\n", e.name, e.runs.size(), verdicts.size(),
                                     failed);
            for (const auto& v : verdicts) {
              std::cout << fmt::format("  {:<4} {:<16} {:<44} got {:<14} expected {:<22} {}\n",
                                       v.passed ? "pass" : "FAIL", v.run, v.check, v.value, v.limit, v.detail);
            }
            if (!args->junit.empty()) {
              std::ofstream out(args->junit, std::ios::binary | std::ios::trunc);
              if (!out) throw sim::InputError(args->junit + ": cannot write the JUnit report");
              check::write_junit(out, e.name, verdicts);
              out.close();
              if (!out) throw sim::InputError(args->junit + ": cannot write the JUnit report");
            }
            return failed == 0 ? 0 : kExitChecksFailed;
          }};
}

}  // namespace dcsim::tools::cli
