#include "tools/design/search_loop.hpp"

#include "sim/error.hpp"

namespace dcsim::tools::design {

std::vector<Trial> run_trials(SearchStrategy& strategy, const std::function<Outcome(const Candidate&)>& evaluate,
                              std::size_t max_batches) {
  std::vector<Trial> out;
  for (std::size_t b = 0; b < max_batches; ++b) {
    const std::vector<Candidate> batch = strategy.next();
    if (batch.empty()) return out;
    std::vector<Outcome> outcomes;
    for (const auto& c : batch) {
      outcomes.push_back(evaluate(c));
      out.push_back({c, outcomes.back()});
    }
    strategy.observe(batch, outcomes);
  }
  throw sim::InternalError("search strategy still proposing after " + std::to_string(max_batches) +
                           " batches (this is a bug)");
}

}  // namespace dcsim::tools::design
