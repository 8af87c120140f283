#pragma once
// The scenario arguments every scenario-reading command shares: FILE, --set, --seed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/model_registries.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace CLI {
class App;
}

namespace dcsim::tools::cli {

struct ScenarioArgs {
  std::string file;
  std::vector<std::string> overrides;
  std::optional<std::uint64_t> seed;

  // Declares `scenario`, `--set` and `--seed` on `cmd`.
  void add_to(CLI::App& cmd);
  scenario::Scenario load(const models::ModelRegistries& registries) const;
};

}  // namespace dcsim::tools::cli
