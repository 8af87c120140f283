#include "tools/cli/list_command.hpp"

#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::cli {

std::string list_registries(const models::ModelRegistries& registries, const std::string& kind, bool json) {
  nlohmann::json all = nlohmann::json::array();
  std::string kinds;
  const auto add = [&](const auto& registry) {
    kinds += (kinds.empty() ? "" : ", ") + registry.kind();
    if (!kind.empty() && kind != registry.kind()) return;
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& e : registry.entries()) {
      nlohmann::json params = nlohmann::json::array();
      for (const auto& p : e.params) {
        params.push_back({{"name", p.name}, {"unit", p.unit}, {"default", p.default_value},
                          {"valid_range", p.valid_range}, {"help", p.help}});
      }
      entries.push_back({{"name", e.name}, {"description", e.description}, {"params", params}});
    }
    all.push_back({{"kind", registry.kind()}, {"entries", entries}});
  };
  models::for_each_registry(registries, add);
  // `dcsim design`'s strategies: a tools-level registry, not a model (ModelRegistries holds models).
  design::StrategyRegistry strategies{"search strategy"};
  design::register_builtin_strategies(strategies);
  add(strategies);
  if (all.empty()) throw sim::InputError("unknown kind '" + kind + "'; valid: " + kinds);
  if (json) return all.dump(2) + "\n";

  std::string out;
  for (const auto& group : all) {
    out += fmt::format("{}:\n", group["kind"].get<std::string>());
    for (const auto& e : group["entries"]) {
      out += fmt::format("  {:<18} {}\n", e["name"].get<std::string>(), e["description"].get<std::string>());
      for (const auto& p : e["params"]) {
        out += fmt::format("      {:<16} {} (default {}{}{}) {}\n", p["name"].get<std::string>(),
                           p["unit"].get<std::string>().empty() ? "-" : p["unit"].get<std::string>(),
                           p["default"].get<std::string>(),
                           p["valid_range"].get<std::string>().empty() ? "" : "; ",
                           p["valid_range"].get<std::string>(), p["help"].get<std::string>());
      }
    }
  }
  return out;
}

Command add_list_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    std::string kind;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("list", "list registered models and policies with their parameters");
  cmd->add_option("kind", args->kind, "only this kind (e.g. scheduler, topology, \"node preset\")");
  cmd->add_flag("--json", args->json, "machine-readable output");
  return {cmd, [args, &context] {
            std::cout << list_registries(context.registries, args->kind, args->json);
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
