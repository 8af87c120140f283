// Measuring a configuration's curve (serving_curve.hpp): one replica's saturated capacity, then
// each utilisation point, by the iteration-level engine itself (ServingReplica over the cost
// model) on a private simulator clock. The curve's lookups and its cache are serving_curve.cpp.

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/inference/request_stream.hpp"
#include "models/inference/serving_curve.hpp"
#include "sim/error.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::inference {

namespace {

// One replica's pp virtual engines on a private clock; a request goes to the engine with the
// fewest requests (as InferenceService::Replica::submit).
class Probe {
 public:
  Probe(sim::Simulator& sim, const IterationCostModel& cost, const EngineConfig& engine,
        const ServingReplica::DoneFn& done) {
    for (int e = 0; e < engine.pp; ++e) {
      engines_.push_back(
          std::make_unique<ServingReplica>(sim, cost, engine, done, cost.memory().kv_capacity_tokens / engine.pp));
    }
  }
  void submit(const ReplicaRequest& r) {
    auto best = engines_.begin();
    for (auto it = engines_.begin(); it != engines_.end(); ++it) {
      if ((*it)->outstanding() < (*best)->outstanding()) best = it;
    }
    (*best)->submit(r);
  }
  // load().outstanding(), O(pp) without the load's KV average: a balanced pool compares its
  // replicas' at every arrival, and the drain checks one's at every answer.
  int outstanding() const {
    int n = 0;
    for (const auto& e : engines_) n += e->outstanding();
    return n;
  }
  ReplicaCounters counters() const {
    ReplicaCounters t;
    for (const auto& e : engines_) t += e->counters();  // as InferenceService::Replica::counters
    return t;
  }
  ReplicaLoad load() const { return combined_load(engines_); }
  std::uint64_t iterations() const {
    std::uint64_t n = 0;
    for (const auto& e : engines_) n += e->counters().iterations;
    return n;
  }

 private:
  std::vector<std::unique_ptr<ServingReplica>> engines_;
};

// `size` replicas behind a router: load-aware (`balanced`: the fewest requests, ties to the
// lowest index, as least_outstanding) or in turn (round_robin). A fleet's replicas fed by a
// load-aware router idle and queue less than one replica fed a Poisson stream at the same load.
class Pool {
 public:
  Pool(int size, bool balanced, sim::Simulator& sim, const IterationCostModel& cost, const EngineConfig& engine,
       const ServingReplica::DoneFn& done)
      : balanced_(balanced) {
    for (int i = 0; i < size; ++i) replicas_.push_back(std::make_unique<Probe>(sim, cost, engine, done));
  }
  void submit(const ReplicaRequest& r) {
    std::size_t pick = next_++ % replicas_.size();
    if (balanced_) {
      pick = 0;
      for (std::size_t i = 1; i < replicas_.size(); ++i) {
        if (replicas_[i]->outstanding() < replicas_[pick]->outstanding()) pick = i;
      }
    }
    replicas_[pick]->submit(r);
  }
  ReplicaCounters counters() const {  // summed over the pool
    ReplicaCounters t;
    for (const auto& p : replicas_) t += p->counters();
    return t;
  }
  // counters().iterations alone: the budget's guard reads it at every answer.
  std::uint64_t iterations() const {
    std::uint64_t n = 0;
    for (const auto& p : replicas_) n += p->iterations();
    return n;
  }
  ReplicaLoad load(std::size_t i) const { return replicas_[i % replicas_.size()]->load(); }
  int outstanding(std::size_t i) const { return replicas_[i]->outstanding(); }
  MeanLoad mean_load() const {
    MeanLoad m;
    for (const auto& p : replicas_) {
      const ReplicaLoad l = p->load();
      m.waiting += l.waiting;
      m.running += l.running;
      m.kv_used_fraction += l.kv_used_fraction;
    }
    const double n = static_cast<double>(replicas_.size());
    return {m.waiting / n, m.running / n, m.kv_used_fraction / n};
  }
  std::size_t size() const { return replicas_.size(); }

 private:
  bool balanced_;
  std::size_t next_ = 0;
  std::vector<std::unique_ptr<Probe>> replicas_;
};

ReplicaRates rates_between(const ReplicaCounters& a, const ReplicaCounters& b, double seconds) {
  const double k = seconds > 0.0 ? 1.0 / seconds : 0.0;
  return ReplicaRates{b.busy_s - a.busy_s,
                      b.compute_s - a.compute_s,
                      b.memory_s - a.memory_s,
                      b.communication_s - a.communication_s,
                      static_cast<double>(b.iterations - a.iterations),
                      static_cast<double>(b.preemptions - a.preemptions),
                      b.prefill_tokens - a.prefill_tokens,
                      b.decode_tokens - a.decode_tokens,
                      b.batch_sum - a.batch_sum}
      .scaled(k);
}

std::vector<double> strata(std::vector<double> values) {
  std::vector<double> out(kCurveStrata, 0.0);
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  for (int k = 0; k < kCurveStrata; ++k) {
    const auto i = static_cast<std::size_t>((k + 0.5) / kCurveStrata * n);
    out[static_cast<std::size_t>(k)] = values[std::min(i, values.size() - 1)];
  }
  return out;
}

struct Sample {
  double ttft_s, tpot_s, e2e_s, queue_s;
  int output_tokens;
};

double gateway_in_s(const GatewayConfig& g, int input_tokens) {
  return g.rtt.seconds() / 2.0 + input_tokens * g.bytes_per_token * 8.0 / g.bandwidth_bps;
}

double gateway_out_s(const GatewayConfig& g) {
  return g.rtt.seconds() / 2.0 + g.bytes_per_token * 8.0 / g.bandwidth_bps;
}

// Saturated throughput: a closed loop of `concurrency` requests, each replaced when it ends.
// Cost: about (warm + measured) x mean output / mean batch iterations.
// Also the replica's mean load over the measured requests (`saturated`), seen as each new request
// joins (the loop full again).
double measure_capacity(const IterationCostModel& cost, const EngineConfig& engine, const CurveInputs& in,
                        double& iterations, MeanLoad& saturated) {
  sim::Simulator sim;
  sim::RandomStream lengths(in.seed, "fluid-curve/capacity", "lengths");
  const int concurrency = 2 * engine.max_batch * engine.attention_dp() * engine.pp;
  const int warm = concurrency, measured = std::max(4 * concurrency, 1000);
  int answered = 0, sent = 0, rejected = 0;
  double t_warm = 0.0, t_end = 0.0;
  std::unique_ptr<Probe> probe;
  MeanLoad sum;
  int seen = 0;
  const auto send = [&] {
    ReplicaRequest r;
    r.id = static_cast<std::uint64_t>(sent++);
    r.input_tokens = draw_length(in.input_tokens, lengths);
    r.output_tokens = draw_length(in.output_tokens, lengths);
    r.issued = r.arrived = sim.now();
    probe->submit(r);
    if (answered >= warm) {
      const ReplicaLoad l = probe->load();
      sum = {sum.waiting + l.waiting, sum.running + l.running, sum.kv_used_fraction + l.kv_used_fraction};
      ++seen;
    }
  };
  probe = std::make_unique<Probe>(sim, cost, engine, [&](const ReplicaOutcome& o) {
    if (o.rejected) {
      if (++rejected > 10 * measured) sim.stop();  // nothing this replica can answer
    } else if (++answered == warm) {
      t_warm = sim.now().seconds();
    } else if (answered == warm + measured) {
      t_end = sim.now().seconds();
      sim.stop();
      return;
    }
    if (static_cast<double>(probe->iterations()) > kCurveIterationBudget / 4) {
      sim.stop();
      return;
    }
    sim.after(sim::Time::zero(), [&send] { send(); });  // not from inside the engine's callback
  });
  for (int i = 0; i < concurrency; ++i) send();
  sim.run();
  iterations += static_cast<double>(probe->counters().iterations);
  if (t_end <= t_warm) {
    throw sim::ConfigError("resolution",
                           "fluid: the iteration-level engine could not measure one replica's capacity within " +
                               std::to_string(static_cast<long long>(kCurveIterationBudget / 4)) +
                               " iterations (requests that never fit its KV cache, or answers too long): serve this "
                               "service at resolution \"iteration\"");
  }
  saturated = {sum.waiting / seen, sum.running / seen, sum.kv_used_fraction / seen};
  return measured / (t_end - t_warm);
}

// One point: Poisson arrivals at `rate_per_s`; after `warm` requests, the next `requests` are
// measured. Cost: about warm + requests times the mean output over the mean batch iterations,
// stopped at `budget` iterations.
struct PointRun {
  PointRun(const IterationCostModel& cost, const EngineConfig& engine, const CurveInputs& in_, double rate_per_s,
           const std::string& path, int requests_, double budget_)
      : in(in_), requests(requests_), budget(budget_) {
    arrivals.kind = RequestStreamConfig::Kind::kPoisson;
    arrivals.rate_per_s = rate_per_s * in.pool;
    arrivals.input_tokens = in.input_tokens;
    arrivals.output_tokens = in.output_tokens;
    stream = std::make_unique<RequestStream>(arrivals, in.seed, path);
    first = static_cast<std::uint64_t>(std::max(50, requests / 5));
    last = first + static_cast<std::uint64_t>(requests);
    out_s = gateway_out_s(in.gateway);
    samples.reserve(static_cast<std::size_t>(requests));
    probe = std::make_unique<Pool>(std::max(1, in.pool), in.balanced, sim, cost, engine,
                                   [this](const ReplicaOutcome& o) { on_done(o); });
  }
  void run() {
    issue();
    sim.run();
    if (t1 < 0.0) {  // stopped by the guard before the window closed
      c1 = probe->counters();
      t1 = sim.now().seconds();
    }
    drain();
  }
  // No more arrivals: how long each replica takes to finish what it holds (what a replica told
  // to drain keeps its GPUs for), their mean. Cost: about one answer's iterations.
  void drain() {
    draining = true;
    const double from = sim.now().seconds();
    empty_at.assign(probe->size(), -1.0);
    note_empty();
    sim.run();
    double sum = 0.0;
    for (const double t : empty_at) sum += (t < 0.0 ? sim.now().seconds() : t) - from;  // cut by the guard
    drain_s = sum / static_cast<double>(probe->size());
  }
  void note_empty() {
    for (std::size_t i = 0; i < empty_at.size(); ++i) {
      if (empty_at[i] < 0.0 && probe->outstanding(i) == 0) empty_at[i] = sim.now().seconds();
    }
  }
  std::uint64_t seen() const { return std::min<std::uint64_t>(next_id > first ? next_id - first : 0, last - first); }

  void on_done(const ReplicaOutcome& o) {
    if (!o.rejected && o.request.id < first + kCurveLatencyRequests) {  // the build-up, from the first arrival
      buildup.emplace_back(o.request.arrived.seconds(), (o.admitted - o.request.arrived).seconds());
    }
    if (o.request.id >= first && o.request.id < last) {
      if (o.rejected) {
        ++rejected;
      } else if (o.request.id < first + kCurveLatencyRequests) {
        window_end_s = std::max(window_end_s, o.request.arrived.seconds());
        const double in_s = gateway_in_s(in.gateway, o.request.input_tokens);
        const int n = o.request.output_tokens;
        samples.push_back({(o.first_token - o.request.arrived).seconds() + in_s + out_s,
                           n > 1 ? (o.last_token - o.first_token).seconds() / (n - 1) : 0.0,
                           (o.last_token - o.request.arrived).seconds() + in_s + out_s,
                           (o.admitted - o.request.arrived).seconds(), n});
      }
      if (++done == requests) sim.stop();
    }
    if (draining) note_empty();
    // The guard: a point past its share of the budget keeps what it measured.
    if (static_cast<double>(probe->iterations()) > budget) sim.stop();
  }
  void issue() {
    if (draining) return;
    const auto r = stream->next();
    if (!r) return;
    sim.at(std::max(r->arrival, sim.now()), [this, r = *r] { arrive(r); });
  }
  void arrive(const TraceRequest& r) {
    if (draining) return;
    ReplicaRequest q;
    q.id = next_id++;
    q.input_tokens = r.input_tokens;
    q.output_tokens = r.output_tokens;
    q.issued = q.arrived = sim.now();
    if (q.id == first) {
      c0 = probe->counters();
      t0 = sim.now().seconds();
    }
    if (q.id == last) {
      c1 = probe->counters();
      t1 = sim.now().seconds();
    }
    if (q.id >= first && q.id < last) {
      const ReplicaLoad l = probe->load(q.id);  // one replica's, as this Poisson arrival sees it
      if (q.id < first + kCurveLatencyRequests) {
        waiting += l.waiting;
        ++queue_seen;
      }
      running += l.running;
      kv += l.kv_used_fraction;
      pool_loads.push_back(probe->mean_load());
    }
    probe->submit(q);
    issue();
  }

  const CurveInputs& in;
  int requests;
  double budget;
  RequestStreamConfig arrivals;
  std::unique_ptr<RequestStream> stream;
  sim::Simulator sim;
  std::unique_ptr<Pool> probe;
  std::uint64_t first = 0, last = 0, next_id = 0;
  double out_s = 0.0;
  std::vector<Sample> samples;
  std::vector<std::pair<double, double>> buildup;  // (arrival age, admission wait) up to the window's end
  double window_end_s = 0.0;                       // the latest arrival among the measured answers
  std::vector<MeanLoad> pool_loads;
  int rejected = 0, done = 0;
  double queue_seen = 0.0;  // arrivals whose waiting was counted
  double waiting = 0.0, running = 0.0, kv = 0.0;
  ReplicaCounters c0, c1;
  double t0 = 0.0, t1 = -1.0;
  bool draining = false;
  std::vector<double> empty_at;  // when each replica of the pool emptied, once draining (< 0: not yet)
  double drain_s = 0.0;
};

}  // namespace

ServingCurve build_serving_curve(const IterationCostModel& cost, const EngineConfig& engine, const CurveInputs& in) {
  ServingCurve curve;
  curve.pool = std::max(1, in.pool);
  {
    // The lengths' means from many draws of a private stream (the service's own draws are the
    // same distributions: its output tokens converge to arrivals x this mean).
    sim::RandomStream lengths(in.seed, "fluid-curve/means", "lengths");
    constexpr int kDraws = 200000;
    double input = 0.0, output = 0.0;
    for (int i = 0; i < kDraws; ++i) {
      input += draw_length(in.input_tokens, lengths);
      output += draw_length(in.output_tokens, lengths);
    }
    curve.mean_input_tokens = input / kDraws;
    curve.mean_output_tokens = output / kDraws;
  }
  curve.capacity_per_s = measure_capacity(cost, engine, in, curve.iterations, curve.saturated);
  const double per_point = (kCurveIterationBudget - curve.iterations) / static_cast<double>(kCurveUtilizations.size());
  // Each point gets about the same iterations (kCurvePointIterations, at most half its share of
  // the budget: the warm-up and the tail after the window take the rest), so the requests it
  // measures grow with the load: a light load iterates about once per output token of each
  // request, a heavy one shares each iteration among its batch. Heavy loads need the requests:
  // their loads and latencies move slowly (a batch near full relaxes over many answers) and
  // steeply with u, where HPA holds a fleet. Each point's iterations per request are
  // estimated from the point before.
  const double per_point_iterations = std::min(per_point / 2.0, kCurvePointIterations);
  double iterations_per_request = std::max(1.0, curve.mean_output_tokens);
  for (std::size_t k = 0; k < kCurveUtilizations.size(); ++k) {
    const double u = kCurveUtilizations[k];
    const int requests =
        static_cast<int>(std::clamp(per_point_iterations / iterations_per_request,
                                    static_cast<double>(kCurveMinRequests), static_cast<double>(kCurveMaxRequests)));
    PointRun run(cost, engine, in, u * curve.capacity_per_s, "fluid-curve/" + std::to_string(k), requests, per_point);
    run.run();
    curve.iterations += static_cast<double>(run.probe->counters().iterations);
    iterations_per_request = std::max(1.0, static_cast<double>(run.probe->counters().iterations) /
                                               static_cast<double>(std::max<std::uint64_t>(1, run.next_id)));
    const std::vector<Sample>& samples = run.samples;
    const int rejected = run.rejected;
    const double t0 = run.t0, t1 = run.t1;
    const ReplicaCounters &c0 = run.c0, &c1 = run.c1;
    const double seen = static_cast<double>(run.seen());
    const double waiting = run.waiting, running = run.running, kv = run.kv;
    if (samples.size() < static_cast<std::size_t>(kCurveMinRequests) / 4 || t1 <= t0 || seen == 0) {
      throw sim::ConfigError("resolution", "fluid: the iteration-level engine answered only " +
                                               std::to_string(samples.size()) + " requests at utilisation " +
                                               std::to_string(u) + " within its budget of " +
                                               std::to_string(static_cast<long long>(per_point)) +
                                               " iterations: serve this service at resolution \"iteration\"");
    }
    CurvePoint p;
    p.utilization = u;
    p.rates = rates_between(c0, c1, t1 - t0).scaled(1.0 / static_cast<double>(run.probe->size()));
    p.waiting = run.queue_seen > 0.0 ? waiting / run.queue_seen : 0.0;
    p.running = running / seen;
    p.load.waiting = static_cast<int>(std::lround(p.waiting));
    p.load.running = static_cast<int>(std::lround(p.running));
    p.load.kv_used_fraction = p.kv_used_fraction = kv / seen;
    MeanLoad sum;
    for (int s = 0; s < kCurveStrata; ++s) {
      const auto i = static_cast<std::size_t>((s + 0.5) / kCurveStrata * static_cast<double>(run.pool_loads.size()));
      const MeanLoad& l = run.pool_loads[std::min(i, run.pool_loads.size() - 1)];
      p.pool_deviations.push_back(l);
      sum = {sum.waiting + l.waiting, sum.running + l.running, sum.kv_used_fraction + l.kv_used_fraction};
    }
    for (MeanLoad& d : p.pool_deviations) {
      d = {d.waiting - sum.waiting / kCurveStrata, d.running - sum.running / kCurveStrata,
           d.kv_used_fraction - sum.kv_used_fraction / kCurveStrata};
    }
    const double answered = static_cast<double>(samples.size());
    p.rejected_fraction = rejected / (answered + rejected);
    p.drain_s = run.drain_s;
    std::vector<double> ttft, tpot, e2e, queue;
    double e2e_sum = 0.0, queue_sum = 0.0;
    for (const Sample& s : samples) {
      ttft.push_back(s.ttft_s);
      if (s.output_tokens > 1) tpot.push_back(s.tpot_s);
      e2e.push_back(s.e2e_s);
      queue.push_back(s.queue_s);
      e2e_sum += s.e2e_s;
      queue_sum += s.queue_s;
      double slack = std::numeric_limits<double>::max();
      if (in.sla.ttft_s > 0.0) slack = std::min(slack, in.sla.ttft_s - s.ttft_s);
      if (in.sla.e2e_s > 0.0) slack = std::min(slack, in.sla.e2e_s - s.e2e_s);
      if (in.sla.tpot_s > 0.0 && s.output_tokens > 1 && s.tpot_s > in.sla.tpot_s) slack = -1.0;
      p.slack_s.push_back(slack);
    }
    std::sort(p.slack_s.begin(), p.slack_s.end());
    p.multi_token_fraction = static_cast<double>(tpot.size()) / answered;
    p.mean_e2e_s = e2e_sum / answered;
    p.queue_mean_s = queue_sum / answered;
    p.buildup = QueueBuildup(std::move(run.buildup), run.window_end_s, p.queue_mean_s);
    p.ttft_s = strata(std::move(ttft));
    p.tpot_s = strata(std::move(tpot));
    p.e2e_s = strata(std::move(e2e));
    p.queue_s = strata(std::move(queue));
    curve.points.push_back(std::move(p));
  }
  return curve;
}

}  // namespace dcsim::models::inference
