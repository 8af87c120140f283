#pragma once
// The scenario arguments every scenario-reading command shares: FILE, --set, --seed,
// --max-memory, --max-time.

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
  // As typed: it replaces /seed as a --set would, so the scenario's own check applies (an
  // integer from 0 to 2^64 - 1; "-1" or "abc" are refused with the /seed pointer, not wrapped).
  std::optional<std::string> seed;
  // "16 GB": refuse runs estimated above it (default: 3/4 of this machine's memory).
  std::optional<std::string> max_memory;
  // "3 h": refuse runs whose wall time is estimated above it (default: 1 hour).
  std::optional<std::string> max_time;

  // Declares `scenario`, `--set` and `--seed` on `cmd`.
  void add_to(CLI::App& cmd);
  scenario::Scenario load(const models::ModelRegistries& registries) const;
};

// This machine's limits, with the memory limit from `max_memory` ("8 GB") and the wall-time limit
// from `max_time` ("3 h") when given. InputError "--max-memory: ..." or "--max-time: ..." for a
// value that does not parse or is not positive.
scenario::ResourceLimits resource_limits(const std::optional<std::string>& max_memory,
                                         const std::optional<std::string>& max_time = std::nullopt);

}  // namespace dcsim::tools::cli
