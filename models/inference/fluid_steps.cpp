// The fluid resolution of an inference service (inference_service.hpp says what it does): the
// fleet advanced in segments between steps and fleet changes, from one replica's curve.

#include <algorithm>
#include <cmath>

#include "models/inference/inference_service.hpp"

namespace dcsim::models::inference {

namespace {

// Requests the stream brings over [a, b) seconds: its rate integrated by Simpson's rule over the
// part inside [start, stop) (a diurnal cosine over a 60 s step: exact to ~1e-9).
double arrivals_between(const RequestStreamConfig& q, double a, double b) {
  const double lo = std::max(a, q.start.seconds());
  const double hi = q.stop.is_max() ? b : std::min(b, q.stop.seconds());
  if (hi <= lo) return 0.0;
  const double mid = (lo + hi) / 2.0;
  return (hi - lo) / 6.0 *
         (RequestStream::rate_at(q, lo) + 4.0 * RequestStream::rate_at(q, mid) + RequestStream::rate_at(q, hi));
}

// floor(after) - floor(before): the whole requests a fractional count gained (deterministic carry).
std::uint64_t whole_gain(double before, double after) {
  return static_cast<std::uint64_t>(std::max(0.0, std::floor(after) - std::floor(before)));
}

}  // namespace

const ServingCurve& InferenceService::fluid_curve_for(std::size_t serving) {
  const int most = static_cast<int>(std::min<std::size_t>(serving, kCurvePoolMax));
  int pool = 1;
  while (pool * 2 <= most) pool *= 2;
  CurveInputs in = curve_inputs_;
  in.pool = pool;
  return curve_cache_->get(ServingCurveCache::key(config_.model, config_.engine, node_, in),
                           [&] { return build_serving_curve(cost_, config_.engine, in); });
}

void InferenceService::fluid_start() {
  fluid_running_ = true;
  segment_.step_end = sim_.now() + config_.fluid_step;
  fluid_open();
  fluid_event_ = sim_.at(segment_.step_end, [this] { on_fluid_step(); });
}

void InferenceService::on_fluid_step() {
  fluid_event_ = {};
  segment_.step_end = sim_.now() + config_.fluid_step;
  fluid_reshape();
  const bool over = !config_.requests.stop.is_max() && sim_.now() >= config_.requests.stop;
  stream_ended_ = over;
  if (over && segment_.backlog < 0.5 && !autoscaler_) return;  // nothing more to serve
  fluid_event_ = sim_.at(segment_.step_end, [this] { on_fluid_step(); });
}

void InferenceService::fluid_reshape() {
  if (!fluid_running_) return;
  fluid_close();
  fluid_open();
}

double InferenceService::fluid_wait_s() const {
  return segment_.served_per_s > 0.0 ? segment_.backlog / segment_.served_per_s : 0.0;
}

// O(replicas): each replica's share, utilisation and rates for the segment that starts now.
void InferenceService::fluid_open() {
  const sim::Time now = sim_.now();
  FluidSegment& g = segment_;
  g.start = now;
  g.curve = &fluid_curve_for(serving_.size());
  const ServingCurve& curve = *g.curve;
  const double step_s = std::max((g.step_end - now).seconds(), 1e-9);
  g.arrival_per_s = arrivals_between(config_.requests, now.seconds(), g.step_end.seconds()) / step_s;
  double capacity = 0.0, weights = 0.0;
  for (const std::size_t i : serving_) {
    const double c = curve.capacity_per_s * replicas_[i].clock;
    capacity += c;
    weights += router_->fluid_weight(c);
  }
  // What the fleet is offered: the step's arrivals and what waits, drained over the step.
  const double offered = std::min(g.arrival_per_s + g.backlog / step_s, capacity);
  g.served_per_s = 0.0;
  g.groups.clear();
  for (auto& r : replicas_) {
    r.accrue(now);
    r.fluid_rate = {};
    r.fluid_load = {};
    r.fluid_u = -1.0;
  }
  for (const std::size_t i : serving_) {
    Replica& r = replicas_[i];
    const double c = curve.capacity_per_s * r.clock;
    const double share = std::min(c, offered * router_->fluid_weight(c) / weights);
    const double u = share / c;
    g.served_per_s += share;
    r.fluid_u = u;
    r.fluid_rate = curve.rates_at(u);
    const ServingCurve::Bracket b = curve.at(u);
    const double waiting = ((1.0 - b.f) * b.lo->waiting + b.f * b.hi->waiting) * b.scale;
    const double running = ((1.0 - b.f) * b.lo->running + b.f * b.hi->running) * b.scale;
    r.fluid_load.waiting = static_cast<int>(std::lround(waiting));
    r.fluid_load.running = static_cast<int>(std::lround(running));
    r.fluid_load.kv_used_fraction =
        ((1.0 - b.f) * b.lo->load.kv_used_fraction + b.f * b.hi->load.kv_used_fraction) * b.scale;
    if (!g.groups.empty() && g.groups.back().first == u) {
      g.groups.back().second += share;
    } else {
      g.groups.emplace_back(u, share);
    }
  }
}

void InferenceService::fluid_draw_loads() {
  // Each replica draws on its own. (Drawing one load per block of `pool` replicas, as a balanced
  // fleet's replicas move together, was tried: it moved GPU-hours of the small autoscaled
  // validation case by 2.8% and did not close the 128-replica fleet's gap; see the docs.)
  for (const std::size_t i : serving_) {
    Replica& r = replicas_[i];
    if (r.fluid_u < 0.0) continue;
    const ServingCurve::Bracket b = segment_.curve->at(r.fluid_u);
    const CurvePoint* p = fluid_draws_.uniform01() < b.f ? b.hi : b.lo;
    const ReplicaLoad& l = p->load_samples[fluid_draws_.uniform_int(p->load_samples.size())];
    r.fluid_load.waiting = static_cast<int>(std::lround(l.waiting * b.scale));
    r.fluid_load.running = static_cast<int>(std::lround(l.running * b.scale));
    r.fluid_load.kv_used_fraction = l.kv_used_fraction * b.scale;
  }
}

// O(groups x kCurveStrata): what the segment [start, now) delivered.
void InferenceService::fluid_close() {
  FluidSegment& g = segment_;
  const double d = (sim_.now() - g.start).seconds();
  if (d <= 0.0) return;
  const double arrived = g.arrival_per_s * d;
  const double served = std::min(g.served_per_s * d, g.backlog + arrived);
  const double backlog_after = std::max(0.0, g.backlog + arrived - served);
  // FIFO at the gateway: what is served now waited behind the mean backlog, drained at the
  // served rate (Little's law for the gateway queue).
  const double wait_s = g.served_per_s > 0.0 ? (g.backlog + backlog_after) / 2.0 / g.served_per_s : 0.0;
  fluid_issued_ += arrived;
  stats_.issued = static_cast<std::uint64_t>(fluid_issued_);
  const double scale = g.served_per_s * d > 0.0 ? served / (g.served_per_s * d) : 0.0;
  for (const auto& [u, rate] : g.groups) {
    const double n = rate * d * scale;
    if (n <= 0.0) continue;
    const ServingCurve::Bracket b = g.curve->at(u);
    const auto mix = [&b](double lo, double hi) { return (1.0 - b.f) * lo + b.f * hi; };
    const double rejected = n * mix(b.lo->rejected_fraction, b.hi->rejected_fraction);
    const double answered = n - rejected;
    const std::uint64_t whole = whole_gain(fluid_answered_, fluid_answered_ + answered);
    fluid_answered_ += answered;
    fluid_rejected_ += rejected;
    fluid_met_ += answered * mix(b.lo->sla_met_fraction(wait_s), b.hi->sla_met_fraction(wait_s));
    fluid_add_latencies(b, whole, wait_s);
    const double out = answered * g.curve->mean_output_tokens;
    stats_.output_tokens += out;
    stats_.input_tokens += answered * g.curve->mean_input_tokens;
    sampled_output_tokens_ += out;
    stats_.in_system_seconds += answered * (mix(b.lo->mean_e2e_s, b.hi->mean_e2e_s) + wait_s);
  }
  stats_.completed = static_cast<std::uint64_t>(fluid_answered_);
  stats_.rejected = static_cast<std::uint64_t>(fluid_rejected_);
  stats_.sla_met = static_cast<std::uint64_t>(fluid_met_);
  g.backlog = backlog_after;
  g.start = sim_.now();
  // What is still at the gateway, for the summary's unfinished and Little's integral.
  outstanding_ = static_cast<std::uint64_t>(std::llround(backlog_after));
  outstanding_issued_s_ = static_cast<double>(outstanding_) * (sim_.now().seconds() - wait_s);
}

void InferenceService::fluid_add_latencies(const ServingCurve::Bracket& b, std::uint64_t count, double wait_s) {
  if (count == 0) return;
  // The two neighbours' shares, then kCurveStrata equal strata of each: stratum k of m requests
  // gets floor((k + 1) m / K) - floor(k m / K) of them, so the counts add up to m exactly.
  const auto lo_count = static_cast<std::uint64_t>(std::llround(static_cast<double>(count) * (1.0 - b.f)));
  const std::pair<const CurvePoint*, std::uint64_t> parts[] = {{b.lo, lo_count}, {b.hi, count - lo_count}};
  const auto spread = [](LatencyHistogram& h, const std::vector<double>& strata, std::uint64_t m, double shift) {
    const std::uint64_t k_total = strata.size();
    for (std::uint64_t k = 0; k < k_total; ++k) {
      const std::uint64_t c = (k + 1) * m / k_total - k * m / k_total;
      if (c > 0) h.add(strata[k] + shift, c);
    }
  };
  for (const auto& [p, m] : parts) {
    if (m == 0) continue;
    spread(stats_.ttft, p->ttft_s, m, wait_s);
    spread(stats_.e2e, p->e2e_s, m, wait_s);
    spread(stats_.queue, p->queue_s, m, wait_s);
    const auto multi = static_cast<std::uint64_t>(std::llround(static_cast<double>(m) * p->multi_token_fraction));
    spread(stats_.tpot, p->tpot_s, multi, 0.0);
  }
}

}  // namespace dcsim::models::inference
