#include "models/inference/latency_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::inference {

namespace {

constexpr double kMin = 1e-6;
constexpr double kMax = 1e6;
constexpr double kGrowth = 1.005;
const double kLogGrowth = std::log(kGrowth);
const std::size_t kBuckets = static_cast<std::size_t>(std::ceil(std::log(kMax / kMin) / std::log(kGrowth))) + 2;

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kBuckets, 0) {}

void LatencyHistogram::add(double seconds) {
  ++count_;
  sum_ += seconds;
  max_ = std::max(max_, seconds);
  std::size_t b = 0;
  if (seconds >= kMin) {
    b = 1 + static_cast<std::size_t>(std::log(seconds / kMin) / kLogGrowth);
    b = std::min(b, kBuckets - 1);
  }
  ++buckets_[b];
}

void LatencyHistogram::add(double seconds, std::uint64_t count) {
  if (count == 0) return;
  count_ += count;
  sum_ += seconds * static_cast<double>(count);
  max_ = std::max(max_, seconds);
  std::size_t b = 0;
  if (seconds >= kMin) {
    b = 1 + static_cast<std::size_t>(std::log(seconds / kMin) / kLogGrowth);
    b = std::min(b, kBuckets - 1);
  }
  buckets_[b] += count;
}

double LatencyHistogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= std::max<std::uint64_t>(rank, 1)) {
      if (b == 0) return 0.0;
      const double low = kMin * std::pow(kGrowth, static_cast<double>(b - 1));
      return std::min(max_, low * std::sqrt(kGrowth));
    }
  }
  return max_;
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::buckets() const {
  std::vector<Bucket> out;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    if (buckets_[b] == 0) continue;
    const double lower = b == 0 ? 0.0 : kMin * std::pow(kGrowth, static_cast<double>(b - 1));
    const double upper = b == 0 ? kMin : lower * kGrowth;
    // The last bucket also holds everything beyond kMax.
    out.push_back({lower, b + 1 == buckets_.size() ? std::max(upper, max_) : upper, buckets_[b]});
  }
  return out;
}

}  // namespace dcsim::models::inference
