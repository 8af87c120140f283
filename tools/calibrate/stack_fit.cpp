#include "tools/calibrate/stack_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

#include "sim/error.hpp"

namespace dcsim::tools::calibrate {

namespace mw = models::workload;

namespace {

// Where one parameter may move, and its typical size (the fit's unit for it).
struct Bounds {
  double lo = 0.0, hi = 0.0, scale = 1.0;
};

Bounds bounds_of(const mw::StackParameter& p) {
  if (p.valid_range == "0 < x <= 1") return {1e-3, 1.0, 0.1};
  if (p.unit == "duration") return {0.0, 1e-3, 1e-6};  // per-kernel and per-wave costs: up to 1 ms
  return {1e-2, 1e2, 1.0};                             // a scale
}

// Values a parameter is tried at before the local search. dcsim's models have kinks (the lesser of
// the NVLink and NIC rates, an algorithm or protocol switch), where the derivative at a preset's
// value can be 0 although the parameter acts a little further on.
std::vector<double> probe_values(const Bounds& b) {
  if (b.hi == 1.0) return {0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  if (b.lo == 0.0) return {0.0, 1e-7, 3e-7, 1e-6, 3e-6, 1e-5, 3e-5, 1e-4};
  return {0.25, 0.5, 1.0, 2.0, 4.0, 8.0};
}

// The fit's view of the problem: the chosen parameters of a stack, and every measurement point.
class Problem {
 public:
  Problem(const mw::SoftwareStack& base, const std::vector<const Measurement*>& files, std::vector<int> chosen)
      : base_(base), files_(files), chosen_(std::move(chosen)) {
    mw::SoftwareStack s = base_;
    const auto params = mw::stack_parameters(s);
    for (const int k : chosen_) {
      names_.push_back(params[k].name);
      bounds_.push_back(bounds_of(params[k]));
    }
    for (const Measurement* m : files_) points_ += static_cast<int>(m->points.size());
  }

  int parameters() const { return static_cast<int>(chosen_.size()); }
  int points() const { return points_; }
  const std::string& name(int j) const { return names_[j]; }
  const Bounds& bounds(int j) const { return bounds_[j]; }

  // Parameter values (SI) -> the stack they make.
  mw::SoftwareStack stack_at(const Eigen::VectorXd& x) const {
    mw::SoftwareStack s = base_;
    auto params = mw::stack_parameters(s);
    for (int j = 0; j < parameters(); ++j) *params[chosen_[j]].value = x[j];
    return s;
  }
  Eigen::VectorXd start() const {
    mw::SoftwareStack s = base_;
    const auto params = mw::stack_parameters(s);
    Eigen::VectorXd x(parameters());
    for (int j = 0; j < parameters(); ++j) x[j] = std::clamp(*params[chosen_[j]].value, bounds_[j].lo, bounds_[j].hi);
    return x;
  }

  // Weighted log residuals at x.
  Eigen::VectorXd residuals(const Eigen::VectorXd& x) const {
    const mw::SoftwareStack s = stack_at(x);
    Eigen::VectorXd r(points_);
    int i = 0;
    for (const Measurement* m : files_) {
      const double w = 1.0 / std::sqrt(static_cast<double>(m->points.size()));
      for (const auto& p : m->points) r[i++] = w * std::log(p.predict_s(s) / p.measured_s);
    }
    return r;
  }

  // Whether parameter j moves any prediction anywhere among its probe values (r: residuals at x).
  bool acts(int j, const Eigen::VectorXd& x, const Eigen::VectorXd& r) const {
    for (const double v : probe_values(bounds_[j])) {
      Eigen::VectorXd y = x;
      y[j] = v;
      if ((residuals(y) - r).cwiseAbs().maxCoeff() > 1e-9) return true;
    }
    return false;
  }

  // d r / d (x / scale), forward differences (backward at the upper bound).
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& x, const Eigen::VectorXd& r) const {
    Eigen::MatrixXd jac(points_, parameters());
    for (int j = 0; j < parameters(); ++j) {
      const double h = 1e-4 * bounds_[j].scale;
      Eigen::VectorXd y = x;
      const bool backward = x[j] + h > bounds_[j].hi;
      y[j] = backward ? x[j] - h : x[j] + h;
      const Eigen::VectorXd ry = residuals(y);
      jac.col(j) = (backward ? (r - ry) : (ry - r)) / 1e-4;
    }
    return jac;
  }

 private:
  const mw::SoftwareStack& base_;
  std::vector<const Measurement*> files_;
  std::vector<int> chosen_;
  std::vector<std::string> names_;
  std::vector<Bounds> bounds_;
  int points_ = 0;
};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

// Empty when the Jacobian at the fit determines every parameter; else why not, naming them.
std::string undetermined(const Problem& problem, const Eigen::MatrixXd& jac) {
  if (problem.points() < problem.parameters()) {
    std::vector<std::string> all;
    for (int j = 0; j < problem.parameters(); ++j) all.push_back(problem.name(j));
    return std::to_string(problem.parameters()) + " parameters (" + joined(all) + ") from " +
           std::to_string(problem.points()) + " measured point" + (problem.points() == 1 ? "" : "s") +
           ": choose at most that many with --fit";
  }
  std::vector<std::string> idle;
  Eigen::MatrixXd normalised = jac;
  for (int j = 0; j < problem.parameters(); ++j) {
    const double norm = jac.col(j).norm();
    if (!(norm > 1e-6)) {
      idle.push_back(problem.name(j));
    } else {
      normalised.col(j) /= norm;
    }
  }
  if (!idle.empty()) {
    return joined(idle) + (idle.size() == 1 ? " does" : " do") +
           " not move these predictions near the best fit (another limit binds there), so the measurements do "
           "not determine it: leave it out of --fit, or add a measurement it limits";
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(normalised, Eigen::ComputeThinV);
  const Eigen::VectorXd& s = svd.singularValues();
  if (s.size() == 0 || s[s.size() - 1] >= 1e-3 * s[0]) return "";
  const Eigen::VectorXd v = svd.matrixV().col(s.size() - 1);
  std::vector<std::string> together;
  for (int j = 0; j < problem.parameters(); ++j) {
    if (std::abs(v[j]) >= 0.3) together.push_back(problem.name(j));
  }
  return joined(together) +
         " move these predictions together: the measurements cannot tell them apart; fit one of them "
         "(--fit) or add a measurement that moves one without the other";
}

// Levenberg-Marquardt from x in the parameters' own scales, clamped to their bounds; updates x, r
// and cost. Returns the iterations taken.
int local_search(const Problem& problem, Eigen::VectorXd& x, Eigen::VectorXd& r, double& cost, int max_iterations) {
  Eigen::MatrixXd jac = problem.jacobian(x, r);
  double lambda = 1e-3;
  int iterations = 0;
  for (; iterations < max_iterations; ++iterations) {
    const Eigen::MatrixXd jtj = jac.transpose() * jac;
    const Eigen::VectorXd g = jac.transpose() * r;
    bool improved = false, done = false;
    for (int tries = 0; tries < 12 && !improved; ++tries) {
      Eigen::MatrixXd a = jtj;
      for (int j = 0; j < problem.parameters(); ++j) a(j, j) += lambda * std::max(jtj(j, j), 1e-12);
      const Eigen::VectorXd step = a.ldlt().solve(-g);
      Eigen::VectorXd y = x;
      for (int j = 0; j < problem.parameters(); ++j) {
        y[j] = std::clamp(x[j] + step[j] * problem.bounds(j).scale, problem.bounds(j).lo, problem.bounds(j).hi);
      }
      const Eigen::VectorXd ry = problem.residuals(y);
      const double cy = ry.squaredNorm();
      if (std::isfinite(cy) && cy < cost) {
        done = cost - cy < 1e-14 + 1e-8 * cost;
        x = y;
        r = ry;
        cost = cy;
        lambda = std::max(lambda / 3.0, 1e-9);
        improved = true;
      } else {
        lambda *= 4.0;
      }
    }
    // No step lowers the cost (a minimum, within the bounds), or the last one gained nothing.
    if (!improved || done) return iterations + (improved ? 1 : 0);
    jac = problem.jacobian(x, r);
  }
  return iterations;
}

struct Solution {
  Eigen::VectorXd x;
  int iterations = 0;
};

// Levenberg-Marquardt in the parameters' own scales, clamped to their bounds. Throws
// sim::InputError when the problem is undetermined at the start.
Solution solve(const Problem& problem, Eigen::VectorXd x, int max_iterations) {
  Eigen::VectorXd r = problem.residuals(x);
  std::vector<std::string> idle;
  for (int j = 0; j < problem.parameters(); ++j) {
    if (!problem.acts(j, x, r)) idle.push_back(problem.name(j));
  }
  if (!idle.empty()) {
    throw sim::InputError(joined(idle) + (idle.size() == 1 ? " moves" : " move") +
                          " no prediction of these measurements: leave it out of --fit, or add a measurement it "
                          "acts on");
  }
  if (problem.points() < problem.parameters()) throw sim::InputError(undetermined(problem, Eigen::MatrixXd()));
  double cost = r.squaredNorm();
  Solution out;
  // Rounds of a coarse scan (each parameter at the best of its probe values, the others held) and
  // a local search, until a round gains nothing: a parameter stuck on a kink where it does not act
  // gets moved by the next scan once the others are right.
  for (int round = 0; round < 4; ++round) {
    const double before = cost;
    for (int j = 0; j < problem.parameters(); ++j) {
      for (const double v : probe_values(problem.bounds(j))) {
        Eigen::VectorXd y = x;
        y[j] = v;
        const Eigen::VectorXd ry = problem.residuals(y);
        if (std::isfinite(ry.squaredNorm()) && ry.squaredNorm() < cost) {
          x = y;
          r = ry;
          cost = ry.squaredNorm();
        }
      }
    }
    out.iterations += local_search(problem, x, r, cost, max_iterations);
    if (!(cost < before * (1.0 - 1e-9))) break;
  }
  // Determined means: near the fit, every parameter moves the predictions, and no two alike.
  if (const std::string why = undetermined(problem, problem.jacobian(x, r)); !why.empty()) {
    throw sim::InputError(why);
  }
  out.x = x;
  return out;
}

// predicted / measured - 1 of a file's one point; RMS of it over several.
double file_error(const Measurement& m, const mw::SoftwareStack& stack) {
  if (m.points.size() == 1) return m.points.front().predict_s(stack) / m.points.front().measured_s - 1.0;
  double sum = 0.0;
  for (const auto& p : m.points) {
    const double e = p.predict_s(stack) / p.measured_s - 1.0;
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(m.points.size()));
}

}  // namespace

FitResult fit_stack(const mw::SoftwareStack& base, const std::vector<Measurement>& measurements,
                    const FitOptions& options) {
  if (measurements.empty()) throw sim::InputError("no measurement to calibrate on");
  mw::SoftwareStack probe = base;
  const auto params = mw::stack_parameters(probe);
  std::vector<const Measurement*> all;
  for (const auto& m : measurements) all.push_back(&m);

  // The parameters: as asked, or every one that moves a prediction.
  std::vector<int> chosen;
  if (options.evaluate_only) {
    // chosen stays empty: the stack as given.
  } else if (!options.fit.empty()) {
    for (const auto& name : options.fit) {
      const auto it = std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.name == name; });
      if (it == params.end()) {
        throw sim::InputError("--fit: '" + name +
                              "' is not a software stack parameter; valid: " + joined(mw::stack_parameter_names()));
      }
      const int k = static_cast<int>(it - params.begin());
      if (std::find(chosen.begin(), chosen.end(), k) == chosen.end()) chosen.push_back(k);
    }
  } else {
    std::vector<int> every(params.size());
    for (std::size_t k = 0; k < params.size(); ++k) every[k] = static_cast<int>(k);
    const Problem whole(base, all, every);
    const Eigen::VectorXd x = whole.start();
    const Eigen::VectorXd r = whole.residuals(x);
    for (int j = 0; j < whole.parameters(); ++j) {
      if (whole.acts(j, x, r)) chosen.push_back(every[j]);
    }
    if (chosen.empty()) throw sim::InputError("no software stack parameter moves these measurements' predictions");
  }

  const Problem problem(base, all, chosen);
  const Solution solution =
      chosen.empty() ? Solution{problem.start(), 0} : solve(problem, problem.start(), options.max_iterations);
  FitResult out;
  out.stack = problem.stack_at(solution.x);
  out.iterations = solution.iterations;
  for (int j = 0; j < problem.parameters(); ++j) {
    const Bounds& b = problem.bounds(j);
    const double v = solution.x[j];
    out.parameters.push_back(
        {problem.name(j), *params[chosen[j]].value, v, v <= b.lo + 1e-9 * b.scale || v >= b.hi - 1e-9 * b.scale});
  }
  double base_sum = 0.0, sum = 0.0;
  for (std::size_t f = 0; f < measurements.size(); ++f) {
    const Measurement& m = measurements[f];
    FileResult r;
    r.file = m.file;
    r.what = m.what;
    r.points = static_cast<int>(m.points.size());
    r.measured_s = m.points.front().measured_s;
    r.base_predicted_s = m.points.front().predict_s(base);
    r.predicted_s = m.points.front().predict_s(out.stack);
    r.base_error = file_error(m, base);
    r.error = file_error(m, out.stack);
    base_sum += r.base_error * r.base_error;
    sum += r.error * r.error;
    if (chosen.empty()) {
      r.loo_note = "nothing fitted";
    } else if (measurements.size() < 2) {
      r.loo_note = "one file: nothing to fit without it";
    } else {
      std::vector<const Measurement*> others;
      for (std::size_t g = 0; g < measurements.size(); ++g) {
        if (g != f) others.push_back(&measurements[g]);
      }
      const Problem held_out(base, others, chosen);
      try {
        const Solution s = solve(held_out, problem.start(), options.max_iterations);
        r.loo_error = file_error(m, held_out.stack_at(s.x));
      } catch (const sim::InputError& e) {
        r.loo_note = std::string("without it: ") + e.what();
      }
    }
    out.files.push_back(std::move(r));
  }
  out.base_rms_error = std::sqrt(base_sum / static_cast<double>(measurements.size()));
  out.rms_error = std::sqrt(sum / static_cast<double>(measurements.size()));
  return out;
}

}  // namespace dcsim::tools::calibrate
