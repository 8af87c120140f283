#pragma once
// A step-held series (each value holds until the next point; the last until x_max) reduced to
// its time-weighted mean over equal buckets, one point per bucket. For rates that switch on and
// off every step (a training job's tokens/s drops to 0 while each checkpoint is written), where
// the min/max envelope (downsample.hpp) draws a solid band from 0 to the peak and hides what the
// job delivered: the mean over a bucket is the throughput over that stretch of time.
// It also keeps each bucket's lowest and highest value held, for the bands of long runs (a
// year of 6-hour samples as daily or weekly min / mean / max, not 4,000 zigzags).

#include <cmath>
#include <cstddef>
#include <vector>

#include "tools/report/downsample.hpp"

namespace dcsim::tools::report {

class StepMeanSampler {
 public:
  // buckets >= 1; points are expected in non-decreasing x (one before x_min holds from x_min).
  // The last value holds until hold_until (NaN: x_max), which may end before the last bucket.
  StepMeanSampler(double x_min, double x_max, std::size_t buckets, double hold_until = std::nan(""));

  void add(double x, double y);
  // One point per bucket the series has reached, at the bucket's start: the mean of the values
  // held over the part of it the series covers, NaN (a gap) where every value held was NaN.
  std::vector<PlotPoint> points() const;

  struct Band {
    double x0 = 0.0, x1 = 0.0;      // the bucket, cut at hold_until
    double lo = 0.0, mean = 0.0, hi = 0.0;  // NaN where every value held was NaN
  };
  // One band per bucket the series has reached.
  std::vector<Band> bands() const;

 private:
  // Adds y held over [from, to) to the buckets it overlaps.
  struct Sums {
    std::vector<double> integral, weight, lo, hi;  // sum of y * overlap, sum of overlap (non-NaN y only)
    std::vector<bool> touched;                     // reached by the series, NaN or not
  };
  void hold(double from, double to, double y, Sums& sums) const;
  Sums finished() const;  // the sums with the last value held to hold_until

  double x_min_, x_max_, hold_until_;
  std::size_t buckets_;
  Sums sums_;
  bool started_ = false;
  double last_x_ = 0.0, last_y_ = 0.0;
};

}  // namespace dcsim::tools::report
