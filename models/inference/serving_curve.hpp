#pragma once
// What one replica of a configuration does at a steady offered load, for the fluid resolution
// (fluid_steps.cpp): measured at start-up by the iteration-level engine itself (ServingReplica
// over IterationCostModel, on a private simulator clock: serving_curve_measurement.cpp), never
// by a formula.
//   capacity  requests per second one replica completes when it is never short of work: a
//             closed loop that keeps 2 x max_batch x pp requests in it, after a warm-up
//   points    at offered utilisations u (kCurveUtilizations, 0.01 .. 0.98), Poisson arrivals at
//             pool x u x capacity to a pool of replicas behind the service's kind of router
//             (CurveInputs::pool) with the service's length distributions: after a warm-up, the
//             client-side TTFT, TPOT, end-to-end latency and replica queueing of the next
//             requests (the gateway's delays included, as the service measures them); the
//             replica's counters over their arrival window as rates per second (busy,
//             compute / memory / communication seconds, iterations, batch sum, preemptions,
//             tokens); the waiting and running requests and KV in use as those arrivals see
//             them (Poisson arrivals see time averages, PASTA), one replica's and the pool's
//             mean; then, arrivals stopped, how long the replicas take to empty (their drain)
// Between points rates are linear in u and a load's latency distribution is the mixture of its
// two neighbours' (weights linear in u); below the lightest point rates scale down to 0 at u = 0
// with the lightest point's latencies. Each point keeps its latencies as kCurveStrata values at
// evenly spaced quantiles (what a fluid step adds to the service's histograms) and every measured
// request's slack against the SLA (the extra wait it could still take), so the SLA share at a
// queue wait W is a binary search.
//
// Cost, paid once per configuration (ServingCurveCache): at most kCurveIterationBudget engine
// iterations in all (about 1 us each: a few seconds of start-up at worst). Each point's request
// count is chosen for about kCurvePointIterations (build_serving_curve); a point that still runs
// past its share of the budget stops measuring and keeps what completed, and a
// configuration that cannot complete kCurveMinRequests within the budget is a sim::ConfigError
// naming "resolution" (serve it at iteration level).

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware/node_spec.hpp"
#include "models/inference/iteration_cost.hpp"
#include "models/inference/queue_buildup.hpp"
#include "models/inference/service_config.hpp"
#include "models/inference/serving_replica.hpp"

namespace dcsim::models::inference {

// Dense at light load, where a continuously batching replica's busy time and batch climb
// fastest (one request in flight keeps it busy), and near saturation, where latency does.
inline constexpr std::array<double, 17> kCurveUtilizations = {0.01, 0.02, 0.03, 0.05, 0.1,  0.2,  0.3, 0.4, 0.5,
                                                              0.6,  0.7,  0.75, 0.8,  0.85, 0.9, 0.95, 0.98};
inline constexpr int kCurveStrata = 200;
inline constexpr double kCurveIterationBudget = 2.5e7;
inline constexpr int kCurveMinRequests = 200;
inline constexpr int kCurveMaxRequests = 20000;
// The answers whose latencies (and the waiting they found) a point keeps: the first of its
// window. Near saturation a replica's queue relaxes over ~1 / (1 - u)^2 answers (hours at u =
// 0.98), far longer than a fleet holds a load between autoscaler moves; its batch, bounded by
// max_batch, settles within a few answers. So latencies and waiting are those of a load held
// for about this many answers, the loads and rates that of the whole window.
inline constexpr int kCurveLatencyRequests = 4000;
inline constexpr double kCurvePointIterations = 2.5e5;  // per point (build_serving_curve)
inline constexpr int kCurvePoolMax = 8;

// A replica's counters per second of serving time (ReplicaCounters' fields as rates; also used
// for what a fluid replica has accrued).
struct ReplicaRates {
  double busy_s = 0.0, compute_s = 0.0, memory_s = 0.0, communication_s = 0.0;
  double iterations = 0.0, preemptions = 0.0, prefill_tokens = 0.0, decode_tokens = 0.0, batch_sum = 0.0;

  ReplicaRates scaled(double k) const;
  ReplicaRates plus(const ReplicaRates& o) const;
  ReplicaCounters counters() const;  // whole iterations and preemptions rounded down
};

// A load averaged over replicas (a pool's, a fleet's): fractional requests.
struct MeanLoad {
  double waiting = 0.0, running = 0.0, kv_used_fraction = 0.0;
};

struct CurvePoint {
  double utilization = 0.0;  // offered rate / capacity
  ReplicaRates rates;
  ReplicaLoad load;          // time means (waiting and running rounded to the nearest request)
  double waiting = 0.0, running = 0.0;  // time means, unrounded
  double kv_used_fraction = 0.0;        // time mean, as load.kv_used_fraction
  // kCurveStrata loads of the whole pool (the mean over its replicas) as arrivals saw them,
  // evenly spread over the window, less their mean: what a sample of a fleet's load (the
  // autoscaler's, the series') draws its fluctuation from. A balanced router keeps its replicas together, so what
  // moves a fleet's mean load is the fluctuation of the whole pool's work (arrivals, lengths),
  // not each replica's own: the fleet's total varies about as its size (as the count of an
  // M/G/infinity system), so the fleet mean's deviation is the pool's scaled by sqrt(pool /
  // fleet) (fluid_steps.cpp). HPA reacts to it: its scale-down window keeps the highest
  // recommendation, so a calmer metric holds fewer replicas.
  std::vector<MeanLoad> pool_deviations;
  // Once its arrivals stop, how long a replica takes to finish what it holds (mean over the
  // pool): what a replica told to drain keeps its GPUs for.
  double drain_s = 0.0;
  double rejected_fraction = 0.0;       // requests that can never fit a replica
  double multi_token_fraction = 0.0;    // answered requests with more than one output token (have a TPOT)
  double mean_e2e_s = 0.0;
  // kCurveStrata values of each metric at quantiles (k + 0.5) / kCurveStrata, increasing.
  std::vector<double> ttft_s, tpot_s, e2e_s, queue_s;
  // Every answered request's slack: the most extra wait before admission with which it still
  // meets the SLA (TTFT and end-to-end bounds less its latency; -1 when its TPOT misses; 1e30
  // when nothing is judged), increasing.
  std::vector<double> slack_s;
  // Share of answered requests meeting the SLA with `wait_s` more queueing each.
  double sla_met_fraction(double wait_s) const;
  // The mean admission wait of the answers above (their queue_s), and how it built from empty
  // replicas (queue_buildup.hpp): what a fluid fleet's latencies follow when a load is new.
  double queue_mean_s = 0.0;
  QueueBuildup buildup;
};

struct ServingCurve {
  double capacity_per_s = 0.0;  // requests per second one replica completes, saturated
  // One replica's load when it is never short of work (the capacity's closed loop, sampled at its
  // completions): where a fleet's load goes between the heaviest point and u = 1, and stays
  // while the fleet cannot take what it is offered (an overloaded replica's batch is full).
  MeanLoad saturated;
  double mean_input_tokens = 0.0, mean_output_tokens = 0.0;  // of the answered requests measured
  std::vector<CurvePoint> points;  // increasing utilisation
  double iterations = 0.0;         // engine iterations the curve took (its cost)
  int pool = 1;                    // replicas it was measured on (CurveInputs::pool)

  // A load's place between points: `lo` and `hi` (equal at the ends) and hi's weight.
  struct Bracket {
    const CurvePoint* lo = nullptr;
    const CurvePoint* hi = nullptr;
    double f = 0.0;
    double scale = 1.0;  // below the lightest point: u / its u (rates and loads shrink to 0)
  };
  Bracket at(double utilization) const;
  ReplicaRates rates_at(double utilization) const;
  double drain_s_at(double utilization) const;  // the bracket's drain_s (scaled as rates)
  // One replica's mean load at `utilization` (0 .. 1): the bracket's time means, towards
  // `saturated` above the heaviest point.
  MeanLoad load_at(double utilization) const;
  // The pool's mean load in sample `k` (of kCurveStrata) at `utilization` less its mean: the
  // fluctuation a fleet's mean shows at one instant, on the pool's scale, from the bracket's
  // upper point when `pick` (uniform in [0, 1)) is below its weight. Fades to none at saturation.
  MeanLoad deviation_at(double utilization, std::size_t k, double pick) const;
  // The utilisation whose answers waited `wait_s` for admission on average (points' queue_mean_s,
  // linear between them as their mixtures are), searched from `utilization` down when the wait is
  // below its level (a queue still building) and up when above (one still draining); held at the
  // lightest and heaviest points. Its latency distributions are those of a fleet at
  // `utilization` whose queue holds that wait (fluid_steps.cpp).
  double latency_utilization(double utilization, double wait_s) const;
};

// What a curve depends on besides the cost model: the requests' lengths, the gateway, the SLA,
// the seed of its private streams.
struct CurveInputs {
  LengthDistribution input_tokens, output_tokens;
  GatewayConfig gateway;
  SlaConfig sla;
  std::uint64_t seed = 1;
  // The points are measured on `pool` replicas behind a router (load-aware when `balanced`),
  // their rates and loads per replica: a fleet's router balances its replicas, which a lone
  // replica fed a Poisson stream does not see (it idles and queues more at the same load).
  int pool = 1;
  bool balanced = true;
};

// Builds the curve (the cost above). Throws sim::ConfigError("resolution", ...) when the budget
// cannot measure it.
ServingCurve build_serving_curve(const IterationCostModel& cost, const EngineConfig& engine, const CurveInputs& in);

// Curves by configuration: same configuration, same curve, built once per run (a services'
// subsystem shares one across its services). Not thread-safe: one per simulation.
class ServingCurveCache {
 public:
  // The text that identifies a configuration (model, engine, node, lengths, gateway, SLA, seed).
  static std::string key(const workload::TransformerModel& model, const EngineConfig& engine,
                         const hardware::NodeSpec& node, const CurveInputs& in);
  const ServingCurve& get(const std::string& key, const std::function<ServingCurve()>& build);
  std::size_t size() const { return curves_.size(); }

 private:
  std::map<std::string, std::unique_ptr<ServingCurve>> curves_;
};

}  // namespace dcsim::models::inference
