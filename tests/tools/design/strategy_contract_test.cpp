// Every registered search strategy meets the seam's contract (search_strategy.hpp), looped over
// the registry so that a new strategy is checked by adding it.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "sim/error.hpp"
#include "tests/tools/design/test_spaces.hpp"
#include "tools/design/search_loop.hpp"
#include "tools/design/search_space_ops.hpp"
#include "tools/scenario/registry_params.hpp"

namespace td = dcsim::tools::design;
using Kind = td::SearchVariable::Kind;

namespace {

using dcsim::tools::design::testing::mixed_space;

// Two objectives in tension, one constraint: nodes x interval over 400 is infeasible.
td::Outcome evaluate(const td::Candidate& c) {
  const double fabric = c.point[0], nodes = c.point[1], interval = c.point[2];
  if (nodes * interval > 400.0) return {{}, false, false, nodes * interval / 400.0 - 1.0};
  const double speed = nodes * std::pow(interval / 100.0, 0.4) * (1.0 + 0.1 * fabric);
  return {{-speed, nodes * (1.0 + interval / 100.0) + 0.01 * c.fidelity}};
}

struct Run {
  std::vector<td::Trial> evaluations;
  std::size_t max_batch = 0;
  std::size_t planned = 0;  // what the strategy said before its first batch
};

Run run(const td::StrategyRegistry::Entry& e, std::uint64_t seed, std::size_t objectives) {
  td::StrategyContext context{mixed_space(), seed, 2, objectives};
  const auto params = dcsim::sim::Params::defaults(e.params);
  auto strategy = e.factory(context, params);
  Run r;
  r.planned = strategy->planned_evaluations();
  // Through run_trials, recording batch sizes.
  struct Recorder : td::SearchStrategy {
    td::SearchStrategy& inner;
    std::size_t& max_batch;
    Recorder(td::SearchStrategy& i, std::size_t& m) : inner(i), max_batch(m) {}
    std::vector<td::Candidate> next() override {
      auto b = inner.next();
      max_batch = std::max(max_batch, b.size());
      return b;
    }
    void observe(const std::vector<td::Candidate>& b, const std::vector<td::Outcome>& o) override {
      inner.observe(b, o);
    }
  } recorder(*strategy, r.max_batch);
  r.evaluations = td::run_trials(recorder, evaluate, 10'000);
  return r;
}

}  // namespace

TEST_CASE("every search strategy documents its parameters and meets the ask/tell contract",
          "[tools][design][contract]") {
  td::StrategyRegistry registry{"search strategy"};
  td::register_builtin_strategies(registry);
  REQUIRE(registry.names() == std::vector<std::string>{"bayesian", "grid", "random", "successive_halving"});
  // The design file's params object is the union of every strategy's: it must build.
  CHECK_NOTHROW(dcsim::tools::scenario::params_object_field("strategy_params", "",
                                                            dcsim::tools::scenario::entry_params(registry)));
  for (const auto& e : registry.entries()) {
    for (std::size_t objectives : {1, 2}) {
      INFO(e.name << " with " << objectives << " objective(s)");
      CHECK_FALSE(e.description.empty());
      for (const auto& p : e.params) {
        INFO("parameter " << p.name);
        CHECK_FALSE(p.help.empty());
        CHECK_NOTHROW(dcsim::tools::scenario::param_field(p, e.name));
      }
      const auto params = dcsim::sim::Params::defaults(e.params);
      const Run a = run(e, 11, objectives);
      REQUIRE_FALSE(a.evaluations.empty());
      CHECK(a.max_batch <= static_cast<std::size_t>(params.integer("batch")));
      std::map<int, std::set<std::string>> seen_at_fidelity;
      for (const auto& ev : a.evaluations) {
        CHECK(td::is_valid(mixed_space(), ev.candidate.point));
        CHECK(ev.candidate.fidelity >= 0);
        CHECK(ev.candidate.fidelity < 2);
        // Never the same point twice at one fidelity.
        CHECK(seen_at_fidelity[ev.candidate.fidelity].insert(td::point_key(ev.candidate.point)).second);
      }
      // The plan progress reports: exact for grid and random; an upper bound for successive halving
      // (a rung keeps fewer when fewer are feasible); bayesian's budget counts unpruned ones, and
      // this evaluation prunes nothing.
      if (e.name == "successive_halving") {
        CHECK(a.evaluations.size() <= a.planned);
      } else {
        CHECK(a.evaluations.size() == a.planned);
      }
      // Same seed, same sequence.
      const Run b = run(e, 11, objectives);
      REQUIRE(b.evaluations.size() == a.evaluations.size());
      for (std::size_t i = 0; i < a.evaluations.size(); ++i) {
        CHECK(b.evaluations[i].candidate.point == a.evaluations[i].candidate.point);
        CHECK(b.evaluations[i].candidate.fidelity == a.evaluations[i].candidate.fidelity);
      }
    }
  }
}

TEST_CASE("grid search refuses a continuous variable without grid points", "[tools][design][contract]") {
  td::StrategyRegistry registry{"search strategy"};
  td::register_builtin_strategies(registry);
  td::SearchSpace s;
  s.variables.push_back({"oversubscription", Kind::kContinuous, 0, 1.0, 4.0});
  const auto& grid = registry.get("grid");
  CHECK_THROWS_AS(grid.factory({s, 1, 1, 1}, dcsim::sim::Params::defaults(grid.params)), dcsim::sim::InputError);
  // The others sample it anywhere in its range.
  const auto& random = registry.get("random");
  auto r = random.factory({s, 1, 1, 1}, dcsim::sim::Params::defaults(random.params));
  for (const auto& c : r->next()) {
    CHECK(c.point[0] >= 1.0);
    CHECK(c.point[0] <= 4.0);
  }
}
