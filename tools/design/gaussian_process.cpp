#include "tools/design/gaussian_process.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/Cholesky>
#include <Eigen/Dense>

#include "sim/error.hpp"

namespace dcsim::tools::design {

namespace {

constexpr double kSqrt5 = 2.23606797749979;
// Bounds of the log-space coordinate search (unit-cube inputs, standardised targets).
constexpr double kMinLengthscale = 0.02, kMaxLengthscale = 20.0;
constexpr double kMinSignal = 0.05, kMaxSignal = 20.0;
constexpr double kMinNoise = 1e-6, kMaxNoise = 0.1;
constexpr int kSearchPasses = 3;

// theta = [log l_1 .. log l_d, log sf2, log sn2].
Eigen::VectorXd default_theta(std::size_t d) {
  Eigen::VectorXd theta(static_cast<Eigen::Index>(d + 2));
  theta.head(static_cast<Eigen::Index>(d)).setConstant(std::log(0.3));
  theta[static_cast<Eigen::Index>(d)] = 0.0;
  theta[static_cast<Eigen::Index>(d + 1)] = std::log(1e-4);
  return theta;
}

double lower_bound(Eigen::Index i, Eigen::Index d) {
  return std::log(i < d ? kMinLengthscale : i == d ? kMinSignal : kMinNoise);
}
double upper_bound(Eigen::Index i, Eigen::Index d) {
  return std::log(i < d ? kMaxLengthscale : i == d ? kMaxSignal : kMaxNoise);
}

// Cross-covariance of the rows of a (scaled by 1/l) with the rows of b (scaled likewise).
Eigen::MatrixXd matern52(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double sf2) {
  Eigen::MatrixXd k(a.rows(), b.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < b.rows(); ++j) {
      const double r = std::sqrt((a.row(i) - b.row(j)).squaredNorm());
      k(i, j) = sf2 * (1.0 + kSqrt5 * r + 5.0 / 3.0 * r * r) * std::exp(-kSqrt5 * r);
    }
  }
  return k;
}

Eigen::MatrixXd to_matrix(const std::vector<std::vector<double>>& x, std::size_t d) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(x.size()), static_cast<Eigen::Index>(d));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].size() != d) throw sim::InternalError("GP points of mixed dimensions (this is a bug)");
    for (std::size_t j = 0; j < d; ++j) m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = x[i][j];
  }
  return m;
}

}  // namespace

struct GaussianProcess::Impl {
  std::size_t d = 0;
  Eigen::VectorXd theta;
  Eigen::MatrixXd x_scaled;  // inputs divided by their lengthscales
  Eigen::MatrixXd l;         // Cholesky factor of K + sn2 I
  Eigen::VectorXd alpha;     // (K + sn2 I)^-1 y (standardised)
  double y_mean = 0.0, y_scale = 1.0;
  double lml = -std::numeric_limits<double>::infinity();
  bool fitted = false;

  Eigen::ArrayXd inverse_lengthscales() const { return (-theta.head(static_cast<Eigen::Index>(d))).array().exp(); }

  // Conditions on x with theta; returns the log marginal likelihood (-inf when K is not positive
  // definite even with the noise floor).
  double condition(const Eigen::MatrixXd& x, const Eigen::VectorXd& y_std) {
    const auto di = static_cast<Eigen::Index>(d);
    x_scaled = x.array().rowwise() * inverse_lengthscales().transpose();
    const double sf2 = std::exp(theta[di]);
    Eigen::MatrixXd k = matern52(x_scaled, x_scaled, sf2);
    k.diagonal().array() += std::exp(theta[di + 1]) + 1e-9 * sf2;  // jitter for duplicates
    Eigen::LLT<Eigen::MatrixXd> llt(k);
    if (llt.info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
    l = llt.matrixL();
    alpha = llt.solve(y_std);
    return -0.5 * y_std.dot(alpha) - l.diagonal().array().log().sum() -
           0.5 * static_cast<double>(y_std.size()) * std::log(2.0 * std::numbers::pi);
  }

  Eigen::VectorXd standardise(const std::vector<double>& y) {
    Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()));
    y_mean = v.mean();
    const double var = (v.array() - y_mean).square().mean();
    y_scale = var > 0.0 ? std::sqrt(var) : 1.0;
    return (v.array() - y_mean) / y_scale;
  }
};

GaussianProcess::GaussianProcess() : impl_(std::make_unique<Impl>()) {}
GaussianProcess::~GaussianProcess() = default;
GaussianProcess::GaussianProcess(GaussianProcess&&) noexcept = default;
GaussianProcess& GaussianProcess::operator=(GaussianProcess&&) noexcept = default;

bool GaussianProcess::fitted() const { return impl_->fitted; }
double GaussianProcess::log_marginal_likelihood() const { return impl_->lml; }

void GaussianProcess::fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
  if (x.empty()) throw sim::InternalError("GP fit without data (this is a bug)");
  Impl& m = *impl_;
  const std::size_t d = x.front().size();
  if (!m.fitted || m.d != d) m.theta = default_theta(d);  // else warm start
  m.d = d;
  const Eigen::MatrixXd xm = to_matrix(x, d);
  const Eigen::VectorXd ys = m.standardise(y);
  double best = m.condition(xm, ys);
  const auto di = static_cast<Eigen::Index>(d);
  double step = m.fitted ? 0.5 : 1.0;
  const int passes = m.fitted ? 1 : kSearchPasses;
  for (int pass = 0; pass < passes; ++pass, step *= 0.5) {
    for (Eigen::Index i = 0; i < m.theta.size(); ++i) {
      const double start = m.theta[i];
      double chosen = start;
      for (double delta : {-step, step}) {
        m.theta[i] = std::clamp(start + delta, lower_bound(i, di), upper_bound(i, di));
        const double value = m.condition(xm, ys);
        if (value > best) best = value, chosen = m.theta[i];
      }
      m.theta[i] = chosen;
    }
  }
  m.lml = m.condition(xm, ys);
  if (!std::isfinite(m.lml)) throw sim::InternalError("GP covariance not positive definite (this is a bug)");
  m.fitted = true;
}

void GaussianProcess::condition(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
  Impl& m = *impl_;
  if (!m.fitted) throw sim::InternalError("GP conditioned before a fit (this is a bug)");
  const Eigen::VectorXd ys = m.standardise(y);
  m.lml = m.condition(to_matrix(x, m.d), ys);
  if (!std::isfinite(m.lml)) throw sim::InternalError("GP covariance not positive definite (this is a bug)");
}

std::vector<GpPrediction> GaussianProcess::predict(const std::vector<std::vector<double>>& points) const {
  return BelieverBatch(*this, points).predictions();
}

struct BelieverBatch::Impl {
  const GaussianProcess::Impl* gp = nullptr;
  Eigen::MatrixXd p;               // candidates scaled by the lengthscales, m x d
  Eigen::MatrixXd v;               // L^-1 K(X, P), n x m
  Eigen::VectorXd var;             // posterior variances (standardised units)
  std::vector<Eigen::VectorXd> u;  // per pick: c_j / sqrt(var(x_j) + sn2)
  std::vector<std::size_t> picks;
};

BelieverBatch::BelieverBatch(const GaussianProcess& gp, const std::vector<std::vector<double>>& candidates)
    : impl_(std::make_unique<Impl>()) {
  const auto& g = *gp.impl_;
  if (!g.fitted) throw sim::InternalError("GP prediction before a fit (this is a bug)");
  Impl& b = *impl_;
  b.gp = &g;
  predictions_.resize(candidates.size());
  if (candidates.empty()) return;
  const auto di = static_cast<Eigen::Index>(g.d);
  b.p = to_matrix(candidates, g.d).array().rowwise() * g.inverse_lengthscales().transpose();
  const double sf2 = std::exp(g.theta[di]);
  const Eigen::MatrixXd ks = matern52(g.x_scaled, b.p, sf2);  // n x m
  const Eigen::VectorXd mean = ks.transpose() * g.alpha;
  b.v = g.l.triangularView<Eigen::Lower>().solve(ks);
  b.var = (sf2 - b.v.colwise().squaredNorm().array()).max(0.0).matrix().transpose();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const auto ii = static_cast<Eigen::Index>(i);
    predictions_[i] = {g.y_mean + g.y_scale * mean[ii], g.y_scale * std::sqrt(b.var[ii])};
  }
}

BelieverBatch::~BelieverBatch() = default;

void BelieverBatch::add(std::size_t j) {
  Impl& b = *impl_;
  const auto& g = *b.gp;
  const auto di = static_cast<Eigen::Index>(g.d);
  const auto jj = static_cast<Eigen::Index>(j);
  // Posterior covariance of every candidate with candidate j, given the data and earlier picks.
  Eigen::VectorXd c = matern52(b.p, b.p.row(jj), std::exp(g.theta[di])).col(0) - b.v.transpose() * b.v.col(jj);
  for (const auto& u : b.u) c -= u * u[jj];
  const double denominator = std::sqrt(std::max(c[jj], 0.0) + std::exp(g.theta[di + 1]));
  b.u.push_back(c / denominator);
  b.var = (b.var.array() - b.u.back().array().square()).max(0.0).matrix();
  for (std::size_t i = 0; i < predictions_.size(); ++i) {
    predictions_[i].stddev = g.y_scale * std::sqrt(b.var[static_cast<Eigen::Index>(i)]);
  }
}

double expected_improvement(const GpPrediction& p, double best) {
  const double gain = best - p.mean;
  if (p.stddev <= 1e-12) return std::max(gain, 0.0);
  const double z = gain / p.stddev;
  const double cdf = 0.5 * std::erfc(-z / std::numbers::sqrt2);
  const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi);
  return gain * cdf + p.stddev * pdf;
}

double probability_below(const GpPrediction& p, double threshold) {
  if (p.stddev <= 1e-12) return p.mean < threshold ? 1.0 : 0.0;
  return 0.5 * std::erfc(-(threshold - p.mean) / (p.stddev * std::numbers::sqrt2));
}

}  // namespace dcsim::tools::design
