#pragma once
// How a replica's queue builds when a load arrives, for the fluid resolution's latencies.
//
// A curve point's latencies (serving_curve.hpp) are those of a load held for a while: near
// saturation, what a request waits for admission grows for minutes after the load begins (a
// queue relaxes over ~1 / (1 - u)^2 answers), and a fleet that touches u = 0.95 for a minute at
// a diurnal peak or after a scale-down has built only part of it. The queue is the state with
// memory; the batch (bounded by max_batch) settles within a few answers, so rates, loads and TPOT
// need none.
//
// QueueBuildup is one point's build-up, measured by the iteration-level engine itself: the mean
// admission wait of the requests that arrived at each age since its arrivals began on empty
// replicas (age bins doubling from 0.5 s), made non-decreasing, ending at the point's level (the
// mean wait of the answers its latencies were taken from). FluidQueue carries a fleet's wait
// from segment to segment by equivalent age (the age at which the new load's build-up reaches
// the wait the fleet has), and drains a wait above the new load's level at the rate a server
// clears work, 1 - u of its time; its mean over a segment picks the load whose measured wait it
// equals, whose latency distributions the segment's answers take (ServingCurve::
// latency_utilization). Held long enough at one load, the wait is that load's level, and the
// latencies are the point's exactly.

#include <utility>
#include <vector>

namespace dcsim::models::inference {

class QueueBuildup {
 public:
  QueueBuildup() = default;
  // (arrival age s, admission wait s) of the requests that arrived from the start until the end of
  // the latency window `window_end_s`, and the window's mean wait `level_s`.
  QueueBuildup(std::vector<std::pair<double, double>> arrivals, double window_end_s, double level_s);

  double level_s() const { return wait_s_.empty() ? 0.0 : wait_s_.back(); }
  // The wait at `age_s` (held at the level past the last age).
  double wait_at(double age_s) const;
  // The first age at which the wait reaches `wait_s` (the last age when it never does).
  double age_of(double wait_s) const;

 private:
  std::vector<double> age_s_, wait_s_;  // knots, from (0, 0), non-decreasing; linear between them
};

// The fleet's admission wait carried across segments. Cost: O(log knots) per segment.
class FluidQueue {
 public:
  // The wait moved over `seconds` at utilisation `u` whose build-up is the mixture (1 - f) lo +
  // f hi of two points' (a load between them), and its mean over that time.
  struct Segment {
    double mean_wait_s = 0.0;
    double end_wait_s = 0.0;
  };
  static Segment advance(double wait_s, double u, const QueueBuildup& lo, const QueueBuildup& hi, double f,
                         double seconds);
};

}  // namespace dcsim::models::inference
