#pragma once
// Gaussian-process regression for the bayesian strategy (Rasmussen & Williams 2006, ch. 2 and 5),
// on points of the unit cube (search_space_ops.hpp: encode).
//
// Kernel: Matérn 5/2 with one lengthscale per dimension (ARD), signal variance sf2 and noise
// variance sn2:
//   k(a, b) = sf2 (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r),  r^2 = sum_j ((a_j - b_j) / l_j)^2
// Matérn 5/2 rather than the squared exponential: twice differentiable but not infinitely smooth,
// which suits step-time surfaces with kinks (a plan that stops overlapping its communication);
// the choice Snoek et al. (2012) recommend for hyperparameter search.
//
// The targets are standardised (mean 0, variance 1) before fitting. Hyperparameters maximise the
// log marginal likelihood
//   log p(y | X, theta) = -1/2 y^T K^-1 y - sum_i log L_ii - n/2 log 2 pi,   K = L L^T
// by a deterministic coordinate search in log space (each coordinate tried x e^{+-s}, s halved
// each pass; l in [0.02, 20], sf2 in [0.05, 20], sn2 in [1e-6, 0.1]): 3 passes from s = 1 the
// first time, then one pass at s = 0.5 from the last fit's values (the data grew a little; the
// optimum moved a little). No random restarts, so a fit depends only on its data and the fits
// before it.
//
// Cost: one likelihood evaluation is O(n^2 d + n^3 / 3) (kernel + Cholesky); a fit is about
// 3 x 2 x (d + 2) of them the first time, 2 (d + 2) after. predict() is O(m (n d + n^2)) for m points (a triangular
// solve per point, done as one matrix solve). n is a search's evaluations (hundreds), d the encoded dimensions (tens).

#include <cstddef>
#include <memory>
#include <vector>

namespace dcsim::tools::design {

struct GpPrediction {
  double mean = 0.0;
  double stddev = 0.0;
};

class GaussianProcess {
 public:
  GaussianProcess();
  ~GaussianProcess();
  GaussianProcess(GaussianProcess&&) noexcept;
  GaussianProcess& operator=(GaussianProcess&&) noexcept;

  // Chooses the hyperparameters for (x, y) and conditions on them. x: n points of d coordinates.
  void fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y);
  // Conditions on (x, y) with the hyperparameters of the last fit (the kriging believer adds a
  // pending point this way without refitting); the standardisation is recomputed.
  void condition(const std::vector<std::vector<double>>& x, const std::vector<double>& y);
  // Posterior mean and standard deviation (of the latent function, in y's units) at each point.
  std::vector<GpPrediction> predict(const std::vector<std::vector<double>>& points) const;
  double log_marginal_likelihood() const;
  bool fitted() const;

 private:
  friend class BelieverBatch;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The kriging believer (Ginsbourger et al. 2010) over a fixed candidate set: the posterior at m
// candidates once the GP is also conditioned on some of them at their predicted means. Those
// observations leave the mean where it is (that is the believer); each one shrinks the variances
// by a rank-one update of the posterior covariance,
//   c_j(x) = k_post(x, x_j),  var(x) -= c_j(x)^2 / (var(x_j) + sn2),
// O(n m + m picks) per pick instead of a refit and a fresh O(n^2 m) prediction. The GP must
// outlive it and not change meanwhile.
class BelieverBatch {
 public:
  BelieverBatch(const GaussianProcess& gp, const std::vector<std::vector<double>>& candidates);
  ~BelieverBatch();
  const std::vector<GpPrediction>& predictions() const { return predictions_; }
  // Conditions on candidate j at its predicted mean.
  void add(std::size_t j);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<GpPrediction> predictions_;
};

// Expected improvement below `best` of a Gaussian prediction (minimisation; Jones et al. 1998):
//   EI = (best - mu) Phi(z) + sigma phi(z),  z = (best - mu) / sigma;  max(best - mu, 0) at sigma 0.
double expected_improvement(const GpPrediction& p, double best);
// P(f < threshold) under the prediction.
double probability_below(const GpPrediction& p, double threshold);

}  // namespace dcsim::tools::design
