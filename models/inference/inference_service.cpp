#include "models/inference/inference_service.hpp"

#include <algorithm>
#include <cmath>

#include "models/collective/collective_estimator.hpp"
#include "sim/error.hpp"

namespace dcsim::models::inference {

namespace {

std::function<double(double)> tp_all_reduce(const hardware::NodeSpec& node, int tp,
                                            const collective::CollectiveRegistry& collectives,
                                            const workload::SoftwareStack& software) {
  if (tp <= 1) return [](double) { return 0.0; };
  auto system = std::make_shared<collective::CollectiveSystem>(collective::make_collective_system(node, 1, {}, tp));
  auto tuning = std::make_shared<collective::CollectiveTuning>(software.collective_tuning());
  return [system, tuning, &collectives](double bytes) {
    return collective::estimate_collective(collectives, collective::CollectiveOp::kAllReduce, bytes, *system, *tuning)
        .time_s;
  };
}

template <class Registry>
const typename Registry::Entry& entry_or_error(const Registry& registry, const std::string& name, const char* field) {
  const auto* e = registry.find(name);
  if (e == nullptr) throw sim::ConfigError(field, "is not a registered " + registry.kind() + ", got '" + name + "'");
  return *e;
}

}  // namespace

InferenceService::InferenceService(const ServiceConfig& config, const hardware::NodeSpec& node,
                                   const power::GpuPhasePowerConfig& gpu_power, const ServiceRegistries& registries,
                                   std::uint64_t seed, sim::Simulator& sim, sim::TraceSink& sink, ReplicaHost& host,
                                   KvTransport* transport, ServingCurveCache* curves)
    : config_(config),
      prefix_("inference/" + config.name + "/"),
      node_(node),
      activities_(power::phase_activities(gpu_power, node.gpu)),
      cost_(config_.model, config_.engine, node_,
            tp_all_reduce(node_, config_.engine.tp, registries.collectives, config_.engine.software)),
      router_(entry_or_error(registries.routers, config_.router, "router").factory(config_.router_params)),
      sim_(sim),
      sink_(sink),
      host_(host),
      stream_(config_.requests, seed, "inference/" + config.name),
      fluid_draws_(seed, "inference/" + config.name, "fluid_loads") {
  if (transport != nullptr) {
    transport_ = transport;
  } else {
    // Every TP GPU's shard over its own NIC (rail-optimised: NIC i serves GPU i).
    const double nics = std::min(config_.engine.tp, std::max(1, node_.compute_nics));
    own_transport_ = std::make_unique<DirectKvTransport>(sim_, nics * node_.compute_nic_bandwidth_bytes_per_s());
    transport_ = own_transport_.get();
  }
  if (runs_fluid(config_)) {
    // A ConfigError here for what has no fluid form (the scenario layer says so first, with the key).
    if (config_.prefill_replicas > 0) {
      throw sim::ConfigError("resolution", "fluid cannot serve disaggregated prefill and decode (each request's KV "
                                           "moves between two replicas): use resolution iteration");
    }
    if (config_.requests.kind == RequestStreamConfig::Kind::kTrace) {
      throw sim::ConfigError("resolution", "fluid serves rates, not a trace's requests: use resolution iteration");
    }
    if (config_.requests.kind == RequestStreamConfig::Kind::kClosedLoop) {
      throw sim::ConfigError("resolution", "fluid serves rates, not closed-loop clients: use resolution iteration");
    }
    if (config_.fluid_step <= sim::Time::zero()) throw sim::ConfigError("fluid_step", "expected a positive step");
    curve_inputs_ = CurveInputs{config_.requests.input_tokens,
                                config_.requests.output_tokens,
                                config_.gateway,
                                config_.sla,
                                seed,
                                1,
                                router_->fluid_weight(2.0) != router_->fluid_weight(1.0)};
    if (curves == nullptr) {
      own_curves_ = std::make_unique<ServingCurveCache>();
      curves = own_curves_.get();
    }
    curve_cache_ = curves;
    curve_ = &fluid_curve_for(static_cast<std::size_t>(config_.replicas));  // at start-up
  }
  if (!config_.autoscaler.empty()) {
    autoscaler_ =
        entry_or_error(registries.autoscalers, config_.autoscaler, "autoscaler").factory(config_.autoscaler_params);
  }
  replicas_series_ = sink_.declare_series(prefix_ + "replicas", "", "replicas serving (not starting or draining)");
  queued_series_ = sink_.declare_series(prefix_ + "queued", "", "requests not yet admitted: at the gateway and queued at replicas");
  running_series_ = sink_.declare_series(prefix_ + "running", "", "requests admitted to a batch: prefilling or decoding");
  kv_series_ = sink_.declare_series(prefix_ + "kv_used_fraction", "", "KV cache in use, mean over serving replicas");
  busy_series_ = sink_.declare_series(prefix_ + "gpu_busy_fraction", "",
                                      "fraction of the last period the serving replicas were iterating");
  power_series_ = sink_.declare_series(prefix_ + "gpu_power_w", "W",
                                       "mean power of the replicas' GPUs over the last period (idle while held, plus "
                                       "each phase's dynamic power)");
  tokens_series_ = sink_.declare_series(prefix_ + "output_tokens_per_s", "1/s",
                                        "output tokens of the requests completed in the last period, per second");
  declare_latency_table();
}

InferenceService::~InferenceService() = default;

ReplicaLoad InferenceService::Replica::load() const {
  if (engines.empty()) return fluid_load;
  return combined_load(engines);
}

void InferenceService::Replica::accrue(sim::Time now) {
  fluid_accrued = fluid_accrued.plus(fluid_rate.scaled((now - fluid_since).seconds()));
  fluid_since = now;
}

ReplicaCounters InferenceService::Replica::counters(sim::Time now) const {
  if (engines.empty()) return fluid_accrued.plus(fluid_rate.scaled((now - fluid_since).seconds())).counters();
  ReplicaCounters total;
  for (const auto& e : engines) total += e->counters();
  return total;
}

bool InferenceService::Replica::idle() const {
  return std::all_of(engines.begin(), engines.end(), [](const auto& e) { return e->idle(); });
}

void InferenceService::Replica::submit(const ReplicaRequest& request) {
  auto best = engines.begin();
  for (auto it = engines.begin(); it != engines.end(); ++it) {
    if ((*it)->load().outstanding() < (*best)->load().outstanding()) best = it;
  }
  (*best)->submit(request);
}

std::vector<ReplicaRequest> InferenceService::Replica::stop() {
  std::vector<ReplicaRequest> left;
  for (auto& e : engines) {
    auto part = e->stop();
    left.insert(left.end(), part.begin(), part.end());
  }
  std::sort(left.begin(), left.end(), [](const ReplicaRequest& a, const ReplicaRequest& b) { return a.id < b.id; });
  return left;
}

double InferenceService::gateway_in_s(int input_tokens) const {
  const GatewayConfig& g = config_.gateway;
  return g.rtt.seconds() / 2.0 + input_tokens * g.bytes_per_token * 8.0 / g.bandwidth_bps;
}

double InferenceService::gateway_out_s() const {
  const GatewayConfig& g = config_.gateway;
  return g.rtt.seconds() / 2.0 + g.bytes_per_token * 8.0 / g.bandwidth_bps;
}

double InferenceService::startup_s() const {
  const double rate = config_.load_bytes_per_s > 0.0
                          ? config_.load_bytes_per_s
                          : node_.storage_nics * node_.storage_nic_bandwidth_bps / 8.0;
  return config_.allocation_delay.seconds() + (rate > 0.0 ? cost_.replica_weight_bytes() / rate : 0.0);
}

void InferenceService::start() {
  serving_count_since_ = sim_.now();
  for (int i = 0; i < config_.prefill_replicas; ++i) add_replica(true, true);
  for (int i = 0; i < config_.replicas; ++i) add_replica(true, false);
  if (curve_ != nullptr) {
    fluid_start();
  } else {
    issue_next();
  }
  if (config_.sample_every > sim::Time::zero()) {
    sample_event_ = sim_.after(config_.sample_every, [this] { on_sample(); });
  }
  if (autoscaler_) scale_event_ = sim_.after(autoscaler_->period(), [this] { on_autoscale(); });
}

void InferenceService::issue_next() {
  const auto next = stream_.next();
  if (!next) {
    stream_ended_ = true;
    return;
  }
  const TraceRequest r = *next;
  sim_.at(std::max(r.arrival, sim_.now()), [this, r] {
    issue(r);
    issue_next();
  });
}

void InferenceService::issue(const TraceRequest& r) {
  ReplicaRequest q;
  q.id = next_id_++;
  q.input_tokens = r.input_tokens;
  q.output_tokens = r.output_tokens;
  q.issued = sim_.now();
  ++stats_.issued;
  ++outstanding_;
  outstanding_issued_s_ += q.issued.seconds();
  const sim::Time in = sim::Time::from_seconds(gateway_in_s(q.input_tokens));
  if (in > sim::Time::zero()) {
    sim_.after(in, [this, q] { deliver(q); });
  } else {
    deliver(q);
  }
}

void InferenceService::follow_up(double answered_in_s) {
  if (config_.requests.kind != RequestStreamConfig::Kind::kClosedLoop) return;
  // The client reads its answer once the last token has crossed the gateway, thinks, asks again.
  const sim::Time at = sim_.now() + sim::Time::ceil_from_seconds(answered_in_s) + config_.requests.think_time;
  const auto next = stream_.follow_up(at);
  if (!next) return;
  ++thinking_;
  sim_.at(at, [this, r = *next] {
    --thinking_;
    issue(r);
  });
}

std::optional<std::size_t> InferenceService::route(const std::vector<std::size_t>& pool) {
  if (pool.empty()) return std::nullopt;
  loads_.clear();
  for (const std::size_t i : pool) loads_.push_back(replicas_[i].load());
  return pool[router_->choose(loads_)];
}

void InferenceService::deliver(const ReplicaRequest& request) {
  // Disaggregated: a request without its KV goes to the prefill pool, and only for its prompt.
  const bool to_prefill = config_.prefill_replicas > 0 && !request.kv_ready;
  const auto pick = route(to_prefill ? prefill_serving_ : serving_);
  if (!pick) {
    pending_.push_back(request);
    return;
  }
  ReplicaRequest r = request;
  r.arrived = sim_.now();
  if (to_prefill) {
    Prefilled& p = prefilled_[r.id];  // kept across a second prefill (its decode replica was lost)
    p.output_tokens = r.output_tokens;
    if (p.first_token == sim::Time::max()) p.arrived = r.arrived;
    r.output_tokens = 1;  // the prefill samples the first token, then the KV moves on
  }
  replicas_[*pick].submit(r);
}

void InferenceService::dispatch_pending() {
  // Each waiting request once: one whose pool has no replica yet waits again.
  for (std::size_t n = pending_.size(); n > 0 && !pending_.empty(); --n) {
    const ReplicaRequest r = pending_.front();
    pending_.pop_front();
    deliver(r);
  }
}

void InferenceService::on_done(std::size_t replica, const ReplicaOutcome& done) {
  if (replicas_[replica].prefill && !done.rejected) {
    on_prefilled(replica, done);
    return;
  }
  ReplicaOutcome o = done;
  if (const auto it = prefilled_.find(o.request.id); it != prefilled_.end()) {
    // Prefilled on another replica: the first token and the admission were there.
    if (!o.rejected) {
      o.first_token = it->second.first_token;
      o.admitted = it->second.admitted;
      o.request.arrived = it->second.arrived;
    }
    o.request.output_tokens = it->second.output_tokens;
    prefilled_.erase(it);
  }
  const double out = gateway_out_s();
  const double sent = o.request.issued.seconds();
  --outstanding_;
  outstanding_issued_s_ -= sent;
  follow_up(out);
  if (o.rejected) {
    ++stats_.rejected;
    stats_.in_system_seconds += sim_.now().seconds() + out - sent;
  } else {
    ++stats_.completed;
    const double ttft = o.first_token.seconds() + out - sent;
    const double e2e = o.last_token.seconds() + out - sent;
    const int n = o.request.output_tokens;
    const double tpot = n > 1 ? (o.last_token - o.first_token).seconds() / (n - 1) : 0.0;
    stats_.ttft.add(ttft);
    stats_.e2e.add(e2e);
    if (n > 1) stats_.tpot.add(tpot);
    stats_.queue.add((o.admitted - o.request.arrived).seconds());
    stats_.input_tokens += o.request.input_tokens;
    stats_.output_tokens += n;
    sampled_output_tokens_ += n;
    stats_.in_system_seconds += e2e;
    const SlaConfig& sla = config_.sla;
    if ((sla.ttft_s <= 0.0 || ttft <= sla.ttft_s) && (sla.tpot_s <= 0.0 || n <= 1 || tpot <= sla.tpot_s) &&
        (sla.e2e_s <= 0.0 || e2e <= sla.e2e_s)) {
      ++stats_.sla_met;
    }
  }
  Replica& r = replicas_[replica];
  if (r.state == ReplicaState::kDraining && r.load().outstanding() == 0) {
    // Not from inside the engine's own callback chain: it is still iterating.
    sim_.after(sim::Time::zero(), [this, replica] {
      if (replicas_[replica].state == ReplicaState::kDraining && replicas_[replica].load().outstanding() == 0 &&
          replicas_[replica].idle()) {
        retire(replica);
      }
    });
  }
}

std::size_t InferenceService::add_replica(bool initial, bool prefill) {
  const std::size_t index = replicas_.size();
  replicas_.emplace_back();
  live_.push_back(index);  // the largest index: live_ stays ascending
  replicas_[index].prefill = prefill;
  const int pp = curve_ != nullptr ? 0 : config_.engine.pp;  // fluid replicas have no engines
  replicas_[index].fluid_since = sim_.now();
  for (int e = 0; e < pp; ++e) {
    replicas_[index].engines.push_back(std::make_unique<ServingReplica>(
        sim_, cost_, config_.engine, [this, index](const ReplicaOutcome& o) { on_done(index, o); },
        cost_.memory().kv_capacity_tokens / pp));
  }
  if (!initial) ++stats_.scale_ups;
  const std::size_t handle =
      host_.acquire(config_.engine.gpus(),
                    {[this, index, initial] { on_allocated(index, initial); }, [this, index] { on_lost(index); },
                     [this, index](double f) {
                       const bool moved = f != replicas_[index].clock;  // else the node's power moved, not its clock
                       replicas_[index].clock = f;
                       for (auto& e : replicas_[index].engines) e->set_clock_factor(f);
                       if (curve_ != nullptr && moved) fluid_reshape();
                     }});
  replicas_[index].handle = handle;
  return index;
}

void InferenceService::on_allocated(std::size_t index, bool initial) {
  Replica& r = replicas_[index];
  if (r.state != ReplicaState::kAsked) return;
  initial = initial && !r.allocated_before;  // a restart after a fault loads its weights again
  r.allocated_before = true;
  r.held_since = sim_.now();
  r.state = ReplicaState::kStarting;
  const sim::Time delay = initial ? sim::Time::zero() : sim::Time::from_seconds(startup_s());
  const auto ready = [this, index] {
    Replica& rr = replicas_[index];
    rr.ready_event = {};
    rr.state = ReplicaState::kServing;
    rr.serving_since = sim_.now();
    std::vector<std::size_t>& pool = rr.prefill ? prefill_serving_ : serving_;
    pool.push_back(index);
    std::sort(pool.begin(), pool.end());
    note_serving();
    dispatch_pending();
    if (!rr.prefill) {
      // Prefilled requests that found no decode replica move now.
      std::deque<std::pair<std::size_t, ReplicaRequest>> waiting;
      waiting.swap(awaiting_decode_);
      for (const auto& [from, request] : waiting) start_transfer(from, index, request);
    }
  };
  if (!initial && config_.weights_from_store) {
    // The engine starts, then the replica's nodes read its weights from the store.
    const std::uint64_t id = ++weight_loads_;
    r.weight_load = id;
    r.ready_event = sim_.after(config_.allocation_delay, [this, index, id, ready] {
      Replica& rr = replicas_[index];
      rr.ready_event = {};
      host_.load_weights(rr.handle, cost_.replica_weight_bytes(), [this, index, id, ready] {
        if (replicas_[index].weight_load != id || replicas_[index].state != ReplicaState::kStarting) return;
        replicas_[index].weight_load = 0;
        ready();
      });
    });
    return;
  }
  if (delay > sim::Time::zero()) {
    r.ready_event = sim_.after(delay, ready);
  } else {
    ready();
  }
}

void InferenceService::close_accounts(Replica& r) {
  // A replica's counters run over all its lives (a lost replica placed again keeps its engines,
  // or in fluid its accrued rates): only what came since its last close goes into the stats.
  const ReplicaCounters total = r.counters(sim_.now());
  const ReplicaCounters c = total.since(r.accounted);
  r.accounted = total;
  if (r.state == ReplicaState::kServing || r.state == ReplicaState::kDraining) {
    r.served_s += (sim_.now() - r.serving_since).seconds();
  }
  if (r.state != ReplicaState::kAsked && r.state != ReplicaState::kGone) {
    const double held_s = (sim_.now() - r.held_since).seconds();
    const double tp = config_.engine.stage_gpus();  // x pp GPUs, each busy 1/pp of its engines' iterations
    const double dynamic_w = node_.gpu.max_power_w - node_.gpu.idle_power_w;
    stats_.gpu_seconds += tp * config_.engine.pp * held_s;
    stats_.busy_gpu_seconds += tp * c.busy_s;
    stats_.gpu_energy_j += tp * (config_.engine.pp * node_.gpu.idle_power_w * held_s +
                                 dynamic_w * (activities_.compute * c.compute_s + activities_.memory * c.memory_s +
                                              activities_.communication * c.communication_s));
  }
  if (!r.prefill) stats_.replica_seconds += r.served_s;  // the decode pool's, as the series and the max
  r.served_s = 0.0;
  stats_.preemptions += c.preemptions;
  stats_.iterations += c.iterations;
  stats_.batch_sum += c.batch_sum;
}

void InferenceService::retire(std::size_t index) {
  Replica& r = replicas_[index];
  if (r.ready_event.valid()) sim_.cancel(r.ready_event);
  r.weight_load = 0;
  leave_pools(index);
  close_accounts(r);
  mark_gone(index);
  host_.release(r.handle);
}

void InferenceService::mark_gone(std::size_t index) {
  replicas_[index].state = ReplicaState::kGone;
  const auto it = std::lower_bound(live_.begin(), live_.end(), index);  // O(live replicas)
  if (it != live_.end() && *it == index) live_.erase(it);
}

void InferenceService::on_lost(std::size_t index) {
  Replica& r = replicas_[index];
  if (r.state == ReplicaState::kGone || r.state == ReplicaState::kAsked) return;
  if (r.ready_event.valid()) sim_.cancel(r.ready_event);
  r.weight_load = 0;
  leave_pools(index);
  const bool draining = r.state == ReplicaState::kDraining;
  close_accounts(r);
  std::vector<ReplicaRequest> back = r.stop();
  if (draining) {
    // It was leaving anyway.
    mark_gone(index);
    host_.release(r.handle);
  } else {
    // The host brings it back when it can (a requeued job restarts): it loads its weights again.
    r.state = ReplicaState::kAsked;
  }
  for (ReplicaRequest q : back) {
    // A decode replica's KV is gone with it: the request is prefilled again (its first token
    // stays the one the client already has); a prefill replica's requests start over.
    if (const auto it = prefilled_.find(q.id); it != prefilled_.end()) q.output_tokens = it->second.output_tokens;
    q.kv_ready = false;
    deliver(q);
  }
}

void InferenceService::leave_pools(std::size_t index) {
  serving_.erase(std::remove(serving_.begin(), serving_.end(), index), serving_.end());
  prefill_serving_.erase(std::remove(prefill_serving_.begin(), prefill_serving_.end(), index),
                         prefill_serving_.end());
  note_serving();
}

int InferenceService::active_replicas() const {
  int n = 0;
  for (const std::size_t i : live_) {  // O(live replicas)
    const Replica& r = replicas_[i];
    n += !r.prefill && (r.state == ReplicaState::kAsked || r.state == ReplicaState::kStarting ||
                        r.state == ReplicaState::kServing);
  }
  return n;
}

void InferenceService::scale_to(int target) {
  target = std::clamp(target, config_.min_replicas, config_.max_replicas);
  int active = active_replicas();
  while (active < target) {
    // A draining replica comes back first: it is warm.
    const auto live = std::find_if(live_.rbegin(), live_.rend(), [this](std::size_t i) {
      return !replicas_[i].prefill && replicas_[i].state == ReplicaState::kDraining;
    });
    if (live != live_.rend()) {
      const std::size_t index = *live;
      Replica* draining = &replicas_[index];
      draining->state = ReplicaState::kServing;
      if (draining->ready_event.valid()) sim_.cancel(draining->ready_event);  // fluid: its drain's end
      draining->ready_event = {};
      serving_.push_back(index);
      std::sort(serving_.begin(), serving_.end());
      note_serving();
    } else {
      add_replica(false, false);
    }
    ++active;
  }
  while (active > target) {
    // The newest first: a replica still starting costs nothing to give up.
    std::size_t index = replicas_.size();
    for (auto it = live_.rbegin(); it != live_.rend(); ++it) {
      const std::size_t i = *it;
      const ReplicaState s = replicas_[i].state;
      if (replicas_[i].prefill) continue;
      if (s == ReplicaState::kAsked || s == ReplicaState::kStarting || s == ReplicaState::kServing) {
        index = i;
        break;
      }
    }
    Replica& r = replicas_[index];
    ++stats_.scale_downs;
    --active;
    if (r.state != ReplicaState::kServing) {
      retire(index);
      continue;
    }
    const double u = r.fluid_u;
    r.state = ReplicaState::kDraining;
    serving_.erase(std::remove(serving_.begin(), serving_.end(), index), serving_.end());
    note_serving();
    if (curve_ != nullptr) {
      // Fluid: what it holds ends over the drain time its curve measured at the load it had,
      // its GPUs held meanwhile (idle: the fleet's rates carry the work).
      const double drain_s = u > 0.0 ? segment_.curve->drain_s_at(u) : 0.0;
      if (drain_s <= 0.0) {
        retire(index);
      } else {
        r.ready_event = sim_.after(sim::Time::from_seconds(drain_s), [this, index] {
          replicas_[index].ready_event = {};
          if (replicas_[index].state == ReplicaState::kDraining) retire(index);
        });
      }
      continue;
    }
    if (r.load().outstanding() == 0) retire(index);
  }
}

std::pair<double, double> InferenceService::busy_and_serving_s() const {
  double busy = 0.0, serving = 0.0;
  for (const std::size_t i : live_) {  // O(live replicas)
    const Replica& r = replicas_[i];
    if (r.state != ReplicaState::kServing || r.prefill) continue;
    busy += r.counters(sim_.now()).busy_s / config_.engine.pp;
    serving += r.served_s + (sim_.now() - r.serving_since).seconds();
  }
  return {busy, serving};
}

void InferenceService::on_sample() {
  sample_event_ = {};
  const sim::Time now = sim_.now();
  if (curve_ != nullptr) fluid_draw_loads();
  int waiting = gateway_queue(), running = 0;
  double kv = 0.0;
  for (const std::size_t i : serving_) {
    const ReplicaLoad l = replicas_[i].load();
    waiting += l.waiting;
    running += l.running;
    kv += l.kv_used_fraction;
  }
  const double period = config_.sample_every.seconds();
  const auto bs = busy_and_serving_s();
  const double serving_delta = bs.second - at_last_sample_.second;
  sink_.append(replicas_series_, now, static_cast<double>(serving_.size()));
  sink_.append(queued_series_, now, waiting);
  sink_.append(running_series_, now, running);
  sink_.append(kv_series_, now, serving_.empty() ? 0.0 : kv / static_cast<double>(serving_.size()));
  sink_.append(busy_series_, now,
               serving_delta > 0.0 ? std::clamp((bs.first - at_last_sample_.first) / serving_delta, 0.0, 1.0) : 0.0);
  sink_.append(tokens_series_, now, sampled_output_tokens_ / period);
  at_last_sample_ = bs;
  sampled_output_tokens_ = 0.0;
  // Each replica's GPU activity over the period, for hosts that draw its power, and the GPUs'
  // power it implies (a replica that started within the period counts from the period's start).
  double power_w = 0.0;
  for (const std::size_t i : live_) {  // O(live replicas)
    Replica& r = replicas_[i];
    if (r.state == ReplicaState::kGone || r.state == ReplicaState::kAsked) continue;
    const ReplicaCounters c = r.counters(now);
    const double activity = std::clamp((activities_.compute * (c.compute_s - r.sampled.compute_s) +
                                        activities_.memory * (c.memory_s - r.sampled.memory_s) +
                                        activities_.communication * (c.communication_s - r.sampled.communication_s)) /
                                           (period * config_.engine.pp),
                                       0.0, 1.0);
    host_.set_activity(r.handle, activity);
    power_w +=
        config_.engine.gpus() * (node_.gpu.idle_power_w + (node_.gpu.max_power_w - node_.gpu.idle_power_w) * activity);
    r.sampled = c;
  }
  sink_.append(power_series_, now, power_w);
  if (!quiet()) sample_event_ = sim_.after(config_.sample_every, [this] { on_sample(); });
}

void InferenceService::on_autoscale() {
  scale_event_ = {};
  if (curve_ != nullptr) fluid_draw_loads();
  const auto bs = busy_and_serving_s();
  const double serving_delta = bs.second - at_last_scale_.second;
  FleetSample s;
  s.now = sim_.now();
  s.replicas = active_replicas();
  s.ready = static_cast<int>(serving_.size());
  s.utilization = serving_delta > 0.0 ? std::clamp((bs.first - at_last_scale_.first) / serving_delta, 0.0, 1.0) : 0.0;
  s.queued = gateway_queue();
  for (const std::size_t i : serving_) {
    const ReplicaLoad l = replicas_[i].load();
    s.queued += l.waiting;
    s.kv_used_fraction += l.kv_used_fraction;
    s.batch_fraction +=
        static_cast<double>(l.running) / (config_.engine.max_batch * config_.engine.attention_dp() * config_.engine.pp);
  }
  if (!serving_.empty()) {
    s.kv_used_fraction /= static_cast<double>(serving_.size());
    s.batch_fraction /= static_cast<double>(serving_.size());
  }
  at_last_scale_ = bs;
  scale_to(autoscaler_->desired(s));
  scale_event_ = sim_.after(autoscaler_->period(), [this] { on_autoscale(); });
}

int InferenceService::gateway_queue() const {
  return static_cast<int>(pending_.size()) +
         (curve_ != nullptr ? static_cast<int>(std::llround(fluid_backlog_now())) : 0);
}

bool InferenceService::quiet() const { return stream_ended_ && outstanding_ == 0 && thinking_ == 0 && !autoscaler_; }

}  // namespace dcsim::models::inference
