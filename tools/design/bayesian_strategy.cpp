// `bayesian`: Gaussian-process Bayesian optimisation (Jones et al. 1998; Snoek et al. 2012) over
// the unit-cube encoding of the space (search_space_ops.hpp), at the full fidelity.
//
//   1. `initial` distinct random points (the seed's stream).
//   2. Then batches of `batch`: fit a GP (gaussian_process.hpp) to the feasible outcomes'
//      objective, and, once some outcome is infeasible, a second GP to a feasibility label
//      (-1 feasible, 1 + min(violation, 1) infeasible: least-squares classification, Rasmussen &
//      Williams 2006 section 6.5); each candidate scores
//        EI(x) x P(label(x) < 0)       (constrained EI: Schonlau et al. 1998, Gardner et al. 2014)
//      so the objective model is never bent by penalty values, and infeasible regions are avoided
//      in proportion to the evidence. With no feasible outcome yet, points are random.
//   3. A batch is built greedily with the kriging believer (Ginsbourger et al. 2010): after each
//      pick, the objective GP is conditioned on its predicted mean (gaussian_process.hpp:
//      BelieverBatch), which removes its uncertainty there and steers the next pick elsewhere.
//   4. Several objectives: ParEGO (Knowles 2006): per batch a fresh weight vector w drawn
//      uniformly from the simplex, each objective normalised to [0, 1] over the feasible outcomes
//      seen, and the GP models the augmented Chebyshev scalarisation
//        s(x) = max_j w_j f_j(x) + 0.05 sum_j w_j f_j(x).
//   EI is maximised over a finite candidate set, rebuilt per batch from the seed's stream:
//   `candidates` random points (or the whole unevaluated grid when it has fewer than 4x that many)
//   plus every one-step neighbour and a few two-variable perturbations of the 5 best outcomes.
//   Every candidate is a valid point (rounded); evaluated or pending points are never proposed.
//
// `budget` counts evaluations whose outcome is not `pruned` (a cheap bound decided it). Nothing
// depends on threads: the same seed gives the same batches at any --jobs.
//
// Cost per batch: two GP fits or conditionings (O(k (n^2 d + n^3)), k up to 6 (d + 2)), one
// prediction over m candidates (O(m (n d + n^2))) and per pick a believer update (O(n m)).
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>

#include "sim/random.hpp"
#include "tools/design/builtin_strategies.hpp"
#include "tools/design/gaussian_process.hpp"
#include "tools/design/search_space_ops.hpp"

namespace dcsim::tools::design {

namespace {

constexpr std::size_t kLocalCentres = 5;
constexpr std::size_t kPerturbationsPerCentre = 8;
constexpr double kChebyshevRho = 0.05;  // ParEGO's augmentation
// Proposals stop after this many times the budget even if every outcome was pruned.
constexpr std::size_t kProposalCap = 100;

class BayesianStrategy final : public SearchStrategy {
 public:
  BayesianStrategy(const StrategyContext& context, const sim::Params& params)
      : context_(context),
        batch_(count_param(params, "batch")),
        initial_(count_param(params, "initial")),
        budget_(count_param(params, "budget")),
        pool_(count_param(params, "candidates")),
        initial_rng_(context.seed, "design/bayesian", "initial"),
        search_rng_(context.seed, "design/bayesian", "acquisition") {}

  std::vector<Candidate> next() override {
    if (counted_ >= budget_ || points_.size() >= kProposalCap * budget_) return {};
    const std::size_t want = std::min(batch_, budget_ - counted_);
    std::vector<SearchPoint> picks;
    if (feasible_count() == 0 || counted_ < initial_) {
      // Random until the initial design is complete (or while nothing is feasible).
      const std::size_t n = counted_ < initial_ ? std::min(want, initial_ - counted_) : want;
      picks = sample_distinct(context_.space, initial_rng_, n, seen_);
    } else {
      picks = model_batch(want);
    }
    std::vector<Candidate> out;
    for (auto& p : picks) out.push_back({std::move(p), full_fidelity(context_)});
    return out;
  }

  // Pruned candidates come on top (they do not count against the budget).
  std::size_t planned_evaluations() const override {
    // A discrete space smaller than that is exhausted first (grid_size 0: a continuous variable).
    const std::size_t points = grid_size(context_.space);
    return points == 0 ? budget_ : std::min(budget_, points);
  }

  void observe(const std::vector<Candidate>& batch, const std::vector<Outcome>& outcomes) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      points_.push_back(batch[i].point);
      encoded_.push_back(encode(context_.space, batch[i].point));
      outcomes_.push_back(outcomes[i]);
      counted_ += outcomes[i].pruned ? 0 : 1;
    }
  }

 private:
  std::size_t feasible_count() const {
    return static_cast<std::size_t>(std::count_if(outcomes_.begin(), outcomes_.end(), [](const Outcome& o) {
      return o.feasible && !o.objectives.empty();
    }));
  }

  // The value the objective GP models for each feasible outcome (ParEGO with several).
  std::vector<double> scalarised(const std::vector<std::size_t>& feasible) {
    const std::size_t m = context_.objectives;
    std::vector<double> y;
    if (m <= 1) {
      for (std::size_t i : feasible) y.push_back(outcomes_[i].objectives[0]);
      return y;
    }
    // Uniform on the simplex: normalised exponentials (a flat Dirichlet).
    std::vector<double> w(m);
    double total = 0.0;
    for (double& wj : w) total += (wj = search_rng_.exponential(1.0));
    for (double& wj : w) wj /= total;
    std::vector<double> lo(m, INFINITY), hi(m, -INFINITY);
    for (std::size_t i : feasible) {
      for (std::size_t j = 0; j < m; ++j) {
        lo[j] = std::min(lo[j], outcomes_[i].objectives[j]);
        hi[j] = std::max(hi[j], outcomes_[i].objectives[j]);
      }
    }
    for (std::size_t i : feasible) {
      double worst = -INFINITY, sum = 0.0;
      for (std::size_t j = 0; j < m; ++j) {
        const double f = hi[j] > lo[j] ? (outcomes_[i].objectives[j] - lo[j]) / (hi[j] - lo[j]) : 0.0;
        worst = std::max(worst, w[j] * f);
        sum += w[j] * f;
      }
      y.push_back(worst + kChebyshevRho * sum);
    }
    return y;
  }

  // One-step neighbours of `p`: each variable to its adjacent values (a choice to every other).
  void add_neighbours(const SearchPoint& p, std::vector<SearchPoint>& out) const {
    const auto& vars = context_.space.variables;
    for (std::size_t i = 0; i < vars.size(); ++i) {
      const SearchVariable& v = vars[i];
      std::vector<double> values;
      if (v.kind == SearchVariable::Kind::kChoice) {
        for (std::size_t c = 0; c < v.choices; ++c) values.push_back(static_cast<double>(c));
      } else {
        const std::size_t n = grid_values(v);
        // One grid step either way, in the variable's own scale (its encoded coordinate).
        const double du = n > 1 ? 1.0 / static_cast<double>(n - 1) : 0.05;
        const double u = encode(SearchSpace{{v}}, {p[i]})[0];
        for (double s : {-du, du}) values.push_back(decode(SearchSpace{{v}}, {std::clamp(u + s, 0.0, 1.0)})[0]);
      }
      for (double x : values) {
        if (x == p[i]) continue;
        SearchPoint q = p;
        q[i] = x;
        out.push_back(std::move(q));
      }
    }
  }

  std::vector<SearchPoint> candidate_set(const std::vector<std::size_t>& best_first) {
    std::vector<SearchPoint> raw;
    const std::size_t size = grid_size(context_.space);
    if (size > 0 && size <= 4 * pool_) {
      for (std::size_t i = 0; i < size; ++i) raw.push_back(grid_point_at(context_.space, i));
    } else {
      for (std::size_t i = 0; i < pool_; ++i) raw.push_back(sample_point(context_.space, search_rng_));
    }
    const auto& vars = context_.space.variables;
    for (std::size_t c = 0; c < std::min(kLocalCentres, best_first.size()); ++c) {
      const SearchPoint& centre = points_[best_first[c]];
      add_neighbours(centre, raw);
      for (std::size_t k = 0; k < kPerturbationsPerCentre; ++k) {
        SearchPoint q = centre;
        const SearchPoint r = sample_point(context_.space, search_rng_);
        for (int t = 0; t < 2; ++t) {
          const auto i = static_cast<std::size_t>(search_rng_.uniform_int(vars.size()));
          q[i] = r[i];
        }
        raw.push_back(std::move(q));
      }
    }
    std::vector<SearchPoint> out;
    std::set<std::string> keys;
    for (auto& p : raw) {
      p = round_to_valid(context_.space, std::move(p));
      const std::string key = point_key(p);
      if (seen_.count(key) == 0 && keys.insert(key).second) out.push_back(std::move(p));
    }
    return out;
  }

  // Hyperparameters are searched again once the data grew by a fifth since the last search
  // (about 20 searches from 10 to 400 points instead of 100); in between, the GP is only
  // conditioned on the new data (O(n^3) instead of O(k n^3)).
  static void refit(GaussianProcess& gp, std::size_t& fitted_n, const std::vector<std::vector<double>>& x,
                    const std::vector<double>& y) {
    if (!gp.fitted() || 5 * x.size() >= 6 * fitted_n) {
      gp.fit(x, y);
      fitted_n = x.size();
    } else {
      gp.condition(x, y);
    }
  }

  std::vector<SearchPoint> model_batch(std::size_t want) {
    std::vector<std::size_t> feasible;
    for (std::size_t i = 0; i < outcomes_.size(); ++i) {
      if (outcomes_[i].feasible && !outcomes_[i].objectives.empty()) feasible.push_back(i);
    }
    std::vector<double> y = scalarised(feasible);
    std::vector<std::vector<double>> x;
    for (std::size_t i : feasible) x.push_back(encoded_[i]);
    refit(objective_gp_, objective_fit_n_, x, y);
    const bool constrained = feasible.size() < outcomes_.size();
    if (constrained) {
      std::vector<double> label;
      for (const auto& o : outcomes_) {
        label.push_back(o.feasible ? -1.0 : 1.0 + std::min(std::max(o.violation, 0.0), 1.0));
      }
      refit(feasibility_gp_, feasibility_fit_n_, encoded_, label);
    }
    std::vector<std::size_t> order(feasible.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return y[a] < y[b]; });
    std::vector<std::size_t> best_first;
    for (std::size_t k : order) best_first.push_back(feasible[k]);
    const double best = y[order.front()];

    std::vector<SearchPoint> cands = candidate_set(best_first);
    std::vector<std::vector<double>> cx;
    for (const auto& p : cands) cx.push_back(encode(context_.space, p));
    std::vector<double> feasible_prob(cands.size(), 1.0);
    if (constrained) {
      const auto pf = feasibility_gp_.predict(cx);
      for (std::size_t k = 0; k < cands.size(); ++k) feasible_prob[k] = probability_below(pf[k], 0.0);
    }
    std::vector<SearchPoint> picks;
    std::vector<bool> taken(cands.size(), false);
    BelieverBatch believer(objective_gp_, cx);
    while (picks.size() < want && picks.size() < cands.size()) {
      const auto& pred = believer.predictions();
      // EI x P(feasible); where EI vanishes everywhere, the most uncertain feasible-looking point.
      std::size_t arg = cands.size(), arg_sd = cands.size();
      double top = -1.0, top_sd = -1.0;
      for (std::size_t k = 0; k < cands.size(); ++k) {
        if (taken[k]) continue;
        const double score = expected_improvement(pred[k], best) * feasible_prob[k];
        if (score > top) top = score, arg = k;
        const double sd = pred[k].stddev * feasible_prob[k];
        if (sd > top_sd) top_sd = sd, arg_sd = k;
      }
      if (top <= 0.0) arg = arg_sd;
      taken[arg] = true;
      seen_.insert(point_key(cands[arg]));
      picks.push_back(cands[arg]);
      if (picks.size() < want) believer.add(arg);
    }
    return picks;
  }

  StrategyContext context_;
  std::size_t batch_, initial_, budget_, pool_;
  sim::RandomStream initial_rng_;
  sim::RandomStream search_rng_;
  std::set<std::string> seen_;  // proposed points (evaluated or pending)
  std::vector<SearchPoint> points_;
  std::vector<std::vector<double>> encoded_;
  std::vector<Outcome> outcomes_;
  std::size_t counted_ = 0;
  GaussianProcess objective_gp_;
  GaussianProcess feasibility_gp_;
  std::size_t objective_fit_n_ = 0, feasibility_fit_n_ = 0;  // data sizes at the last searches
};

}  // namespace

void register_bayesian_strategy(StrategyRegistry& registry) {
  registry.add({"bayesian",
                "Gaussian-process surrogate (Matern 5/2 ARD) with constrained expected improvement; kriging-believer "
                "batches; ParEGO for several objectives",
                {batch_param("4"),
                 {"budget", "integer", "100", "x >= 1", "evaluations in all (pruned outcomes do not count)"},
                 {"candidates", "integer", "500", "x >= 1",
                  "random candidates per batch over which expected improvement is maximised (plus the best points' "
                  "neighbours)"},
                 initial_param("10", "random candidates before the surrogate takes over")},
                [](const StrategyContext& c, const sim::Params& p) -> std::unique_ptr<SearchStrategy> {
                  return std::make_unique<BayesianStrategy>(c, p);
                }});
}

}  // namespace dcsim::tools::design
