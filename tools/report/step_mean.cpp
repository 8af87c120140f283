#include "tools/report/step_mean.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dcsim::tools::report {

StepMeanSampler::StepMeanSampler(double x_min, double x_max, std::size_t buckets, double hold_until)
    : x_min_(x_min), x_max_(x_max), hold_until_(std::isnan(hold_until) ? x_max : std::min(hold_until, x_max)),
      buckets_(buckets) {
  if (buckets == 0 || !(x_max > x_min)) throw std::invalid_argument("StepMeanSampler: empty range or no buckets");
  constexpr double kInf = std::numeric_limits<double>::infinity();
  sums_ = {std::vector<double>(buckets, 0.0), std::vector<double>(buckets, 0.0), std::vector<double>(buckets, kInf),
           std::vector<double>(buckets, -kInf), std::vector<bool>(buckets, false)};
}

void StepMeanSampler::hold(double from, double to, double y, Sums& sums) const {
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
    sums.touched[i] = true;
    if (std::isnan(y)) continue;
    sums.integral[i] += y * (hi - lo);
    sums.weight[i] += hi - lo;
    sums.lo[i] = std::min(sums.lo[i], y);
    sums.hi[i] = std::max(sums.hi[i], y);
  }
}

void StepMeanSampler::add(double x, double y) {
  if (started_) hold(last_x_, x, last_y_, sums_);
  started_ = true;
  last_x_ = x;
  last_y_ = y;
}

StepMeanSampler::Sums StepMeanSampler::finished() const {
  // The last value holds to the end: finished on a copy, so the results can be asked twice.
  Sums sums = sums_;
  if (started_) hold(last_x_, hold_until_, last_y_, sums);
  return sums;
}

std::vector<PlotPoint> StepMeanSampler::points() const {
  const Sums sums = finished();
  std::vector<PlotPoint> out;
  const double width = (x_max_ - x_min_) / static_cast<double>(buckets_);
  for (std::size_t i = 0; i < buckets_; ++i) {
    if (!sums.touched[i]) continue;
    out.push_back({x_min_ + static_cast<double>(i) * width,
                   sums.weight[i] > 0 ? sums.integral[i] / sums.weight[i] : std::nan("")});
  }
  return out;
}

std::vector<StepMeanSampler::Band> StepMeanSampler::bands() const {
  const Sums sums = finished();
  std::vector<Band> out;
  const double width = (x_max_ - x_min_) / static_cast<double>(buckets_);
  for (std::size_t i = 0; i < buckets_; ++i) {
    if (!sums.touched[i]) continue;
    const double x0 = x_min_ + static_cast<double>(i) * width;
    const bool any = sums.weight[i] > 0;
    out.push_back({x0, std::min(x0 + width, hold_until_), any ? sums.lo[i] : std::nan(""),
                   any ? sums.integral[i] / sums.weight[i] : std::nan(""), any ? sums.hi[i] : std::nan("")});
  }
  return out;
}

}  // namespace dcsim::tools::report
