#pragma once
// Bounded points for a plot of a long series: a 54-day run's per-step series has 130,000 points,
// far more than the ~800 pixels a chart is wide. Points are kept as they are while they fit the
// budget; beyond it the x range is cut into buckets (one per ~pixel column) and each bucket keeps
// its first, lowest, highest and last point and where a gap (NaN) begins: a min/max envelope, so
// spikes and dips stay visible and a step function still steps at the right places.
// At most kPointsPerBucket x buckets points come out, buckets = max_points / kPointsPerBucket.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dcsim::tools::report {

struct PlotPoint {
  double x = 0.0;
  double y = 0.0;  // NaN: a gap (the line breaks)
};

class Downsampler {
 public:
  static constexpr std::size_t kPointsPerBucket = 5;  // first, min, max, last, gap start

  // Points are expected in non-decreasing x within [x_min, x_max] (outside: the edge bucket).
  // max_points >= kPointsPerBucket.
  Downsampler(double x_min, double x_max, std::size_t max_points);

  void add(double x, double y);
  std::size_t points_seen() const { return seen_; }
  // In x order; every point as added while they fit max_points, else the envelope.
  std::vector<PlotPoint> points() const;

 private:
  struct Kept {
    std::uint64_t seq = 0;
    PlotPoint p;
    bool set = false;
  };
  struct Bucket {
    Kept first, low, high, last, gap;
  };
  void to_buckets();
  void add_to_bucket(std::uint64_t seq, PlotPoint p);

  double x_min_, x_max_;
  std::size_t max_points_;
  std::uint64_t seen_ = 0;
  std::vector<PlotPoint> raw_;   // while it fits
  std::vector<Bucket> buckets_;  // once it does not
};

}  // namespace dcsim::tools::report
