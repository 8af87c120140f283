#include "models/inference/queue_buildup.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::inference {

namespace {

// Piecewise-linear value at x of knots (xs, ys), held at the ends.
double knot_value(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
  if (xs.empty()) return 0.0;
  if (x <= xs.front()) return ys.front();
  if (x >= xs.back()) return ys.back();
  const auto it = std::upper_bound(xs.begin(), xs.end(), x);
  const auto i = static_cast<std::size_t>(it - xs.begin());
  const double f = (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
  return ys[i - 1] + f * (ys[i] - ys[i - 1]);
}

}  // namespace

QueueBuildup::QueueBuildup(std::vector<std::pair<double, double>> arrivals, double window_end_s, double level_s) {
  std::sort(arrivals.begin(), arrivals.end());
  age_s_.push_back(0.0);
  wait_s_.push_back(0.0);
  // Bins of arrival age [0, 0.5), [0.5, 1), [1, 2), ... : a knot at each bin's mean age and wait.
  std::size_t i = 0;
  for (double hi = 0.5; i < arrivals.size(); hi *= 2.0) {
    double age = 0.0, wait = 0.0;
    int n = 0;
    for (; i < arrivals.size() && arrivals[i].first < hi; ++i, ++n) {
      age += arrivals[i].first;
      wait += arrivals[i].second;
    }
    if (n == 0 || age / n <= age_s_.back()) continue;
    // Non-decreasing (a queue from empty builds; what a bin's noise takes back it does not) and
    // at most the level the point's latencies have.
    age_s_.push_back(age / n);
    wait_s_.push_back(std::min(level_s, std::max(wait_s_.back(), wait / n)));
  }
  if (window_end_s > age_s_.back()) {
    age_s_.push_back(window_end_s);
    wait_s_.push_back(std::max(level_s, wait_s_.back()));
  } else {
    wait_s_.back() = level_s;
  }
}

double QueueBuildup::wait_at(double age_s) const { return knot_value(age_s_, wait_s_, age_s); }

double QueueBuildup::age_of(double wait_s) const {
  if (wait_s_.empty()) return 0.0;
  const auto it = std::lower_bound(wait_s_.begin(), wait_s_.end(), wait_s);
  if (it == wait_s_.end()) return age_s_.back();
  const auto i = static_cast<std::size_t>(it - wait_s_.begin());
  if (i == 0) return age_s_.front();
  const double f = (wait_s - wait_s_[i - 1]) / (wait_s_[i] - wait_s_[i - 1]);
  return age_s_[i - 1] + f * (age_s_[i] - age_s_[i - 1]);
}

FluidQueue::Segment FluidQueue::advance(double wait_s, double u, const QueueBuildup& lo, const QueueBuildup& hi,
                                        double f, double seconds) {
  const auto at = [&](double age) { return (1.0 - f) * lo.wait_at(age) + f * hi.wait_at(age); };
  const double level = (1.0 - f) * lo.level_s() + f * hi.level_s();
  if (seconds <= 0.0) return {wait_s, wait_s};
  if (wait_s > level) {
    // Above this load's level (the load fell): the queue's work drains at 1 - u of the server's
    // time (what it does not spend on what keeps arriving), down to the level.
    const double rate = std::max(0.0, 1.0 - u);
    const double excess = wait_s - level;
    const double t_hit = rate > 0.0 ? excess / rate : seconds;
    if (t_hit >= seconds) return {wait_s - rate * seconds / 2.0, wait_s - rate * seconds};
    return {(level * seconds + excess * t_hit / 2.0) / seconds, level};
  }
  // Building: the age at which this load's build-up has the fleet's wait (bisection on the
  // mixture, non-decreasing in age), then its mean over the segment (trapezoids on 16 spans).
  double a = 0.0, b = std::max(lo.age_of(lo.level_s()), hi.age_of(hi.level_s()));
  for (int k = 0; k < 60 && b - a > 1e-6; ++k) {
    const double m = (a + b) / 2.0;
    (at(m) < wait_s ? a : b) = m;
  }
  const double age = b;
  constexpr int kSpans = 16;
  double sum = 0.0;
  for (int k = 0; k <= kSpans; ++k) sum += (k == 0 || k == kSpans ? 0.5 : 1.0) * at(age + seconds * k / kSpans);
  return {sum / kSpans, at(age + seconds)};
}

}  // namespace dcsim::models::inference
