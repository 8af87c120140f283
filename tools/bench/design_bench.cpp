#include "tools/bench/design_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/power/gpu_power.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"
#include "tools/design/search_loop.hpp"
#include "tools/design/search_space_ops.hpp"

namespace dcsim::tools::bench {

namespace {

namespace td = tools::design;
namespace mw = models::workload;
namespace collective = models::collective;
using Kind = td::SearchVariable::Kind;
using Clock = std::chrono::steady_clock;

// The design space. Node counts are a level 0..5 into kNodes and TP, PP, micro-batch their log2,
// so that every numeric variable is ordinal for the surrogate (one-hot would hide that 8 > 4).
constexpr int kNodes[] = {48, 64, 96, 128, 192, 256};
constexpr int kGlobalBatchSequences = 1536;  // 12.6M tokens of 8,192: divisible by dp x micro-batch or not
// Owned-site prices (assumptions of this benchmark, not presets): an HGX H100 node at about
// $250k over 4 years plus upkeep is $8 per node-hour; power at $0.08/kWh with PUE 1.2.
constexpr double kNodeUsdPerHour = 8.0;
constexpr double kUsdPerKwh = 0.08;
constexpr double kPue = 1.2;
// The deadline: 1T tokens in 30 days, 385,802 tokens/s.
constexpr double kRequiredTokensPerS = 1e12 / (30 * 86400.0);
constexpr int kSeeds = 10;
constexpr double kWithin = 0.01;
const double kCurveFractions[] = {0.01, 0.02, 0.05, 0.10};

td::SearchSpace design_space() {
  td::SearchSpace s;
  s.variables.push_back({"nodes (48, 64, 96, 128, 192, 256)", Kind::kInteger, 0, 0.0, 5.0, 1.0});
  s.variables.push_back({"log2 tp", Kind::kInteger, 0, 0.0, 3.0, 1.0});
  s.variables.push_back({"log2 pp", Kind::kInteger, 0, 0.0, 4.0, 1.0});
  s.variables.push_back({"log2 micro-batch", Kind::kInteger, 0, 0.0, 2.0, 1.0});
  s.variables.push_back({"recompute (selective, full)", Kind::kChoice, 2});
  s.variables.push_back({"distributed optimizer (off, on)", Kind::kChoice, 2});
  s.variables.push_back({"gpu power cap W", Kind::kInteger, 0, 500.0, 700.0, 100.0});
  return s;
}

nlohmann::json describe(const td::SearchPoint& p) {
  return {{"nodes", kNodes[static_cast<int>(p[0])]},
          {"tp", 1 << static_cast<int>(p[1])},
          {"pp", 1 << static_cast<int>(p[2])},
          {"micro_batch", 1 << static_cast<int>(p[3])},
          {"recompute", p[4] == 0.0 ? "selective" : "full"},
          {"distributed_optimizer", p[5] == 1.0},
          {"gpu_power_cap_w", p[6]}};
}

// USD per million tokens of one design, or infeasible: a plan the step model refuses (memory,
// divisibility: ConfigError, violation 1) or one that misses the deadline (violation: the
// relative shortfall). Every outcome counts as an evaluation (none is `pruned`).
td::Outcome price(const td::SearchPoint& p, const collective::CollectiveRegistry& collectives) {
  const auto node = models::hardware::hgx_h100();
  mw::TrainingJobConfig job;
  job.name = "llama3-70b";
  job.model = mw::llama3_70b();
  job.nodes = kNodes[static_cast<int>(p[0])];
  job.parallelism.tp = 1 << static_cast<int>(p[1]);
  job.parallelism.pp = 1 << static_cast<int>(p[2]);
  job.micro_batch_size = 1 << static_cast<int>(p[3]);
  job.recompute = p[4] == 0.0 ? mw::Recompute::kSelective : mw::Recompute::kFull;
  job.parallelism.distributed_optimizer = p[5] == 1.0;
  job.global_batch_sequences = kGlobalBatchSequences;
  // The cap slows the clock by the driver's DVFS at full utilisation (gpu_power.hpp).
  models::power::GpuPowerConfig power;
  power.idle_power_w = node.gpu.idle_power_w;
  power.max_power_w = node.gpu.max_power_w;
  power.power_limit_w = p[6];
  models::compute::ComputeModelConfig compute;
  compute.clock_factor = models::power::power_cap_clock_factor(power, 1.0);
  mw::TrainingStepResult r;
  try {
    r = mw::estimate_training_step(job, node, {}, collectives, compute);
  } catch (const sim::ConfigError&) {
    return {{}, false, false, 1.0};
  }
  if (r.tokens_per_s < kRequiredTokensPerS) return {{}, false, false, kRequiredTokensPerS / r.tokens_per_s - 1.0};
  const double node_w = node.gpus * std::min(p[6], node.gpu.max_power_w) + node.other_max_power_w;
  const double usd_per_s = job.nodes * (kNodeUsdPerHour + node_w / 1000.0 * kPue * kUsdPerKwh) / 3600.0;
  return {{usd_per_s / r.tokens_per_s * 1e6}};
}

struct Table {
  std::map<std::string, td::Outcome> outcomes;  // by point key: every grid point
  td::SearchPoint best;
  double optimum = INFINITY;
  std::size_t feasible = 0;
  double wall_s = 0.0;
};

// The grid strategy over the whole space: the optimum, and a table later runs look up.
Table run_grid(const td::StrategyRegistry& registry, const collective::CollectiveRegistry& collectives) {
  Table t;
  const auto& e = registry.get("grid");
  auto grid = e.factory({design_space(), 1, 1, 1}, sim::Params::defaults(e.params));
  const auto start = Clock::now();
  const auto evals = td::run_trials(*grid, [&](const td::Candidate& c) { return price(c.point, collectives); });
  t.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  for (const auto& ev : evals) {
    t.outcomes[td::point_key(ev.candidate.point)] = ev.outcome;
    if (!ev.outcome.feasible) continue;
    ++t.feasible;
    if (ev.outcome.objectives[0] < t.optimum) t.optimum = ev.outcome.objectives[0], t.best = ev.candidate.point;
  }
  return t;
}

// Median of values where a missing one (not reached within the budget) counts as larger than
// all: null when that makes the median itself missing.
nlohmann::json censored_median(std::vector<double> v, std::size_t missing) {
  v.insert(v.end(), missing, INFINITY);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double m = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return std::isfinite(m) ? nlohmann::json(m) : nlohmann::json(nullptr);
}

nlohmann::json run_strategy(const std::string& name, const td::StrategyRegistry& registry, const Table& t,
                            std::size_t budget) {
  const auto& e = registry.get(name);
  auto params = sim::Params::defaults(e.params);
  params.set_number(name == "random" ? "samples" : "budget", static_cast<double>(budget));
  const std::size_t grid = t.outcomes.size();
  std::vector<double> reached;
  std::vector<std::vector<double>> gaps(std::size(kCurveFractions));
  nlohmann::json per_seed = nlohmann::json::array();
  const auto start = Clock::now();
  for (int seed = 1; seed <= kSeeds; ++seed) {
    auto s = e.factory({design_space(), static_cast<std::uint64_t>(seed), 1, 1}, params);
    const auto evals =
        td::run_trials(*s, [&](const td::Candidate& c) { return t.outcomes.at(td::point_key(c.point)); });
    double best = INFINITY;
    nlohmann::json hit = nullptr;
    std::vector<double> best_after;  // best_after[i]: best of the first i + 1 evaluations
    for (std::size_t i = 0; i < evals.size(); ++i) {
      if (evals[i].outcome.feasible) best = std::min(best, evals[i].outcome.objectives[0]);
      best_after.push_back(best);
      if (hit.is_null() && best <= t.optimum * (1.0 + kWithin)) hit = i + 1;
    }
    if (!hit.is_null()) reached.push_back(hit.get<double>());
    for (std::size_t k = 0; k < std::size(kCurveFractions); ++k) {
      const auto at = static_cast<std::size_t>(std::round(kCurveFractions[k] * static_cast<double>(grid)));
      const double b = best_after.empty() ? INFINITY : best_after[std::min(at, best_after.size()) - 1];
      gaps[k].push_back(b / t.optimum - 1.0);
    }
    per_seed.push_back({{"seed", seed}, {"evaluations_to_within_1pct", hit}, {"best", best}});
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  nlohmann::json curve = nlohmann::json::array();
  for (std::size_t k = 0; k < std::size(kCurveFractions); ++k) {
    auto g = gaps[k];
    std::sort(g.begin(), g.end());
    const auto at = static_cast<std::size_t>(std::round(kCurveFractions[k] * static_cast<double>(grid)));
    curve.push_back({{"fraction_of_grid", kCurveFractions[k]},
                     {"evaluations", at},
                     {"median_gap", 0.5 * (g[kSeeds / 2 - 1] + g[kSeeds / 2])},
                     {"max_gap", g.back()}});
  }
  const std::size_t missing = kSeeds - reached.size();
  return {{"strategy", name},
          {"budget", budget},
          {"seeds", kSeeds},
          {"reached", reached.size()},
          {"evaluations_median", censored_median(reached, missing)},
          {"evaluations_min", reached.empty() ? nlohmann::json(nullptr)
                                              : nlohmann::json(*std::min_element(reached.begin(), reached.end()))},
          {"evaluations_max", missing > 0 || reached.empty()
                                  ? nlohmann::json(nullptr)
                                  : nlohmann::json(*std::max_element(reached.begin(), reached.end()))},
          {"curve", curve},
          {"per_seed", per_seed},
          {"wall_s", wall}};
}

}  // namespace

nlohmann::json run_design_bench() {
  collective::CollectiveRegistry collectives{"collective algorithm"};
  collective::register_collective_algorithms(collectives);
  td::StrategyRegistry registry{"search strategy"};
  td::register_builtin_strategies(registry);
  const Table t = run_grid(registry, collectives);
  const std::size_t grid = t.outcomes.size();
  // The target: within 1% in at most 10% of the grid's evaluations; the budget is that 10%.
  const auto budget = static_cast<std::size_t>(std::round(0.10 * static_cast<double>(grid)));
  nlohmann::json c = {
      {"name", "bayesian-vs-grid"},
      {"measured",
       "Llama 3 70B on HGX H100, USD per million tokens from the closed-form step model, 1T tokens in 30 days; "
       "evaluations (every proposed design, feasible or not) until the best feasible design found is within 1% "
       "of the grid's optimum, over 10 seeds; budget 10% of the grid"},
      {"grid_points", grid},
      {"grid_evaluations", grid},
      {"feasible", t.feasible},
      {"grid_wall_s", t.wall_s},
      {"step_model_us_per_evaluation", t.wall_s / static_cast<double>(grid) * 1e6},
      {"optimum_usd_per_million_tokens", t.optimum},
      {"optimum", describe(t.best)},
      {"target_evaluations", budget},
      {"strategies", {run_strategy("bayesian", registry, t, budget), run_strategy("random", registry, t, budget)}}};
  return nlohmann::json::array({c});
}

}  // namespace dcsim::tools::bench
