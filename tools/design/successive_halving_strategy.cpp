// `successive_halving`: multi-fidelity search (Jamieson & Talwalkar 2016; Hyperband's inner loop,
// Li et al. 2018). Rung 0 evaluates `initial` distinct random points (the whole grid when it is
// smaller) at fidelity 0, the cheapest (the analytic step model); each later rung evaluates the
// best floor(n / eta) of the previous rung's n (at least one) at the next fidelity, up to
// fidelity_levels - 1 (flow mode and failures, then full-length runs). "Best" is the objective
// with one objective, non-dominated rank then crowding distance with several (pareto.hpp), ties
// by proposal order; infeasible candidates are never promoted. The search ends after the last
// rung, or at a rung with no feasible candidate.
#include <algorithm>
#include <memory>
#include <set>
#include <string>

#include "sim/random.hpp"
#include "tools/design/builtin_strategies.hpp"
#include "tools/design/pareto.hpp"
#include "tools/design/search_space_ops.hpp"

namespace dcsim::tools::design {

namespace {

class SuccessiveHalvingStrategy final : public SearchStrategy {
 public:
  SuccessiveHalvingStrategy(const StrategyContext& context, const sim::Params& params)
      : context_(context), batch_(count_param(params, "batch")), eta_(count_param(params, "eta")) {
    sim::RandomStream rng(context.seed, "design/successive_halving", "rung 0");
    std::set<std::string> seen;
    rung_ = sample_distinct(context.space, rng, count_param(params, "initial"), seen);
    initial_ = rung_.size();
  }

  // O(batch) per call; a promotion sorts the rung (pareto.hpp: O(M n^2)).
  std::vector<Candidate> next() override {
    if (proposed_ == rung_.size() && !promote()) return {};
    std::vector<Candidate> out;
    for (; proposed_ < rung_.size() && out.size() < batch_; ++proposed_) out.push_back({rung_[proposed_], level_});
    return out;
  }

  void observe(const std::vector<Candidate>&, const std::vector<Outcome>& outcomes) override {
    outcomes_.insert(outcomes_.end(), outcomes.begin(), outcomes.end());
  }

  // Every rung full: n, floor(n / eta), ... (at least one each) up to the last fidelity; fewer
  // when a rung has fewer feasible candidates than it keeps.
  std::size_t planned_evaluations() const override {
    std::size_t total = 0;
    for (std::size_t n = initial_, level = 0; level < static_cast<std::size_t>(context_.fidelity_levels); ++level) {
      total += n;
      n = std::max<std::size_t>(1, n / eta_);
    }
    return total;
  }

 private:
  // Moves to the next rung; false when the search is over.
  bool promote() {
    if (level_ + 1 >= context_.fidelity_levels || outcomes_.size() != rung_.size()) return false;
    const auto order = order_by_rank_and_crowding(outcomes_);  // feasible only
    const std::size_t keep = std::min(order.size(), std::max<std::size_t>(1, rung_.size() / eta_));
    if (keep == 0) return false;
    std::vector<SearchPoint> next;
    for (std::size_t i = 0; i < keep; ++i) next.push_back(rung_[order[i]]);
    rung_ = std::move(next);
    outcomes_.clear();
    proposed_ = 0;
    ++level_;
    return true;
  }

  StrategyContext context_;
  std::size_t batch_;
  std::size_t eta_;
  std::vector<SearchPoint> rung_;
  std::vector<Outcome> outcomes_;  // of rung_, in its order
  std::size_t proposed_ = 0;
  std::size_t initial_ = 0;  // rung 0's size
  int level_ = 0;
};

}  // namespace

void register_successive_halving_strategy(StrategyRegistry& registry) {
  registry.add({"successive_halving",
                "multi-fidelity: initial random points at fidelity 0, the best 1/eta promoted to each next "
                "fidelity up to the full evaluation",
                {batch_param("64"),
                 {"eta", "integer", "3", "x >= 2", "keep the best 1/eta of each rung for the next fidelity"},
                 initial_param("81", "candidates at fidelity 0 (the whole grid when it has fewer points)")},
                [](const StrategyContext& c, const sim::Params& p) -> std::unique_ptr<SearchStrategy> {
                  return std::make_unique<SuccessiveHalvingStrategy>(c, p);
                }});
}

}  // namespace dcsim::tools::design
