#pragma once
// Many values in constant memory: log-spaced buckets, each `growth` times as wide as the one
// before, [min g^(i-1), min g^i) from `min` to `max` (the first bucket is [0, min); the last also
// holds everything beyond max). A quantile is the geometric middle of the bucket that holds the
// exact order statistic, so it is within a factor sqrt(g) of it (0.25% for g = 1.005), whatever
// the number of values; values below `min` read as 0. Count, mean and maximum are exact.
// Memory: 8 B per bucket, ceil(ln(max / min) / ln g) + 2 buckets, fixed at construction.
// Domain-free, like random and distribution: the serving latencies (models/inference) and the
// flow completion times (models/network) share it, and neither part may include the other.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dcsim::sim {

class LogHistogram {
 public:
  // 0 < min < max, growth > 1.
  LogHistogram(double min, double max, double growth);
  void add(double value);
  // `count` values of `value` (the fluid resolution adds a curve's strata): O(1).
  void add(double value, std::uint64_t count);
  std::uint64_t count() const { return count_; }
  double mean() const { return count_ > 0 ? sum_ / static_cast<double>(count_) : 0.0; }
  double max() const { return max_; }
  // The q-quantile (0 < q <= 1): the bucket holding the ceil(q n)-th smallest value, at its
  // geometric middle (clamped to the exact maximum); 0 when empty or in the first bucket.
  double quantile(double q) const;
  // What the counters hold: constant from construction.
  std::size_t bytes() const { return buckets_.capacity() * sizeof(std::uint64_t); }

  // The non-empty buckets in increasing order: [lower, upper) and how many values fell in it.
  // The first bucket is [0, min); the last one's upper end is at least the exact maximum.
  struct Bucket {
    double lower = 0.0, upper = 0.0;
    std::uint64_t count = 0;
  };
  std::vector<Bucket> buckets() const;

 private:
  std::size_t bucket_of(double value) const;

  double min_, growth_, log_growth_;
  std::vector<std::uint64_t> buckets_;  // [0]: below min
  std::uint64_t count_ = 0;
  double sum_ = 0.0, max_ = 0.0;
};

}  // namespace dcsim::sim
