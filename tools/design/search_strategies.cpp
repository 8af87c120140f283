// The registry of search strategies (search_strategy.hpp) and the parameters they share.
#include <algorithm>

#include "sim/error.hpp"
#include "tools/design/builtin_strategies.hpp"

namespace dcsim::tools::design {

sim::ParamSpec batch_param(const std::string& default_value) {
  return {"batch", "integer", default_value, "x >= 1",
          "candidates per batch; the runner evaluates a batch in parallel (results do not depend on --jobs)"};
}

sim::ParamSpec initial_param(const std::string& default_value, const std::string& help) {
  return {"initial", "integer", default_value, "x >= 1", help};
}

std::size_t count_param(const sim::Params& params, const std::string& name) {
  const auto v = params.integer(name);
  if (v < 1) throw sim::InternalError("strategy parameter '" + name + "' below 1 passed validation (this is a bug)");
  return static_cast<std::size_t>(v);
}

void register_builtin_strategies(StrategyRegistry& registry) {
  register_grid_strategy(registry);
  register_random_strategy(registry);
  register_bayesian_strategy(registry);
  register_successive_halving_strategy(registry);
}

}  // namespace dcsim::tools::design
