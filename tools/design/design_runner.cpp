#include "tools/design/design_runner.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/design/pareto.hpp"
#include "tools/design/search_space_ops.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/sweep/parallel_for.hpp"

namespace dcsim::tools::design {

namespace {

using nlohmann::json;
using Kind = SearchVariable::Kind;

}  // namespace

std::vector<SearchPoint> probe_points(const SearchSpace& space, std::size_t count) {
  // A continuous variable without grid_points has no grid: probe its ends and middle.
  SearchSpace gridded = space;
  for (auto& v : gridded.variables) {
    if (v.kind == Kind::kContinuous && v.grid_points == 0) v.grid_points = 3;
  }
  const auto n = static_cast<double>(grid_size(gridded));
  std::vector<SearchPoint> out;
  const std::size_t k = static_cast<std::size_t>(std::min(n, static_cast<double>(std::max<std::size_t>(count, 1))));
  for (std::size_t i = 0; i < k; ++i) {
    const double at = k == 1 ? 0.0 : std::floor(static_cast<double>(i) * (n - 1) / static_cast<double>(k - 1));
    out.push_back(grid_point_at(gridded, static_cast<std::size_t>(at)));
  }
  return out;
}

sim::Params strategy_params(const Design& design, const StrategyRegistry::Entry& entry) {
  sim::Params params;
  std::vector<std::string> errors;
  for (const auto& [key, value] : design.strategy_params.items()) {
    const std::string ptr = design.source + ":/strategy/params/" + key;
    const auto spec =
        std::find_if(entry.params.begin(), entry.params.end(), [&](const auto& p) { return p.name == key; });
    if (spec == entry.params.end()) {
      std::string valid;
      for (const auto& p : entry.params) valid += (valid.empty() ? "" : ", ") + p.name;
      errors.push_back(fmt::format("{}: not a parameter of strategy '{}' (valid: {})", ptr, entry.name,
                                   valid.empty() ? "none" : valid));
      continue;
    }
    const bool integer = spec->unit == "integer", boolean = spec->unit == "boolean";
    if (boolean ? !value.is_boolean() : !value.is_number() || (integer && !value.is_number_integer())) {
      errors.push_back(fmt::format("{}: expected {}, got {}", ptr,
                                   boolean   ? "true or false"
                                   : integer ? "an integer"
                                             : "a number",
                                   value.dump()));
      continue;
    }
    const double x = boolean ? (value.get<bool>() ? 1.0 : 0.0) : value.get<double>();
    if (!spec->valid_range.empty() && !scenario::parse_param_range(spec->valid_range).contains(x)) {
      errors.push_back(fmt::format("{}: expected {}, got {}", ptr, spec->valid_range, value.dump()));
      continue;
    }
    params.set_number(key, x);
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  params.fill_defaults(entry.params);
  return params;
}

StrategyContext strategy_context(const Design& design, std::uint64_t seed) {
  StrategyContext context;
  context.space = search_space(design);
  context.seed = seed;
  context.fidelity_levels = static_cast<int>(design.fidelities.size());
  context.objectives = design.objectives.size();
  return context;
}

std::unique_ptr<SearchStrategy> make_strategy(const Design& design, const StrategyRegistry& strategies,
                                              std::uint64_t seed) {
  const auto& entry = strategies.get(design.strategy);
  return entry.factory(strategy_context(design, seed), strategy_params(design, entry));
}

SearchResult run_search(const Design& design, const StrategyRegistry& strategies, const DesignEvaluator& evaluator,
                        const SearchOptions& options, sweep::SweepProgress* progress) {
  const StrategyContext context = strategy_context(design, evaluator.seed());
  const auto strategy = make_strategy(design, strategies, evaluator.seed());

  if (progress != nullptr) progress->set_total(strategy->planned_evaluations());
  SearchResult result;
  for (std::vector<Candidate> batch = strategy->next(); !batch.empty(); batch = strategy->next()) {
    for (const auto& c : batch) {
      if (c.fidelity < 0 || c.fidelity >= context.fidelity_levels || c.point.size() != context.space.variables.size()) {
        throw sim::InternalError("design: strategy '" + design.strategy +
                                 "' proposed an invalid candidate (this is a bug)");
      }
    }
    std::vector<Evaluation> done(batch.size());
    // This rank's share of the batch on its threads; the other ranks' shares come back through
    // the cache after the barrier.
    const auto r = static_cast<std::size_t>(options.rank), n = static_cast<std::size_t>(options.ranks);
    const std::size_t share = batch.size() > r ? (batch.size() - r + n - 1) / n : 0;
    std::mutex mutex;
    sweep::parallel_for(share, options.jobs, [&](std::size_t k) {
      run::throw_if_interrupted();
      const std::size_t i = r + k * n;
      done[i] = evaluator.evaluate(batch[i]);
      if (progress != nullptr) {
        const std::lock_guard lock(mutex);
        progress->variant_done(done[i].status == EvaluationStatus::kFailed, done[i].reused);
      }
    });
    if (options.ranks > 1) {
      if (options.barrier) options.barrier();
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (i % n != r) done[i] = evaluator.evaluate(batch[i]);  // read back: every rank sees every outcome
      }
    }
    std::vector<Outcome> outcomes;
    for (const auto& e : done) outcomes.push_back(e.outcome(design));
    strategy->observe(batch, outcomes);
    for (auto& e : done) result.evaluations.push_back(std::move(e));
  }

  // The front among the feasible evaluations at the highest fidelity any reached.
  int top = -1;
  for (const auto& e : result.evaluations) {
    if (e.feasible()) top = std::max(top, e.candidate.fidelity);
  }
  std::vector<std::size_t> finalists;
  for (std::size_t i = 0; i < result.evaluations.size(); ++i) {
    const auto& e = result.evaluations[i];
    if (e.feasible() && e.candidate.fidelity == top) finalists.push_back(i);
  }
  std::vector<Outcome> outcomes;
  for (const std::size_t i : finalists) outcomes.push_back(result.evaluations[i].outcome(design));
  for (const std::size_t k : pareto_front(outcomes)) result.pareto.push_back(finalists[k]);
  if (design.objectives.size() == 1 && !result.pareto.empty()) result.best = result.pareto.front();
  return result;
}

}  // namespace dcsim::tools::design
