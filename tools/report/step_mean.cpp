#include "tools/report/step_mean.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dcsim::tools::report {

StepMeanSampler::StepMeanSampler(double x_min, double x_max, std::size_t buckets)
    : x_min_(x_min), x_max_(x_max), buckets_(buckets), integral_(buckets, 0.0), weight_(buckets, 0.0),
      touched_(buckets, false) {
  if (buckets == 0 || !(x_max > x_min)) throw std::invalid_argument("StepMeanSampler: empty range or no buckets");
}

void StepMeanSampler::hold(double from, double to, double y, std::vector<double>& integral,
                           std::vector<double>& weight, std::vector<bool>& touched) const {
  from = std::max(from, x_min_);
  to = std::min(to, x_max_);
  if (!(to > from)) return;
  const double width = (x_max_ - x_min_) / static_cast<double>(buckets_);
  const auto last = static_cast<double>(buckets_ - 1);
  auto i = static_cast<std::size_t>(std::clamp(std::floor((from - x_min_) / width), 0.0, last));
  const auto end = static_cast<std::size_t>(std::clamp(std::floor((to - x_min_) / width), 0.0, last));
  for (; i <= end; ++i) {
    const double lo = std::max(from, x_min_ + static_cast<double>(i) * width);
    const double hi = std::min(to, x_min_ + static_cast<double>(i + 1) * width);
    if (!(hi > lo)) continue;
    touched[i] = true;
    if (std::isnan(y)) continue;
    integral[i] += y * (hi - lo);
    weight[i] += hi - lo;
  }
}

void StepMeanSampler::add(double x, double y) {
  if (started_) hold(last_x_, x, last_y_, integral_, weight_, touched_);
  started_ = true;
  last_x_ = x;
  last_y_ = y;
}

std::vector<PlotPoint> StepMeanSampler::points() const {
  // The last value holds to the end: finished on copies, so points() can be asked twice.
  std::vector<double> integral = integral_, weight = weight_;
  std::vector<bool> touched = touched_;
  if (started_) hold(last_x_, x_max_, last_y_, integral, weight, touched);
  std::vector<PlotPoint> out;
  const double width = (x_max_ - x_min_) / static_cast<double>(buckets_);
  for (std::size_t i = 0; i < buckets_; ++i) {
    if (!touched[i]) continue;
    out.push_back({x_min_ + static_cast<double>(i) * width, weight[i] > 0 ? integral[i] / weight[i] : std::nan("")});
  }
  return out;
}

}  // namespace dcsim::tools::report
