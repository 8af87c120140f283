#pragma once
// The ask/tell loop run serially to the end, for tests, benchmarks and callers with a cheap
// evaluation. (The design runner drives strategies itself, evaluating each batch in parallel.)

#include <cstddef>
#include <functional>
#include <vector>

#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::design {

struct Trial {
  Candidate candidate;
  Outcome outcome;
};

// Every candidate the strategy proposed, with its outcome, in proposal order. Stops when the
// strategy returns an empty batch or after `max_batches` (InternalError: a strategy that never
// ends is a bug).
std::vector<Trial> run_trials(SearchStrategy& strategy, const std::function<Outcome(const Candidate&)>& evaluate,
                              std::size_t max_batches = 1'000'000);

}  // namespace dcsim::tools::design
