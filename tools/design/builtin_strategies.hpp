#pragma once
// The built-in strategies' registrations (one file each) and the parameters several of them
// document. A name documented by two strategies must have one unit and one range (the design
// file's params object is their union, tools/scenario/registry_params.hpp); defaults may differ.

#include <cstddef>
#include <string>

#include "sim/params.hpp"
#include "sim/registry.hpp"
#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::design {

void register_grid_strategy(StrategyRegistry& registry);
void register_random_strategy(StrategyRegistry& registry);
void register_bayesian_strategy(StrategyRegistry& registry);
void register_successive_halving_strategy(StrategyRegistry& registry);

// "batch": candidates per next(). A strategy parameter, never the thread count, so that the
// same seed proposes the same candidates at any --jobs.
sim::ParamSpec batch_param(const std::string& default_value);
// "initial": random candidates before the strategy's own rule takes over.
sim::ParamSpec initial_param(const std::string& default_value, const std::string& help);
// A documented integer parameter (validated >= 1 by the scenario layer) as a count.
std::size_t count_param(const sim::Params& params, const std::string& name);

// The fidelity a single-fidelity strategy proposes at: the full evaluation.
inline int full_fidelity(const StrategyContext& context) { return context.fidelity_levels - 1; }

}  // namespace dcsim::tools::design
