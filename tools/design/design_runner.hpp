#pragma once
// Runs a design search: the strategy proposes batches, the evaluator runs each batch's
// candidates on `jobs` threads (and, under mpirun, every ranks-th candidate of a batch on each
// rank, all ranks reading the batch back from the shared evaluation cache), and the outcomes go
// back to the strategy in the batch's order. Nothing in the order of evaluations depends on the
// thread count or the rank count: the same design and seed give the same evaluations.csv.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/model_registries.hpp"
#include "tools/design/design_evaluator.hpp"
#include "tools/design/design_spec.hpp"
#include "tools/design/search_strategy.hpp"
#include "tools/sweep/sweep_progress.hpp"

namespace dcsim::tools::design {

struct SearchOptions {
  std::filesystem::path cache_dir;  // empty: no cache (nothing written)
  std::size_t jobs = 1;
  int rank = 0;
  int ranks = 1;
  std::function<void()> barrier;  // between ranks after each batch (MPI); none: one process
};

struct SearchResult {
  std::vector<Evaluation> evaluations;  // in the order they were proposed
  // Of the evaluations at the highest fidelity that are feasible: the non-dominated ones (indices
  // into `evaluations`), and with one objective the best (several: none).
  std::vector<std::size_t> pareto;
  std::optional<std::size_t> best;
};

// The strategy's parameters from the design's strategy.params, checked against what the
// registry entry documents: InputErrors at /strategy/params/<key>.
sim::Params strategy_params(const Design& design, const StrategyRegistry::Entry& entry);

// What the strategy sees of the design, and the strategy itself (InputErrors for an unknown
// strategy or a parameter it does not document).
StrategyContext strategy_context(const Design& design, std::uint64_t seed);
std::unique_ptr<SearchStrategy> make_strategy(const Design& design, const StrategyRegistry& strategies,
                                              std::uint64_t seed);

SearchResult run_search(const Design& design, const StrategyRegistry& strategies, const DesignEvaluator& evaluator,
                        const SearchOptions& options, sweep::SweepProgress* progress);

// The grid points `check` tries: the first, the last and up to `count` spread between.
std::vector<SearchPoint> probe_points(const SearchSpace& space, std::size_t count);

}  // namespace dcsim::tools::design
