#pragma once
// The requests one service receives, drawn lazily (one at a time: memory does not grow with the
// stream's length) from the service's own random streams: arrivals, input lengths and output
// lengths each draw from their own, so changing one distribution never shifts the others.
//
// Arrivals (RequestStreamConfig::Kind):
//   poisson  exponential gaps at rate_per_s
//   diurnal  a non-homogeneous Poisson process with
//              rate(t) = mean x (1 + a cos(2 pi (t - peak_at) / period)),  a = (r - 1) / (r + 1)
//            for a peak-to-trough ratio r (so the peak is r times the trough and the mean over a
//            period is `mean`), drawn by thinning (Lewis and Shedler 1979): candidates at the peak
//            rate, each kept with probability rate(t) / peak
//   bursty   a two-state Markov-modulated Poisson process: base rate, then bursts at
//            burst_rate_per_s whose lengths are exponential with mean burst_length and whose
//            starts are burst_every apart on average (exponential sojourns)
//   trace    the trace's requests as given
//   closed_loop  `clients` requests at start; each later one is asked for by the service when a
//            client's answer arrives (follow_up)
// Lengths: fixed, lognormal (median and sigma of the underlying normal, rounded, clamped), or
// drawn uniformly from an empirical list.

#include <cstdint>
#include <optional>
#include <string_view>

#include "models/inference/service_config.hpp"
#include "sim/random.hpp"

namespace dcsim::models::inference {

class RequestStream {
 public:
  // Streams derive from (seed, path): path is the service's component path.
  RequestStream(const RequestStreamConfig& config, std::uint64_t seed, std::string_view path);

  // The next request in arrival order, or nullopt once the stream has ended (its stop time, the
  // trace's end).
  std::optional<TraceRequest> next();
  // Closed loop: a client's next request, arriving at `at`, or nullopt at or after the stop time.
  std::optional<TraceRequest> follow_up(sim::Time at);

  // The arrival rate at time t (bursty: its long-run mean; trace: 0).
  static double rate_at(const RequestStreamConfig& config, double t_s);

 private:
  double next_arrival_s();
  const RequestStreamConfig& config_;
  sim::RandomStream arrivals_, input_, output_;
  double t_s_ = 0.0;
  std::size_t trace_next_ = 0;
  bool in_burst_ = false;
  double state_end_s_ = 0.0;  // bursty: when the current state ends
};

// One length of `d` (>= its min, <= its max).
int draw_length(const LengthDistribution& d, sim::RandomStream& rng);

}  // namespace dcsim::models::inference
