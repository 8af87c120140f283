#pragma once
// One inference service: its request stream, the gateway in front, a router over its replicas,
// the replicas' engines (serving_replica.hpp) on GPUs from a ReplicaHost, and the fixed fleet or
// autoscaler that decides how many there are.
//
// A request leaves its client at its arrival time, reaches the router after half the gateway's
// round trip plus its prompt's bytes at the gateway's rate, and waits at the gateway while no
// replica serves. Tokens stream back the same way: each reaches the client half a round trip
// plus its bytes after the replica sampled it. Client-side:
//   TTFT = first token at the client - sent;  TPOT = (last token - first token) / (output - 1);
//   end-to-end = last token at the client - sent;  queueing = admitted - reached the replica.
// A replica starts serving `allocation_delay` after its GPUs are allocated plus its weights
// (the replica's share of the model) at load_bytes_per_s, or read from the shared store as its
// host's reads (weights_from_store: the store's drives, NICs and network decide); replicas of the initial fleet serve
// from the start (once their host has placed them). A replica lost to a fault returns its
// unfinished requests to the router (they keep their send time: the retry is in their latency)
// and waits for its host to bring its GPUs back (a requeued cluster job restarting), then loads
// its weights again; meanwhile it counts as asked for, so an autoscaler does not replace it.
//
// Disaggregated (prefill_replicas > 0): a fixed prefill pool takes each request first, runs its
// prompt and samples its first token; the prompt's KV (input tokens x the KV bytes of a token on
// all TP GPUs) then moves through the KvTransport to a decode replica the router picks, which
// decodes the rest. The autoscaler, `replicas` and the series' replica counts are the decode
// pool's. A lost decode replica's requests are prefilled again (the client keeps its first token).
//
// Fluid resolution (ServiceConfig::resolution, fluid_steps.cpp): no request or iteration is an
// event. At start-up the iteration-level engine measures one replica's curve (serving_curve.hpp,
// cached per configuration). Replicas keep their lifecycle above (the host places them, they
// start, load weights, drain, are lost and come back, the autoscaler decides on the same
// FleetSample), but between changes the fleet runs as a segment: from the start of a step (every
// fluid_step) or a fleet change until the next, the stream's mean rate lambda over the step
// (RequestStream::rate_at, diurnal included; bursty at its long-run mean) plus what waits at
// the gateway (backlog B over the step) is offered to the serving replicas, split by the
// router's fluid_weight, each taking at most its capacity (the curve's, times its clock factor);
// what they cannot take waits (B grows) and what they serve of B drains it. A replica at
// utilisation u = its share / its capacity accrues the curve's rates (busy, compute, memory,
// communication seconds, iterations, batch, preemptions) and shows its load (waiting, running,
// KV) to the series and the autoscaler. When a segment closes, its answered requests take the
// curve's latency distributions at the load whose measured admission wait is the wait the fleet
// has built by then (queue_buildup.hpp; their own u's once held), TPOT at their u, with TTFT,
// end-to-end and queueing moved by the gateway wait W = mean backlog / served rate; its SLA
// share is the curve's at that wait; tokens
// are answered requests x the lengths' means. Counts are carried as fractions and rounded down,
// so the same seed gives the same outputs. Cost: O(replicas + kCurveStrata) per step or fleet
// change, whatever the request rate; a day at a 60 s step is 1,440 steps. Disaggregated serving
// and trace streams are request-level inputs: a ConfigError("resolution") in fluid.
//
// Emits (sim::TraceSink), <s> the service's name:
//   series  inference/<s>/replicas, queued, running, kv_used_fraction, gpu_busy_fraction,
//           gpu_power_w, output_tokens_per_s (every sample_every)
//   summary inference/<s>/{requests, rejected, ttft_p50_s, ttft_p90_s, ttft_p99_s, tpot_*, e2e_*,
//           queue_p99_s, output_tokens_per_s, input_tokens_per_s, goodput_rps, sla_attainment,
//           mean_in_system, preemptions, mean_batch, kv_capacity_tokens, replicas_mean,
//           replicas_max, scale_ups, scale_downs, gpu_hours, gpu_busy_fraction, gpu_energy_kwh;
//           disaggregated also kv_transfers, kv_transfer_bytes, kv_transfer_p99_s; replicas_min}
//   table   inference/<s>/latency_histogram: metric (ttft, tpot, e2e), lower_s, upper_s, count per
//           non-empty bucket of the latency histograms, written when the run ends

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/inference/autoscaler.hpp"
#include "models/inference/iteration_cost.hpp"
#include "models/inference/kv_transport.hpp"
#include "models/inference/latency_histogram.hpp"
#include "models/inference/replica_host.hpp"
#include "models/inference/request_router.hpp"
#include "models/inference/request_stream.hpp"
#include "models/inference/serving_curve.hpp"
#include "models/inference/serving_replica.hpp"
#include "models/power/gpu_phase_power.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::inference {

struct ServiceRegistries {
  const collective::CollectiveRegistry& collectives;
  const RouterRegistry& routers;
  const AutoscalerRegistry& autoscalers;
};

// What the service measured (also its summary); times in seconds.
struct ServiceStats {
  std::uint64_t issued = 0, completed = 0, rejected = 0, sla_met = 0;
  double input_tokens = 0.0, output_tokens = 0.0;
  LatencyHistogram ttft, tpot, e2e, queue;
  std::uint64_t preemptions = 0, iterations = 0;
  double batch_sum = 0.0;
  int scale_ups = 0, scale_downs = 0, replicas_max = 0;
  int replicas_min = -1;          // fewest serving for a stretch of time (-1: none closed yet)
  double replica_seconds = 0.0;   // serving replicas x time
  double gpu_seconds = 0.0;       // GPUs held x time (starting, serving, draining)
  double busy_gpu_seconds = 0.0;  // GPUs iterating x time
  double gpu_energy_j = 0.0;
  double in_system_seconds = 0.0;  // integral of the requests in the system over time
  std::uint64_t missed_unfinished = 0;  // still in the system at the end, already past a bound
  std::uint64_t kv_transfers = 0;  // disaggregated: prompt KV moved from prefill to decode replicas
  double kv_transfer_bytes = 0.0;
  LatencyHistogram kv_transfer;
};

class InferenceService {
 public:
  // Throws sim::ConfigError naming the field ("engine.tp", "engine.memory", "router",
  // "autoscaler_params.<p>") for what the model cannot serve.
  InferenceService(const ServiceConfig& config, const hardware::NodeSpec& node,
                   const power::GpuPhasePowerConfig& gpu_power, const ServiceRegistries& registries,
                   std::uint64_t seed, sim::Simulator& sim, sim::TraceSink& sink, ReplicaHost& host,
                   KvTransport* transport = nullptr, ServingCurveCache* curves = nullptr);
  ~InferenceService();
  InferenceService(const InferenceService&) = delete;
  InferenceService& operator=(const InferenceService&) = delete;

  void start();
  // Closes the accounts at sim.now() and writes the summary.
  void finish();

  const ServiceStats& stats() const { return stats_; }
  const IterationCostModel& cost_model() const { return cost_; }
  // Seconds from a scale-up decision (GPUs allocated at once) until the replica serves.
  double startup_s() const;
  // Whether it runs fluid, and then its replicas' curve (null at iteration level).
  bool fluid() const { return curve_ != nullptr; }
  const ServingCurve* curve() const { return curve_; }

 private:
  enum class ReplicaState { kAsked, kStarting, kServing, kDraining, kGone };
  struct Replica {
    ReplicaState state = ReplicaState::kAsked;
    std::size_t handle = 0;
    // Its engines: one, or with pipeline parallelism pp virtual engines (vLLM's), each with its
    // own batch and 1/pp of the KV cache, iterating through every stage in turn.
    std::vector<std::unique_ptr<ServingReplica>> engines;
    sim::Time held_since;       // GPUs allocated
    sim::Time serving_since;
    sim::EventHandle ready_event;
    std::uint64_t weight_load = 0;  // its weight read from a store in flight (0: none); its end is ignored once changed
    double served_s = 0.0;      // closed serving intervals
    bool allocated_before = false;
    bool prefill = false;       // in the prefill pool (disaggregated serving)
    ReplicaCounters sampled;    // counters at the last sample (activity reported to the host)
    ReplicaCounters accounted;  // counters at its last close_accounts (already in the stats)
    // Fluid (no engines): its rates since fluid_since, what it accrued before, its load.
    ReplicaRates fluid_rate, fluid_accrued;
    sim::Time fluid_since;
    ReplicaLoad fluid_load;
    double fluid_u = -1.0;  // its utilisation in the segment (< 0: not serving)
    double clock = 1.0;  // its GPUs' clock factor

    ReplicaLoad load() const;         // over its engines (KV use: their mean)
    ReplicaCounters counters(sim::Time now) const;  // summed over its engines (fluid: accrued by now)
    void accrue(sim::Time now);
    bool idle() const;
    // A new request goes to the engine with the fewest requests (vLLM's choice among its virtual
    // engines).
    void submit(const ReplicaRequest& request);
    std::vector<ReplicaRequest> stop();
  };

  void issue_next();
  // One request of the stream, at now: through the gateway to a replica.
  void issue(const TraceRequest& r);
  // Closed-loop clients: the client whose answer reaches it `answered_in_s` from now asks again
  // think_time later (until the stream's stop).
  void follow_up(double answered_in_s);
  // The router's pick among `pool` (serving replicas' indices), none when it is empty.
  std::optional<std::size_t> route(const std::vector<std::size_t>& pool);
  void deliver(const ReplicaRequest& request);
  // Disaggregated serving: a prefill replica sampled the first token; its KV moves to a decode
  // replica (KvTransport), which then decodes the rest.
  void on_prefilled(std::size_t replica, const ReplicaOutcome& outcome);
  void start_transfer(std::size_t from, std::size_t to, const ReplicaRequest& request);
  void leave_pools(std::size_t replica);
  void dispatch_pending();
  void on_done(std::size_t replica, const ReplicaOutcome& outcome);
  std::size_t add_replica(bool initial, bool prefill);
  void on_allocated(std::size_t replica, bool initial);
  void on_lost(std::size_t replica);
  void retire(std::size_t replica);
  void mark_gone(std::size_t replica);  // its state, and out of live_
  // Closes the replica's GPU time and energy (it leaves the service now).
  void close_accounts(Replica& r);
  // Serving replicas' busy seconds and serving seconds, over the run so far.
  std::pair<double, double> busy_and_serving_s() const;
  void scale_to(int replicas);
  int active_replicas() const;  // asked, starting, serving
  void on_sample();
  void on_autoscale();
  bool quiet() const;
  void count_missed_unfinished();  // nothing more will happen: stream ended, nothing outstanding, fleet fixed
  // The decode pool's size changed (or the run ends): the size it had counts for the minimum if
  // it held for any time, and for the maximum at once (service_summary.cpp).
  void note_serving();
  // The latency distributions as a table (service_summary.cpp), its rows written by finish().
  void declare_latency_table();
  void write_latency_table();
  double gateway_out_s() const;
  double gateway_in_s(int input_tokens) const;
  // Requests waiting at the gateway (no replica took them yet).
  int gateway_queue() const;

  // Fluid resolution (fluid_steps.cpp).
  void fluid_start();
  void on_fluid_step();
  void fluid_reshape();  // closes the segment at now and opens the next (a step, a fleet change)
  void fluid_open();
  void fluid_close();
  // Adds `count` answered requests at the curve's bracket to the latency histograms, their
  // TTFT, end-to-end and queueing `wait_s` later.
  // `waited`: the load whose queue the answers met (TTFT, end-to-end, queueing); `load`: their own (TPOT).
  void fluid_add_latencies(const ServingCurve::Bracket& waited, const ServingCurve::Bracket& load, std::uint64_t count,
                           double wait_s);
  double fluid_wait_s() const;  // the gateway wait of requests served now
  double fluid_backlog_now() const;  // requests at the gateway now (the segment's backlog moved on)
  // The curve for a fleet of `serving` replicas: measured on a pool of 1, 2, 4 or 8 (the largest
  // power of two up to `serving`, kCurvePoolMax at most) behind the router, each pool size
  // built once, when a fleet of that size first serves (at most four curves, each bounded).
  const ServingCurve& fluid_curve_for(std::size_t serving);
  // Each serving replica's load drawn from its curve's loads at its utilisation (as a sample of
  // an iteration-level replica would see one): O(replicas).
  void fluid_draw_loads();
  // Each serving replica's load: its curve's mean at its utilisation plus `spread` x the pool's
  // deviation in sample k (deviation_at with `pick`; none when spread is 0). O(replicas).
  void fluid_set_loads(double spread, std::size_t k, double pick);

  ServiceConfig config_;
  std::string prefix_;
  hardware::NodeSpec node_;
  power::PhaseActivities activities_;
  IterationCostModel cost_;
  std::unique_ptr<RequestRouter> router_;
  std::unique_ptr<Autoscaler> autoscaler_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  ReplicaHost& host_;
  RequestStream stream_;
  sim::RandomStream fluid_draws_;  // fluid: which of the curve's loads a sample sees
  bool stream_ended_ = false;
  int thinking_ = 0;  // closed-loop clients between an answer and their next request
  std::uint64_t next_id_ = 0;

  // Every replica ever asked for, by index (the index is its handle in callbacks, so gone ones
  // stay). live_ lists the ones not gone, ascending: per-sample and per-autoscale passes walk it,
  // so their cost follows the fleet, not the scale-ups of the run so far (thousands a day).
  std::vector<Replica> replicas_;
  std::vector<std::size_t> live_;
  std::vector<std::size_t> serving_;  // indices, oldest first (the decode pool when disaggregated)
  std::vector<std::size_t> prefill_serving_;  // the prefill pool's serving replicas
  // Requests prefilled on the prefill pool, by id, until answered: what the client saw there.
  struct Prefilled {
    int output_tokens = 0;  // as asked (the prefill replica was given 1)
    sim::Time arrived, admitted, first_token = sim::Time::max();
  };
  std::unordered_map<std::uint64_t, Prefilled> prefilled_;
  std::deque<std::pair<std::size_t, ReplicaRequest>> awaiting_decode_;  // (prefill replica, request)
  KvTransport* transport_ = nullptr;
  std::unique_ptr<KvTransport> own_transport_;
  std::vector<ReplicaLoad> loads_;    // scratch for the router
  std::uint64_t weight_loads_ = 0;     // ids of weight loads from a store
  std::deque<ReplicaRequest> pending_;  // at the gateway, no replica serving
  std::uint64_t outstanding_ = 0;     // issued, not yet answered
  double outstanding_issued_s_ = 0.0;  // sum of their send times (Little's integral)

  ServiceStats stats_;
  double sampled_output_tokens_ = 0.0;
  std::pair<double, double> at_last_scale_{0.0, 0.0};  // busy_and_serving_s() at the last autoscale
  sim::EventHandle sample_event_, scale_event_;
  sim::SeriesId power_series_ = 0;
  int serving_count_ = 0;          // serving_.size() as note_serving last saw it, since then
  sim::Time serving_count_since_;
  sim::TableId latency_table_ = 0;
  sim::SeriesId replicas_series_ = 0, queued_series_ = 0, running_series_ = 0, kv_series_ = 0, busy_series_ = 0,
                tokens_series_ = 0;
  std::pair<double, double> at_last_sample_{0.0, 0.0};
  bool finished_ = false;

  const ServingCurve* curve_ = nullptr;  // fluid: the curve of the fleet as deployed (from the cache)
  std::unique_ptr<ServingCurveCache> own_curves_;
  ServingCurveCache* curve_cache_ = nullptr;
  CurveInputs curve_inputs_;
  // The cache's curve by pool size (a power of two up to kCurvePoolMax), looked up once: the
  // cache's key is a formatted string, and a fleet segment opens at every clock change.
  std::map<int, const ServingCurve*> curve_by_pool_;
  struct FluidSegment {
    sim::Time start, step_end;      // opened at start for the step that ends at step_end
    const ServingCurve* curve = nullptr;  // for the fleet's size in the segment
    double arrival_per_s = 0.0;     // lambda over the step
    double served_per_s = 0.0;      // what the serving replicas take
    double backlog = 0.0;           // requests waiting at the gateway at start
    sim::EventHandle drained_event;                 // when the backlog empties within the step
    std::vector<std::size_t> rated;                 // the replicas given rates (serving_ at open)
    std::vector<std::pair<double, double>> groups;  // (latency utilisation, served per s) of runs of equal replicas
  };
  bool fluid_running_ = false;
  FluidSegment segment_;
  sim::EventHandle fluid_event_;
  // Fractional counts, rounded down into stats_ (deterministic carry).
  double fluid_issued_ = 0.0, fluid_answered_ = 0.0, fluid_rejected_ = 0.0, fluid_met_ = 0.0;
  double queue_wait_s_ = 0.0;  // the replicas' admission wait at the last close (FluidQueue; from empty)
};

}  // namespace dcsim::models::inference
