// `grid`: every point of the space's grid (search_space_ops.hpp), in index order, at the full
// fidelity. Constraint pruning is the runner's (a pruned outcome costs no simulation); the grid
// proposes every point regardless, so pruning can never drop a feasible design.
#include <limits>
#include <memory>

#include "sim/error.hpp"
#include "tools/design/builtin_strategies.hpp"
#include "tools/design/search_space_ops.hpp"

namespace dcsim::tools::design {

namespace {

class GridStrategy final : public SearchStrategy {
 public:
  GridStrategy(const StrategyContext& context, const sim::Params& params)
      : context_(context), batch_(count_param(params, "batch")), size_(grid_size(context.space)) {
    for (const auto& v : context.space.variables) {
      if (v.kind == SearchVariable::Kind::kContinuous && v.grid_points == 0) {
        throw sim::InputError("grid search: continuous variable '" + v.name +
                              "' needs grid_points (how many values to try)");
      }
    }
    if (size_ == std::numeric_limits<std::size_t>::max()) {
      throw sim::InputError("grid search: the grid has more than 2^64 points; use another strategy");
    }
  }

  // O(batch x variables): points are computed from their index, never stored.
  std::vector<Candidate> next() override {
    std::vector<Candidate> out;
    for (; next_ < size_ && out.size() < batch_; ++next_) {
      out.push_back({grid_point_at(context_.space, next_), full_fidelity(context_)});
    }
    return out;
  }

  void observe(const std::vector<Candidate>&, const std::vector<Outcome>&) override {}
  std::size_t planned_evaluations() const override { return size_; }

 private:
  StrategyContext context_;
  std::size_t batch_;
  std::size_t size_;
  std::size_t next_ = 0;
};

}  // namespace

void register_grid_strategy(StrategyRegistry& registry) {
  registry.add({"grid",
                "every point of the grid, in index order (the first variable slowest); continuous variables "
                "take grid_points values",
                {batch_param("64")},
                [](const StrategyContext& c, const sim::Params& p) -> std::unique_ptr<SearchStrategy> {
                  return std::make_unique<GridStrategy>(c, p);
                }});
}

}  // namespace dcsim::tools::design
