#include "sim/log_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::sim {

LogHistogram::LogHistogram(double min, double max, double growth)
    : min_(min),
      growth_(growth),
      log_growth_(std::log(growth)),
      buckets_(static_cast<std::size_t>(std::ceil(std::log(max / min) / std::log(growth))) + 2, 0) {}

std::size_t LogHistogram::bucket_of(double value) const {
  if (!(value >= min_)) return 0;  // NaN too
  return std::min(1 + static_cast<std::size_t>(std::log(value / min_) / log_growth_), buckets_.size() - 1);
}

void LogHistogram::add(double value) {
  ++count_;
  sum_ += value;
  max_ = std::max(max_, value);
  ++buckets_[bucket_of(value)];
}

void LogHistogram::add(double value, std::uint64_t count) {
  if (count == 0) return;
  count_ += count;
  sum_ += value * static_cast<double>(count);
  max_ = std::max(max_, value);
  buckets_[bucket_of(value)] += count;
}

double LogHistogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= std::max<std::uint64_t>(rank, 1)) {
      if (b == 0) return 0.0;
      const double low = min_ * std::pow(growth_, static_cast<double>(b - 1));
      return std::min(max_, low * std::sqrt(growth_));
    }
  }
  return max_;
}

std::vector<LogHistogram::Bucket> LogHistogram::buckets() const {
  std::vector<Bucket> out;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    if (buckets_[b] == 0) continue;
    const double lower = b == 0 ? 0.0 : min_ * std::pow(growth_, static_cast<double>(b - 1));
    const double upper = b == 0 ? min_ : lower * growth_;
    // The last bucket also holds everything beyond max.
    out.push_back({lower, b + 1 == buckets_.size() ? std::max(upper, max_) : upper, buckets_[b]});
  }
  return out;
}

}  // namespace dcsim::sim
