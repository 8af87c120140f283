// The fluid resolution of an inference service (inference_service.hpp says what it does): the
// fleet advanced in segments between steps and fleet changes, from one replica's curve.

#include <algorithm>
#include <array>
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
  const ServingCurve*& curve = curve_by_pool_[pool];
  if (curve == nullptr) {
    CurveInputs in = curve_inputs_;
    in.pool = pool;
    curve = &curve_cache_->get(ServingCurveCache::key(config_.model, config_.engine, node_, in),
                               [&] { return build_serving_curve(cost_, config_.engine, in); });
  }
  return *curve;
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

double InferenceService::fluid_backlog_now() const {
  const double d = (sim_.now() - segment_.start).seconds();
  return std::max(0.0, segment_.backlog + (segment_.arrival_per_s - segment_.served_per_s) * d);
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
  // What the fleet is offered: the step's arrivals, and while requests wait at the gateway all it
  // can take (FIFO: a fleet behind serves at capacity until the backlog is gone, as replicas
  // handed a queue do at iteration level; its batch is full meanwhile, which HPA reads). The
  // segment ends when the backlog empties, if before the step does.
  if (g.drained_event.valid()) sim_.cancel(g.drained_event);
  g.drained_event = {};
  const bool behind = g.backlog > 0.0;
  const double offered = behind ? capacity : std::min(g.arrival_per_s, capacity);
  if (behind && capacity > g.arrival_per_s) {
    const sim::Time empty = now + sim::Time::ceil_from_seconds(g.backlog / (capacity - g.arrival_per_s));
    if (empty < g.step_end) {
      g.drained_event = sim_.at(empty, [this] {
        segment_.drained_event = {};
        fluid_reshape();
      });
    }
  }
  g.served_per_s = 0.0;
  g.groups.clear();
  // Only the replicas the last segment rated have rates to close (a fleet that scales all day
  // leaves thousands of gone replicas behind).
  for (const std::size_t i : g.rated) {
    Replica& r = replicas_[i];
    r.accrue(now);
    r.fluid_rate = {};
    r.fluid_load = {};
    r.fluid_u = -1.0;
  }
  g.rated = serving_;
  for (const std::size_t i : serving_) {
    Replica& r = replicas_[i];
    r.accrue(now);  // from now on (a replica new to the fleet had no rate)
    const double c = curve.capacity_per_s * r.clock;
    const double share = std::min(c, offered * router_->fluid_weight(c) / weights);
    const double u = share / c;
    // Its answers' own latencies (the gateway wait is added at close): at the load the stream
    // alone gives it. Draining a backlog fills its batch (its rates and loads are u's) but the
    // queue those answers sat in is the gateway's, not one at the replica, as at u.
    const double u_latency = behind ? std::min(u, g.arrival_per_s * router_->fluid_weight(c) / weights / c) : u;
    g.served_per_s += share;
    r.fluid_u = u;
    r.fluid_rate = curve.rates_at(u);
    if (!g.groups.empty() && g.groups.back().first == u_latency) {
      g.groups.back().second += share;
    } else {
      g.groups.emplace_back(u_latency, share);
    }
  }
  fluid_set_loads(0.0, 0, 0.0);
}

void InferenceService::fluid_draw_loads() {
  if (segment_.curve == nullptr || serving_.empty()) return;
  // One instant of the pool's measured fluctuation for the whole fleet (a balanced router moves
  // its replicas together), scaled to the fleet: the total's variance grows as the fleet
  // (serving_curve.hpp), so the mean's deviation shrinks as sqrt(pool / fleet).
  const std::size_t k = fluid_draws_.uniform_int(kCurveStrata);
  const double pick = fluid_draws_.uniform01();
  const double spread = std::sqrt(static_cast<double>(segment_.curve->pool) / static_cast<double>(serving_.size()));
  fluid_set_loads(spread, k, pick);
}

void InferenceService::fluid_set_loads(double spread, std::size_t k, double pick) {
  // Whole requests per replica, rounded with a carry across the fleet: the fleet's totals keep
  // their fractions (rounding each replica alike would move the fleet's mean in whole requests).
  double waiting = 0.0, running = 0.0;
  long long waiting_given = 0, running_given = 0;
  for (const std::size_t i : serving_) {
    Replica& r = replicas_[i];
    if (r.fluid_u < 0.0) continue;
    MeanLoad m = segment_.curve->load_at(r.fluid_u);
    if (spread > 0.0) {
      const MeanLoad d = segment_.curve->deviation_at(r.fluid_u, k, pick);
      m = {m.waiting + spread * d.waiting, m.running + spread * d.running,
           m.kv_used_fraction + spread * d.kv_used_fraction};
    }
    waiting += std::max(0.0, m.waiting);
    running += std::max(0.0, m.running);
    r.fluid_load.waiting = static_cast<int>(std::llround(waiting) - waiting_given);
    r.fluid_load.running = static_cast<int>(std::llround(running) - running_given);
    waiting_given += r.fluid_load.waiting;
    running_given += r.fluid_load.running;
    r.fluid_load.kv_used_fraction = std::clamp(m.kv_used_fraction, 0.0, 1.0);
  }
}

// O(groups x kCurveStrata): what the segment [start, now) delivered.
void InferenceService::fluid_close() {
  FluidSegment& g = segment_;
  const double d = (sim_.now() - g.start).seconds();
  if (d <= 0.0) return;
  const double arrived = g.arrival_per_s * d;
  const double served = std::min(g.served_per_s * d, g.backlog + arrived);
  double backlog_after = std::max(0.0, g.backlog + arrived - served);
  if (backlog_after < 1e-9) backlog_after = 0.0;  // drained (the end rounded to the nanosecond)
  // FIFO at the gateway: what is served now waited behind the mean backlog, drained at the
  // served rate (Little's law for the gateway queue).
  const double wait_s = g.served_per_s > 0.0 ? (g.backlog + backlog_after) / 2.0 / g.served_per_s : 0.0;
  fluid_issued_ += arrived;
  stats_.issued = static_cast<std::uint64_t>(fluid_issued_);
  const double scale = g.served_per_s * d > 0.0 ? served / (g.served_per_s * d) : 0.0;
  // The replicas' admission wait over the segment (queue_buildup.hpp), moved at the fleet's
  // served-weighted utilisation; each run of equal replicas takes it in proportion to its own
  // load's level. Cost: O(groups + log knots).
  const auto level_at = [&c = *g.curve](double u) {
    const ServingCurve::Bracket b = c.at(u);
    return (1.0 - b.f) * b.lo->queue_mean_s + b.f * b.hi->queue_mean_s;
  };
  double u_fleet = 0.0, rate_sum = 0.0;
  for (const auto& [u, rate] : g.groups) {
    u_fleet += u * rate;
    rate_sum += rate;
  }
  double fleet_wait = 0.0, fleet_level = 0.0;
  if (rate_sum > 0.0) {
    u_fleet /= rate_sum;
    const ServingCurve::Bracket b = g.curve->at(u_fleet);
    const FluidQueue::Segment q = FluidQueue::advance(queue_wait_s_, u_fleet, b.lo->buildup, b.hi->buildup, b.f, d);
    queue_wait_s_ = q.end_wait_s;
    fleet_wait = q.mean_wait_s;
    fleet_level = level_at(u_fleet);
  }
  for (const auto& [u, rate] : g.groups) {
    const double n = rate * d * scale;
    if (n <= 0.0) continue;
    const ServingCurve::Bracket b = g.curve->at(u);
    const double own_wait = fleet_level > 0.0 ? level_at(u) * fleet_wait / fleet_level : fleet_wait;
    const ServingCurve::Bracket lat = g.curve->at(g.curve->latency_utilization(u, own_wait));
    const auto mix = [](const ServingCurve::Bracket& x, double lo, double hi) { return (1.0 - x.f) * lo + x.f * hi; };
    const double rejected = n * mix(b, b.lo->rejected_fraction, b.hi->rejected_fraction);
    const double answered = n - rejected;
    const std::uint64_t whole = whole_gain(fluid_answered_, fluid_answered_ + answered);
    fluid_answered_ += answered;
    fluid_rejected_ += rejected;
    fluid_met_ += answered * mix(lat, lat.lo->sla_met_fraction(wait_s), lat.hi->sla_met_fraction(wait_s));
    fluid_add_latencies(lat, b, whole, wait_s);
    const double out = answered * g.curve->mean_output_tokens;
    stats_.output_tokens += out;
    stats_.input_tokens += answered * g.curve->mean_input_tokens;
    sampled_output_tokens_ += out;
    stats_.in_system_seconds += answered * (mix(lat, lat.lo->mean_e2e_s, lat.hi->mean_e2e_s) + wait_s);
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

void InferenceService::fluid_add_latencies(const ServingCurve::Bracket& waited, const ServingCurve::Bracket& load,
                                           std::uint64_t count, double wait_s) {
  if (count == 0) return;
  // The two neighbours' shares, then kCurveStrata equal strata of each: stratum k of m requests
  // gets floor((k + 1) m / K) - floor(k m / K) of them, so the counts add up to m exactly.
  const auto spread = [](LatencyHistogram& h, const std::vector<double>& strata, std::uint64_t m, double shift) {
    const std::uint64_t k_total = strata.size();
    for (std::uint64_t k = 0; k < k_total; ++k) {
      const std::uint64_t c = (k + 1) * m / k_total - k * m / k_total;
      if (c > 0) h.add(strata[k] + shift, c);
    }
  };
  const auto parts = [count](const ServingCurve::Bracket& b) {
    const auto lo_count = static_cast<std::uint64_t>(std::llround(static_cast<double>(count) * (1.0 - b.f)));
    return std::array<std::pair<const CurvePoint*, std::uint64_t>, 2>{{{b.lo, lo_count}, {b.hi, count - lo_count}}};
  };
  // What waited for admission follows the queue the fleet has built (`waited`); TPOT, set by the
  // batch, which settles within a few answers, follows the load itself.
  for (const auto& [p, m] : parts(waited)) {
    if (m == 0) continue;
    spread(stats_.ttft, p->ttft_s, m, wait_s);
    spread(stats_.e2e, p->e2e_s, m, wait_s);
    spread(stats_.queue, p->queue_s, m, wait_s);
  }
  for (const auto& [p, m] : parts(load)) {
    const auto multi = static_cast<std::uint64_t>(std::llround(static_cast<double>(m) * p->multi_token_fraction));
    if (multi > 0) spread(stats_.tpot, p->tpot_s, multi, 0.0);
  }
}

}  // namespace dcsim::models::inference
