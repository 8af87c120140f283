#pragma once
// The seam between `dcsim design` (which turns points into scenarios, runs them and checks their
// constraints) and the search strategies (which decide which points to try). A strategy sees only
// the space's shape and each candidate's outcome: it never reads scenarios or summaries.
//
// Ask/tell, as Vizier and Optuna do: the design runner asks `next()` for a batch, evaluates the
// batch (on as many threads or MPI ranks as it has), and hands the outcomes back to `observe()`
// in the batch's order. A batch's size is a strategy parameter, never the thread count, so the
// same seed proposes the same candidates at any --jobs and rank count.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace dcsim::tools::design {

// One dimension of the space.
struct SearchVariable {
  enum class Kind { kChoice, kInteger, kContinuous };
  std::string name;  // for messages (the scenario path, "cluster.nodes")
  Kind kind = Kind::kChoice;
  std::size_t choices = 0;  // kChoice: how many (the values themselves are the caller's)
  // kInteger, kContinuous: the inclusive range. kInteger takes low, low + step, ... <= high.
  double low = 0.0, high = 0.0;
  double step = 1.0;            // kInteger
  bool log_scale = false;       // sampled and modelled in log space (low > 0)
  std::size_t grid_points = 0;  // kContinuous on a grid: evenly spaced points incl. both ends
};

// Per variable: the choice's index (kChoice), the integer's value (kInteger) or the value
// (kContinuous).
using SearchPoint = std::vector<double>;

struct SearchSpace {
  std::vector<SearchVariable> variables;
};

// A point to evaluate at a fidelity level: 0 is the cheapest, levels - 1 the full evaluation.
struct Candidate {
  SearchPoint point;
  int fidelity = 0;
};

struct Outcome {
  // Every objective, each to be minimised (the runner negates those to maximise). Empty when the
  // candidate is infeasible.
  std::vector<double> objectives;
  bool feasible = true;
  // Decided by a cheap bound without a simulation (a power or capex constraint): it costs
  // nothing, so it does not count against an evaluation budget.
  bool pruned = false;
  // How far outside its constraints an infeasible candidate is (sum of relative violations),
  // so a surrogate can steer away from the infeasible region; 0 when feasible.
  double violation = 0.0;
};

struct StrategyContext {
  SearchSpace space;
  std::uint64_t seed = 1;
  int fidelity_levels = 1;
  std::size_t objectives = 1;
};

class SearchStrategy {
 public:
  virtual ~SearchStrategy() = default;
  // The next batch of candidates; empty when the search is over.
  virtual std::vector<Candidate> next() = 0;
  // The outcomes of the batch `next()` returned last, in its order.
  virtual void observe(const std::vector<Candidate>& batch, const std::vector<Outcome>& outcomes) = 0;
  // How many candidates the whole search will propose, for progress and its ETA; 0 when unknown.
  virtual std::size_t planned_evaluations() const { return 0; }
};

using StrategyFactory = std::function<std::unique_ptr<SearchStrategy>(const StrategyContext&, const sim::Params&)>;
using StrategyRegistry = sim::Registry<StrategyFactory>;

// grid, random, bayesian, successive_halving (search_strategies.cpp).
void register_builtin_strategies(StrategyRegistry& registry);

}  // namespace dcsim::tools::design
