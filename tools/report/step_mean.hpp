#pragma once
// A step-held series (each value holds until the next point; the last until x_max) reduced to
// its time-weighted mean over equal buckets, one point per bucket. For rates that switch on and
// off every step (a training job's tokens/s drops to 0 while each checkpoint is written), where
// the min/max envelope (downsample.hpp) draws a solid band from 0 to the peak and hides what the
// job delivered: the mean over a bucket is the throughput over that stretch of time.

#include <cstddef>
#include <vector>

#include "tools/report/downsample.hpp"

namespace dcsim::tools::report {

class StepMeanSampler {
 public:
  // buckets >= 1; points are expected in non-decreasing x (one before x_min holds from x_min).
  StepMeanSampler(double x_min, double x_max, std::size_t buckets);

  void add(double x, double y);
  // One point per bucket the series has reached, at the bucket's start: the mean of the values
  // held over the part of it the series covers, NaN (a gap) where every value held was NaN.
  std::vector<PlotPoint> points() const;

 private:
  // Adds y held over [from, to) to the buckets it overlaps.
  void hold(double from, double to, double y, std::vector<double>& integral, std::vector<double>& weight,
            std::vector<bool>& touched) const;

  double x_min_, x_max_;
  std::size_t buckets_;
  std::vector<double> integral_, weight_;  // sum of y * overlap, sum of overlap (non-NaN y only)
  std::vector<bool> touched_;              // reached by the series, NaN or not
  bool started_ = false;
  double last_x_ = 0.0, last_y_ = 0.0;
};

}  // namespace dcsim::tools::report
