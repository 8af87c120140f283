// A measured curve's lookups (a load's bracket, rates, loads, fluctuation, the load a queue wait
// picks) and the cache of curves by configuration. Measuring one is serving_curve_measurement.cpp.
#include "models/inference/serving_curve.hpp"

#include <algorithm>
#include <sstream>

namespace dcsim::models::inference {

ReplicaRates ReplicaRates::scaled(double k) const {
  return {busy_s * k,     compute_s * k,      memory_s * k,      communication_s * k, iterations * k,
          preemptions * k, prefill_tokens * k, decode_tokens * k, batch_sum * k};
}

ReplicaRates ReplicaRates::plus(const ReplicaRates& o) const {
  return {busy_s + o.busy_s,
          compute_s + o.compute_s,
          memory_s + o.memory_s,
          communication_s + o.communication_s,
          iterations + o.iterations,
          preemptions + o.preemptions,
          prefill_tokens + o.prefill_tokens,
          decode_tokens + o.decode_tokens,
          batch_sum + o.batch_sum};
}

ReplicaCounters ReplicaRates::counters() const {
  ReplicaCounters c;
  c.busy_s = busy_s;
  c.compute_s = compute_s;
  c.memory_s = memory_s;
  c.communication_s = communication_s;
  c.iterations = static_cast<std::uint64_t>(std::max(0.0, iterations));
  c.preemptions = static_cast<std::uint64_t>(std::max(0.0, preemptions));
  c.prefill_tokens = prefill_tokens;
  c.decode_tokens = decode_tokens;
  c.batch_sum = batch_sum;
  return c;
}

double CurvePoint::sla_met_fraction(double wait_s) const {
  if (slack_s.empty()) return 0.0;
  const auto it = std::lower_bound(slack_s.begin(), slack_s.end(), wait_s);
  return static_cast<double>(slack_s.end() - it) / static_cast<double>(slack_s.size());
}

ServingCurve::Bracket ServingCurve::at(double u) const {
  Bracket b;
  if (points.empty()) return b;
  if (u <= points.front().utilization) {
    b.lo = b.hi = &points.front();
    b.scale = std::max(0.0, u) / points.front().utilization;
    return b;
  }
  if (u >= points.back().utilization) {
    b.lo = b.hi = &points.back();
    return b;
  }
  // 14 points: a linear scan is as fast as a search.
  std::size_t i = 0;
  while (points[i + 1].utilization <= u) ++i;
  b.lo = &points[i];
  b.hi = &points[i + 1];
  b.f = (u - b.lo->utilization) / (b.hi->utilization - b.lo->utilization);
  return b;
}

ReplicaRates ServingCurve::rates_at(double u) const {
  const Bracket b = at(u);
  if (b.lo == nullptr) return {};
  return b.lo->rates.scaled(1.0 - b.f).plus(b.hi->rates.scaled(b.f)).scaled(b.scale);
}

MeanLoad ServingCurve::load_at(double u) const {
  if (points.empty()) return {};
  const CurvePoint& last = points.back();
  if (u > last.utilization) {
    // Waiting beyond the heaviest point is the gateway's backlog (the service counts it).
    const double f = std::min(1.0, (u - last.utilization) / (1.0 - last.utilization));
    return {last.waiting, (1.0 - f) * last.running + f * saturated.running,
            (1.0 - f) * last.kv_used_fraction + f * saturated.kv_used_fraction};
  }
  const Bracket b = at(u);
  const auto mix = [&b](double lo, double hi) { return ((1.0 - b.f) * lo + b.f * hi) * b.scale; };
  return {mix(b.lo->waiting, b.hi->waiting), mix(b.lo->running, b.hi->running),
          mix(b.lo->kv_used_fraction, b.hi->kv_used_fraction)};
}

double ServingCurve::drain_s_at(double u) const {
  const Bracket b = at(u);
  if (b.lo == nullptr) return 0.0;
  return ((1.0 - b.f) * b.lo->drain_s + b.f * b.hi->drain_s) * b.scale;
}

MeanLoad ServingCurve::deviation_at(double u, std::size_t k, double pick) const {
  if (points.empty()) return {};
  const CurvePoint* p = nullptr;
  double scale = 1.0;
  if (u > points.back().utilization) {
    p = &points.back();
    scale = std::max(0.0, (1.0 - u) / (1.0 - p->utilization));  // a full batch stays full
  } else {
    const Bracket b = at(u);
    p = pick < b.f ? b.hi : b.lo;
    scale = b.scale;
  }
  if (p->pool_deviations.empty()) return {};
  const MeanLoad& d = p->pool_deviations[k % p->pool_deviations.size()];
  return {d.waiting * scale, d.running * scale, d.kv_used_fraction * scale};
}

double ServingCurve::latency_utilization(double u, double wait_s) const {
  if (points.empty()) return u;
  const auto wait_at = [this](std::size_t i) { return points[i].queue_mean_s; };
  // i: the heaviest point at or below u (0 below the lightest point, whose wait holds there).
  std::size_t i = 0;
  while (i + 1 < points.size() && points[i + 1].utilization <= u) ++i;
  const Bracket b = at(u);
  const double level = b.lo == nullptr ? 0.0 : (1.0 - b.f) * b.lo->queue_mean_s + b.f * b.hi->queue_mean_s;
  if (wait_s == level) return u;
  const auto within = [wait_s](double from_u, double from_w, double to_u, double to_w) {
    return from_u + (to_u - from_u) * (wait_s - from_w) / (to_w - from_w);
  };
  if (wait_s < level) {
    // Down from u: the first span whose lower end waits no more than wait_s.
    double hi_u = std::min(u, points.back().utilization), hi_w = level;
    for (std::size_t k = i + 1; k-- > 0;) {
      const double lo_w = wait_at(k), lo_u = points[k].utilization;
      if (lo_w <= wait_s) return lo_w == hi_w ? hi_u : within(lo_u, lo_w, hi_u, hi_w);
      hi_u = lo_u;
      hi_w = lo_w;
    }
    return std::min(u, points.front().utilization);  // below the lightest point: its latencies
  }
  // Up from u: the first span whose upper end waits at least wait_s.
  double lo_u = std::min(u, points.back().utilization), lo_w = level;
  for (std::size_t k = i + 1; k < points.size(); ++k) {
    const double hi_w = wait_at(k), hi_u = points[k].utilization;
    if (hi_w >= wait_s) return hi_w == lo_w ? lo_u : within(lo_u, lo_w, hi_u, hi_w);
    lo_u = hi_u;
    lo_w = hi_w;
  }
  return std::max(u, points.back().utilization);
}

std::string ServingCurveCache::key(const workload::TransformerModel& m, const EngineConfig& e,
                                   const hardware::NodeSpec& node, const CurveInputs& in) {
  std::ostringstream k;
  k.precision(17);
  const auto length = [&k](const LengthDistribution& d) {
    k << static_cast<int>(d.kind) << ',' << d.value << ',' << d.median << ',' << d.sigma << ',' << d.min << ','
      << d.max << ',' << d.samples.size() << ':';
    for (const int s : d.samples) k << s << ',';
    k << ';';
  };
  k << m.name << ',' << m.layers << ',' << m.hidden << ',' << m.heads << ',' << m.kv_heads << ',' << m.ffn_hidden << ','
    << m.vocab << ',' << m.gated_mlp << ';' << e.tp << ',' << e.pp << ',' << static_cast<int>(e.weights) << ','
    << static_cast<int>(e.kv_cache) << ',' << e.max_batch << ',' << e.max_batched_tokens << ',' << e.chunked_prefill
    << ',' << static_cast<int>(e.preemption) << ',' << e.memory_fraction << ',' << e.swap_bytes_per_s << ';'
    << node.preset << ',' << node.gpu.model << ',' << node.gpus << ';' << e.software.fingerprint() << ';'
    << static_cast<int>(e.admission) << ';';
  if (m.moe.enabled()) {  // an MoE shape and its expert parallelism (dense keys stay as they were)
    const workload::MoeShape& x = m.moe;
    k << "moe:" << x.experts << ',' << x.experts_per_token << ',' << x.shared_experts << ',' << x.expert_ffn_hidden
      << ',' << x.dense_layers << ',' << x.layer_step << ',' << x.capacity_factor << ',' << m.head_size << ','
      << m.mla.q_lora_rank << ',' << m.mla.kv_lora_rank << ',' << m.mla.rope_head_dim << ',' << e.ep << ','
      << e.expert_skew << ';';
  }
  length(in.input_tokens);
  length(in.output_tokens);
  k << in.gateway.rtt.ns() << ',' << in.gateway.bandwidth_bps << ',' << in.gateway.bytes_per_token << ';'
    << in.sla.ttft_s << ',' << in.sla.tpot_s << ',' << in.sla.e2e_s << ';' << in.seed << ';' << in.pool << ','
    << in.balanced;
  return k.str();
}

const ServingCurve& ServingCurveCache::get(const std::string& key, const std::function<ServingCurve()>& build) {
  auto it = curves_.find(key);
  if (it == curves_.end()) it = curves_.emplace(key, std::make_unique<ServingCurve>(build())).first;
  return *it->second;
}

}  // namespace dcsim::models::inference
