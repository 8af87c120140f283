#include "tools/cli/scenario_args.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "sim/error.hpp"
#include "sim/time.hpp"
#include "sim/units.hpp"

namespace dcsim::tools::cli {

void ScenarioArgs::add_to(CLI::App& cmd) {
  cmd.add_option("scenario", file, "scenario file (JSON)")->required();
  cmd.add_option("--set", overrides,
                 "override a key, e.g. --set cluster.nodes=16 (repeatable; VALUE is JSON or a string)");
  cmd.add_option("--seed", seed, "override the scenario's seed (an integer from 0 to 2^64 - 1)");
  cmd.add_option("--max-memory", max_memory,
                 "refuse a run whose memory estimate is above SIZE, e.g. \"8 GB\" (default: 3/4 of this "
                 "machine's memory)");
  cmd.add_option("--max-time", max_time,
                 "refuse a run whose wall-time estimate is above DURATION, e.g. \"3 h\" (default: 1 h; a run "
                 "expected to take longer must be asked for)");
}

scenario::ResourceLimits resource_limits(const std::optional<std::string>& max_memory,
                                         const std::optional<std::string>& max_time) {
  auto limits = scenario::ResourceLimits::for_this_machine();
  if (max_memory) {
    try {
      limits.max_memory_bytes = sim::parse_data_size_bytes(*max_memory);
    } catch (const sim::ParseError& e) {
      throw sim::InputError("--max-memory: " + std::string(e.what()));
    }
    if (!(limits.max_memory_bytes > 0)) {
      throw sim::InputError("--max-memory: expected a positive size such as \"8 GB\", got \"" + *max_memory + "\"");
    }
  }
  if (max_time) {
    try {
      limits.max_wall_s = sim::parse_duration(*max_time).seconds();
    } catch (const sim::ParseError& e) {
      throw sim::InputError("--max-time: " + std::string(e.what()));
    }
    if (!(limits.max_wall_s > 0)) {
      throw sim::InputError("--max-time: expected a positive duration such as \"3 h\", got \"" + *max_time + "\"");
    }
  }
  return limits;
}

scenario::Scenario ScenarioArgs::load(const models::ModelRegistries& registries) const {
  std::vector<std::string> all = overrides;
  if (seed) all.push_back("seed=" + *seed);
  const auto limits = resource_limits(max_memory, max_time);
  auto loaded = scenario::load_scenario_file(file, all, std::nullopt, registries, limits);
  // What the loader changed on its own (old keys in today's format): on stderr, so --json output stays clean.
  for (const auto& notice : loaded.notices) std::cerr << "dcsim: note: " << notice << "\n";
  return loaded;
}

}  // namespace dcsim::tools::cli
