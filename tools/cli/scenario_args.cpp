#include "tools/cli/scenario_args.hpp"

#include <CLI/CLI.hpp>

namespace dcsim::tools::cli {

void ScenarioArgs::add_to(CLI::App& cmd) {
  cmd.add_option("scenario", file, "scenario file (JSON)")->required();
  cmd.add_option("--set", overrides,
                 "override a key, e.g. --set cluster.nodes=16 (repeatable; VALUE is JSON or a string)");
  cmd.add_option("--seed", seed, "override the scenario's seed");
}

scenario::Scenario ScenarioArgs::load(const models::ModelRegistries& registries) const {
  return scenario::load_scenario_file(file, overrides, seed, registries);
}

}  // namespace dcsim::tools::cli
