// `dcsim calibrate MEASUREMENT... -o PROFILE.json [--stack NAME] [--fit a,b] [--node PRESET]`
// (issue 40, item 2): fits a software stack's efficiencies (models/workload/software_stack.hpp) to
// a site's own measurements -- nccl-tests output, training runs with their logs or published step
// times (tools/calibrate/measurement.hpp) -- and writes a profile a scenario names as
// `"software": {"profile": "PROFILE.json"}`. Prints each measurement's error before and after, and
// held out (fitted to the others); refuses a fit the measurements cannot determine, naming the
// parameter.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/calibrate/calibration_report.hpp"
#include "tools/calibrate/measurement.hpp"
#include "tools/calibrate/stack_fit.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/output_paths.hpp"
#include "tools/scenario/software_spec.hpp"

namespace dcsim::tools::cli {

namespace {

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

// Before the fit: an -o that cannot be written fails at once, with nothing written.
void check_writable(const std::filesystem::path& output) {
  std::error_code ec;
  if (std::filesystem::is_directory(output, ec)) throw sim::InputError("-o " + output.string() + ": is a directory");
  const auto folder = folder_of(output);
  if (!std::filesystem::is_directory(folder, ec)) {
    throw sim::InputError("-o " + output.string() + ": no such folder '" + folder.string() + "'");
  }
}

void write_atomically(const std::filesystem::path& output, const std::string& text) {
  const std::filesystem::path temporary = folder_of(output) / ("." + output.filename().string() + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out) {
      std::filesystem::remove(temporary);
      throw sim::InputError("-o " + output.string() + ": cannot write");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, output, ec);
  if (ec) {
    std::filesystem::remove(temporary);
    throw sim::InputError("-o " + output.string() + ": cannot write: " + ec.message());
  }
}

}  // namespace

Command add_calibrate_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    std::vector<std::string> measurements;
    std::string output;
    std::string stack = models::workload::kDefaultSoftwareStack;
    std::string fit;
    std::string node = "hgx-h100";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "calibrate",
      "fit a software stack's efficiencies to measurements (nccl-tests output, training runs) and write a profile "
      "a scenario names as \"software\": {\"profile\": FILE}");
  cmd->add_option("measurements", args->measurements,
                  "nccl-tests output files, and training runs ({\"training_run\": {\"node\", \"job\", \"log\" or "
                  "\"step_time\"}}, JSON)")
      ->required();
  cmd->add_option("-o,--output", args->output, "the profile to write (JSON)")->required();
  cmd->add_option("--stack", args->stack,
                  "the software stack to start from: a preset (dcsim list \"software stack\") or a profile "
                  "calibrate wrote")
      ->capture_default_str();
  cmd->add_option("--fit", args->fit,
                  "comma-separated parameters to fit (default: every one that moves a prediction); the rest keep "
                  "the stack's values. \"none\": fit nothing, report the stack's errors on the measurements "
                  "(runs held back)");
  cmd->add_option("--node", args->node, "node preset the nccl-tests ran on")->capture_default_str();
  return {cmd, [args, &context] {
            const auto& stacks = context.registries.software_stacks;
            models::workload::SoftwareStack base;
            if (stacks.contains(args->stack)) {
              base = stacks.get(args->stack).factory({});
            } else if (std::filesystem::is_regular_file(args->stack)) {
              const std::string path = std::filesystem::absolute(args->stack).string();
              const nlohmann::json doc = {{"software", {{"profile", path}}}};
              base = scenario::map_software_section(doc, doc, "--stack", context.registries);
            } else {
              throw sim::InputError("--stack: unknown software stack '" + args->stack +
                                    "' (and no such profile file); valid: " + stacks.names_joined());
            }
            const std::filesystem::path output(args->output);
            check_writable(output);
            std::vector<calibrate::Measurement> measurements;
            for (const auto& path : args->measurements) {
              measurements.push_back(calibrate::read_measurement(path, args->node, context.registries));
            }
            calibrate::FitOptions options;
            options.evaluate_only = args->fit == "none";
            if (!options.evaluate_only) options.fit = split_names(args->fit);
            const auto fit = calibrate::fit_stack(base, measurements, options);
            // The profile names the registered preset and writes every parameter that differs from it.
            const auto preset = stacks.get(base.name).factory({});
            write_atomically(output, calibrate::profile_json(base.name, preset, fit).dump(2) + "\n");
            calibrate::print_calibration(std::cout, args->stack, fit);
            std::cout << "\nwrote " << output.string() << "; name it in a scenario as \"software\": {\"profile\": \""
                      << output.filename().string() << "\"}\n";
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
