// `random`: `samples` points drawn from the seed's stream (search_space_ops.hpp: sample_distinct),
// never the same point twice; a discrete space smaller than `samples` is proposed whole, in a
// random order. At the full fidelity.
#include <algorithm>
#include <memory>
#include <set>
#include <string>

#include "sim/random.hpp"
#include "tools/design/builtin_strategies.hpp"
#include "tools/design/search_space_ops.hpp"

namespace dcsim::tools::design {

namespace {

class RandomStrategy final : public SearchStrategy {
 public:
  RandomStrategy(const StrategyContext& context, const sim::Params& params)
      : context_(context),
        batch_(count_param(params, "batch")),
        samples_(count_param(params, "samples")),
        rng_(context.seed, "design/random", "points") {}

  // O(batch x variables) draws, plus a set insertion per point.
  std::vector<Candidate> next() override {
    if (proposed_ >= samples_) return {};
    const auto points = sample_distinct(context_.space, rng_, std::min(batch_, samples_ - proposed_), seen_);
    proposed_ = points.empty() ? samples_ : proposed_ + points.size();  // empty: the space is exhausted
    std::vector<Candidate> out;
    for (const auto& p : points) out.push_back({p, full_fidelity(context_)});
    return out;
  }

  std::size_t planned_evaluations() const override {
    // A discrete space smaller than that is exhausted first (grid_size 0: a continuous variable).
    const std::size_t points = grid_size(context_.space);
    return points == 0 ? samples_ : std::min(samples_, points);
  }
  void observe(const std::vector<Candidate>&, const std::vector<Outcome>&) override {}

 private:
  StrategyContext context_;
  std::size_t batch_;
  std::size_t samples_;
  sim::RandomStream rng_;
  std::set<std::string> seen_;
  std::size_t proposed_ = 0;
};

}  // namespace

void register_random_strategy(StrategyRegistry& registry) {
  registry.add({"random",
                "samples points drawn uniformly (log-uniformly where log_scale) from the seed, without repeats",
                {batch_param("64"),
                 {"samples", "integer", "100", "x >= 1", "candidates in all (fewer when the space has fewer points)"}},
                [](const StrategyContext& c, const sim::Params& p) -> std::unique_ptr<SearchStrategy> {
                  return std::make_unique<RandomStrategy>(c, p);
                }});
}

}  // namespace dcsim::tools::design
