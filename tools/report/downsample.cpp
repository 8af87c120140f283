#include "tools/report/downsample.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dcsim::tools::report {

Downsampler::Downsampler(double x_min, double x_max, std::size_t max_points)
    : x_min_(x_min), x_max_(x_max), max_points_(max_points) {
  if (max_points < kPointsPerBucket)
    throw std::invalid_argument("Downsampler: max_points below one bucket");
}

void Downsampler::add(double x, double y) {
  const std::uint64_t seq = seen_++;
  if (buckets_.empty()) {
    raw_.push_back({x, y});
    if (raw_.size() <= max_points_) return;
    to_buckets();
    return;
  }
  add_to_bucket(seq, {x, y});
}

void Downsampler::to_buckets() {
  buckets_.assign(max_points_ / kPointsPerBucket, Bucket{});
  std::uint64_t seq = 0;
  for (const auto& p : raw_) add_to_bucket(seq++, p);
  raw_.clear();
  raw_.shrink_to_fit();
}

void Downsampler::add_to_bucket(std::uint64_t seq, PlotPoint p) {
  const double span = x_max_ - x_min_;
  const auto n = static_cast<double>(buckets_.size());
  const double where = span > 0 ? (p.x - x_min_) / span * n : 0.0;
  const auto index = static_cast<std::size_t>(std::clamp(std::floor(where), 0.0, n - 1));
  Bucket& b = buckets_[index];
  const Kept k{seq, p, true};
  if (std::isnan(p.y)) {
    if (!b.gap.set) b.gap = k;
    return;
  }
  if (!b.first.set) b.first = k;
  b.last = k;
  if (!b.low.set || p.y < b.low.p.y) b.low = k;
  if (!b.high.set || p.y > b.high.p.y) b.high = k;
}

std::vector<PlotPoint> Downsampler::points() const {
  if (buckets_.empty()) return raw_;
  std::vector<PlotPoint> out;
  std::vector<Kept> kept;
  for (const auto& b : buckets_) {
    kept.clear();
    for (const Kept* k : {&b.first, &b.low, &b.high, &b.last, &b.gap}) {
      if (k->set) kept.push_back(*k);
    }
    // In the order they were added; one point can be first, lowest and last at once.
    std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& c) { return a.seq < c.seq; });
    kept.erase(std::unique(kept.begin(), kept.end(),
                           [](const Kept& a, const Kept& c) { return a.seq == c.seq; }),
               kept.end());
    for (const auto& k : kept) out.push_back(k.p);
  }
  return out;
}

}  // namespace dcsim::tools::report
