#include "models/inference/request_stream.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace dcsim::models::inference {

namespace {

double diurnal_amplitude(const RequestStreamConfig& c) { return (c.peak_to_trough - 1.0) / (c.peak_to_trough + 1.0); }

}  // namespace

int draw_length(const LengthDistribution& d, sim::RandomStream& rng) {
  double v = d.value;
  switch (d.kind) {
    case LengthDistribution::Kind::kFixed:
      break;
    case LengthDistribution::Kind::kLognormal:
      v = std::round(rng.lognormal(std::log(d.median), d.sigma));
      break;
    case LengthDistribution::Kind::kEmpirical:
      v = d.samples[static_cast<std::size_t>(rng.uniform_int(d.samples.size()))];
      break;
  }
  return static_cast<int>(std::clamp(v, static_cast<double>(d.min), static_cast<double>(d.max)));
}

RequestStream::RequestStream(const RequestStreamConfig& config, std::uint64_t seed, std::string_view path)
    : config_(config),
      arrivals_(seed, path, "arrivals"),
      input_(seed, path, "input_tokens"),
      output_(seed, path, "output_tokens"),
      t_s_(config.start.seconds()) {
  if (config_.kind == RequestStreamConfig::Kind::kBursty) {
    state_end_s_ = t_s_ + arrivals_.exponential(std::max(1e-9, (config_.burst_every - config_.burst_length).seconds()));
  }
}

double RequestStream::rate_at(const RequestStreamConfig& c, double t_s) {
  switch (c.kind) {
    case RequestStreamConfig::Kind::kPoisson:
      return c.rate_per_s;
    case RequestStreamConfig::Kind::kDiurnal:
      return c.rate_per_s *
             (1.0 + diurnal_amplitude(c) *
                        std::cos(2.0 * std::numbers::pi * (t_s - c.peak_at.seconds()) / c.period.seconds()));
    case RequestStreamConfig::Kind::kBursty: {
      // The long-run mean: bursts take burst_length of every burst_every.
      const double f = c.burst_length.seconds() / c.burst_every.seconds();
      return c.rate_per_s * (1.0 - f) + c.burst_rate_per_s * f;
    }
    case RequestStreamConfig::Kind::kTrace:
    case RequestStreamConfig::Kind::kClosedLoop:  // the load follows the service: no rate of its own
      return 0.0;
  }
  return 0.0;
}

double RequestStream::next_arrival_s() {
  switch (config_.kind) {
    case RequestStreamConfig::Kind::kPoisson:
      return t_s_ + arrivals_.exponential(1.0 / config_.rate_per_s);
    case RequestStreamConfig::Kind::kDiurnal: {
      const double peak = config_.rate_per_s * (1.0 + diurnal_amplitude(config_));
      double t = t_s_;
      for (;;) {
        t += arrivals_.exponential(1.0 / peak);
        if (arrivals_.uniform01() * peak < rate_at(config_, t)) return t;
      }
    }
    case RequestStreamConfig::Kind::kBursty: {
      // Memoryless in each state: a candidate past the state's end is dropped and drawing resumes
      // there at the other state's rate.
      double t = t_s_;
      for (;;) {
        const double rate = in_burst_ ? config_.burst_rate_per_s : config_.rate_per_s;
        const double candidate = rate > 0.0 ? t + arrivals_.exponential(1.0 / rate) : state_end_s_;
        if (candidate < state_end_s_) return candidate;
        t = state_end_s_;
        in_burst_ = !in_burst_;
        const double mean = in_burst_ ? config_.burst_length.seconds()
                                      : (config_.burst_every - config_.burst_length).seconds();
        state_end_s_ = t + arrivals_.exponential(std::max(1e-9, mean));
        if (t >= config_.stop.seconds()) return t;
      }
    }
    case RequestStreamConfig::Kind::kTrace:
    case RequestStreamConfig::Kind::kClosedLoop: break;
  }
  return t_s_;
}

std::optional<TraceRequest> RequestStream::next() {
  if (config_.kind == RequestStreamConfig::Kind::kTrace) {
    if (trace_next_ >= config_.trace.size()) return std::nullopt;
    return config_.trace[trace_next_++];
  }
  if (config_.kind == RequestStreamConfig::Kind::kClosedLoop) {
    // Every client's first request at start; the rest come from follow_up.
    if (trace_next_ >= static_cast<std::size_t>(std::max(0, config_.clients))) return std::nullopt;
    ++trace_next_;
    return follow_up(config_.start);
  }
  const double t = next_arrival_s();
  if (config_.stop != sim::Time::max() && t >= config_.stop.seconds()) return std::nullopt;
  t_s_ = t;
  TraceRequest r;
  r.arrival = sim::Time::from_seconds(t);
  r.input_tokens = draw_length(config_.input_tokens, input_);
  r.output_tokens = draw_length(config_.output_tokens, output_);
  return r;
}

std::optional<TraceRequest> RequestStream::follow_up(sim::Time at) {
  if (at >= config_.stop) return std::nullopt;
  TraceRequest r;
  r.arrival = at;
  r.input_tokens = draw_length(config_.input_tokens, input_);
  r.output_tokens = draw_length(config_.output_tokens, output_);
  return r;
}

}  // namespace dcsim::models::inference
