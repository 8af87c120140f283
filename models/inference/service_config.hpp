#pragma once
// An inference service as plain configs (the scenario layer fills them from /inference; models
// never see JSON): the model and how one replica serves it (EngineConfig), the requests that reach
// it (RequestStreamConfig), how many replicas and who decides (a fixed count or a registered
// autoscaler), the registered router, the gateway in front and the SLA its answers are judged by.

#include <cstdint>
#include <string>
#include <vector>

#include "models/compute/precision.hpp"
#include "models/workload/software_stack.hpp"
#include "models/workload/training_model.hpp"
#include "sim/params.hpp"
#include "sim/time.hpp"

namespace dcsim::models::inference {

// What happens to a running request when the KV cache cannot hold the next decode step's tokens
// (vLLM's PreemptionMode): recompute drops its KV and prefills prompt + generated tokens again
// when readmitted; swap copies its KV to host memory over PCIe and back before it resumes.
enum class Preemption { kRecompute, kSwap };

// When a waiting request may start (issue 40 item 4). on_demand (vLLM): its prompt's KV fits now;
// the answer's KV is allocated as it grows, and a sequence is preempted when it runs out.
// reserve (TensorRT-LLM's default capacity scheduler, GUARANTEED_NO_EVICT): its whole context,
// prompt plus every answer token's KV, fits beside what the running requests have reserved, so no
// request is ever evicted; fewer run at once.
enum class Admission { kOnDemand, kReserve };

// One replica's serving engine, as vLLM / TensorRT-LLM configure theirs.
struct EngineConfig {
  int tp = 1;  // GPUs of one pipeline stage, tensor parallel inside one NVLink domain
  // Pipeline stages of one replica (layers split evenly, the last stages taking a remainder
  // last): tp x pp GPUs, whole nodes when more than one node's. Each stage holds its layers'
  // weights and KV; pp virtual engines keep every stage busy (vLLM's pipeline parallelism).
  int pp = 1;
  // Expert parallelism of a mixture-of-experts model (issue 41 item 3): each MoE layer's routed
  // experts are spread whole over ep GPUs (vLLM --enable-expert-parallel; DeepSeek-V3's decode
  // runs EP 144-320, moe-hardware-stacks.md section 2), attention stays tp-way tensor parallel
  // with ep / tp data-parallel ranks, so a replica is ep x pp GPUs. 1: the experts are
  // tensor-parallel over tp like a dense MLP.
  int ep = 1;
  // The busiest expert's routed tokens over the mean (>= 1): its GPU sets an MoE layer's time.
  double expert_skew = 1.0;
  compute::Precision weights = compute::Precision::kBf16;   // kFp8: W8A8 FP8 GEMMs
  compute::Precision kv_cache = compute::Precision::kBf16;  // kFp8: one byte per KV element
  // Most sequences in one iteration (vLLM max_num_seqs; 256 is its engine default).
  int max_batch = 256;
  // Most tokens one iteration computes, prefill and decode together (vLLM
  // max_num_batched_tokens: 8192 in its OpenAI server with chunked prefill).
  int max_batched_tokens = 8192;
  // Sarathi-style chunked prefill: decodes first, prompts fill the rest of the token budget in
  // chunks. Off: an iteration either prefills waiting prompts whole or decodes (vLLM v0).
  bool chunked_prefill = true;
  Preemption preemption = Preemption::kRecompute;
  Admission admission = Admission::kOnDemand;
  // Fraction of each GPU's HBM the engine may use for weights, activations and KV cache (vLLM
  // gpu_memory_utilization, default 0.9): the rest is the CUDA context, NCCL buffers, fragmentation.
  double memory_fraction = 0.9;
  // Host <-> device copy rate of one GPU for swapped KV (measured H2D 51 GB/s on ND H100 v5,
  // shared/reference/public-figures.md).
  double swap_bytes_per_s = 51e9;
  // Kernel and NCCL efficiencies of the serving stack (the scenario's /software).
  workload::SoftwareStack software = workload::nemo_25_02();

  // Data-parallel attention ranks of one pipeline stage (ep / tp with expert parallelism, else 1).
  int attention_dp() const { return ep > tp ? ep / tp : 1; }
  // GPUs of one pipeline stage, and of the whole replica.
  int stage_gpus() const { return tp * attention_dp(); }
  int gpus() const { return stage_gpus() * pp; }
};

// How long a request's prompt or answer is, in tokens.
struct LengthDistribution {
  enum class Kind { kFixed, kLognormal, kEmpirical };
  Kind kind = Kind::kFixed;
  double value = 128;          // kFixed
  double median = 0, sigma = 0;  // kLognormal: exp(N(ln median, sigma)), rounded, clamped to [min, max]
  int min = 1, max = 1 << 20;
  std::vector<int> samples;    // kEmpirical: drawn uniformly
};

// One request of a trace: when it reaches the gateway and its lengths.
struct TraceRequest {
  sim::Time arrival;
  int input_tokens = 0;
  int output_tokens = 0;
};

// When requests arrive: a Poisson stream whose rate is constant, follows a day (diurnal: a
// cosine between trough and peak), or switches between a base and a burst rate (a two-state
// Markov-modulated Poisson process); or the requests of a trace.
struct RequestStreamConfig {
  // closed_loop (issue 40 item 4): `clients` users, each with one request in flight, as
  // genai-perf's and NIM's concurrency benchmarks run: every client sends its first request at
  // `start` and its next one think_time after the last token of the previous one reached it
  // (through the gateway), until `stop`. The load follows the service's speed: its throughput is
  // clients / (response time + think time).
  enum class Kind { kPoisson, kDiurnal, kBursty, kTrace, kClosedLoop };
  Kind kind = Kind::kPoisson;
  double rate_per_s = 1.0;        // Poisson rate; diurnal: the mean over a period; bursty: base
  double peak_to_trough = 3.0;    // diurnal
  sim::Time period = sim::Time::from_s(86400);  // diurnal
  sim::Time peak_at = sim::Time::from_s(14 * 3600);  // diurnal: time of the peak within a period
  double burst_rate_per_s = 0.0;  // bursty: rate during a burst
  sim::Time burst_every = sim::Time::from_s(3600);   // bursty: mean time between bursts' starts
  sim::Time burst_length = sim::Time::from_s(60);    // bursty: mean burst length
  sim::Time start = sim::Time::zero();
  sim::Time stop = sim::Time::max();  // no arrival at or after (the scenario's duration)
  LengthDistribution input_tokens, output_tokens;
  std::vector<TraceRequest> trace;  // kTrace, in arrival order
  int clients = 0;                  // kClosedLoop: requests in flight
  sim::Time think_time = sim::Time::zero();  // kClosedLoop: from an answer to the client's next request
};

// Requests enter through a gateway: half the round trip to reach it and half back for every
// token streamed out, and the gateway's link for the prompt's and each token's bytes.
struct GatewayConfig {
  sim::Time rtt = sim::Time::zero();
  double bandwidth_bps = 10e9;
  double bytes_per_token = 4.0;  // text bytes per token (about 4 characters of English per token)
};

// What a request must meet; 0 = not judged on that.
struct SlaConfig {
  double ttft_s = 0.0;
  double tpot_s = 0.0;
  double e2e_s = 0.0;
};

// How a service is simulated (inference_service.hpp): every engine iteration of every replica
// (iteration), or the fleet advanced at a coarse step from per-replica curves that the
// iteration-level engine measures at start-up (fluid, serving_curve.hpp), or fluid only for long
// runs (auto: iteration when the request stream spans less than auto_fluid_from).
enum class Resolution { kIteration, kFluid, kAuto };

struct ServiceConfig {
  std::string name;
  Resolution resolution = Resolution::kIteration;
  sim::Time fluid_step = sim::Time::from_s(60);
  sim::Time auto_fluid_from = sim::Time::from_s(6 * 3600);
  workload::TransformerModel model;
  EngineConfig engine;
  // Replicas at the start; with an autoscaler it moves between min and max. With disaggregation
  // these are the decode replicas.
  int replicas = 1;
  // Disaggregated prefill and decode (DistServe, Splitwise): > 0 puts this many replicas (fixed)
  // in a prefill pool that only prefills and samples the first token; each request's prompt KV
  // then moves to a decode replica (KvTransport), which only decodes. 0: every replica does both.
  int prefill_replicas = 0;
  std::string autoscaler;      // registry name; "" = a fixed fleet
  sim::Params autoscaler_params;
  int min_replicas = 1, max_replicas = 1;
  // From a scale-up decision until a new replica serves: GPUs allocated and the engine started,
  // then the weights loaded at load_bytes_per_s.
  sim::Time allocation_delay = sim::Time::zero();
  double load_bytes_per_s = 0.0;  // 0: the node's storage NICs
  // Instead: the weights are read from the shared store's `weights_pool` (empty: its first) by
  // the replica's nodes, as store reads (ReplicaHost::load_weights), after allocation_delay.
  bool weights_from_store = false;
  std::string weights_pool;
  // Queue priority of the replicas' cluster jobs (higher first; a preemptive scheduler lets them
  // preempt lower-priority jobs).
  int priority = 0;
  std::string router = "least_outstanding";
  sim::Params router_params;
  RequestStreamConfig requests;
  GatewayConfig gateway;
  SlaConfig sla;
  sim::Time sample_every = sim::Time::from_s(10);  // series and autoscaler load window
};

// Whether `c` runs fluid: resolution fluid, or auto with a request stream that spans at least
// auto_fluid_from (one without an end counts as long; a trace, closed-loop clients or a
// disaggregated service, which fluid cannot serve, stays at iteration level under auto).
inline bool runs_fluid(const ServiceConfig& c) {
  if (c.resolution == Resolution::kFluid) return true;
  if (c.resolution != Resolution::kAuto || c.requests.kind == RequestStreamConfig::Kind::kTrace ||
      c.requests.kind == RequestStreamConfig::Kind::kClosedLoop || c.prefill_replicas > 0) {
    return false;
  }
  return c.requests.stop.is_max() || c.requests.stop - c.requests.start >= c.auto_fluid_from;
}

}  // namespace dcsim::models::inference
