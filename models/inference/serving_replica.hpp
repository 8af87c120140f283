#pragma once
// One replica's serving engine, iteration by iteration, as vLLM and TensorRT-LLM schedule theirs
// (continuous batching): one simulator event per engine iteration, never one per token.
//
// Each iteration (its cost from IterationCostModel):
//   1. swap mode: swapped-out sequences come back first (FIFO), as KV room and the batch allow,
//      each paying its KV bytes over the host link;
//   2. the decode step's KV must fit: every decoding sequence appends one token's KV. While it
//      does not, the most recently admitted running sequence is preempted (vLLM's victim):
//      recompute frees its KV and puts it at the head of the queue (its prompt and generated
//      tokens are prefilled again on readmission); swap copies its KV to host memory;
//   2b. requests whose prompt KV arrived from a prefill replica (kv_ready) join the decoding
//      sequences at the queue's head, as KV room (prompt + this step's growth) and the batch allow;
//   3. chunked prefill (Sarathi-Serve): every decoding sequence gets its token, then partial
//      prefills continue and waiting requests are admitted in FIFO order into the remaining
//      token budget (max_batched_tokens), in chunks. Without it an iteration either prefills
//      whole prompts of admitted requests (when the queue's head can be admitted) or decodes
//      (vLLM v0's prefill-first policy);
//   4. admission: the queue's head is admitted only while the batch has room (max_batch) and
//      its KV (its whole prompt) fits beside what is held and this step's decode growth:
//      used + growth + prompt <= capacity, exactly. With reserve admission (TensorRT-LLM's
//      GUARANTEED_NO_EVICT) its whole context, prompt + answer - 1 tokens, must fit beside what
//      the running requests reserved: reserved + context <= capacity; then used + growth never
//      exceeds reserved, and step 2 never preempts. A request whose prompt
//      plus answer can never fit the capacity (or, without chunked prefill, one iteration's
//      tokens) is rejected on arrival (vLLM refuses prompts over its max model length).
// The prefill's last chunk samples the first token; each decode step one more. A sequence's KV
// is its prompt plus the tokens decoded so far. Decoding sequences advance together, so their
// progress is kept as one step counter with each sequence's finishing step in a heap: an
// iteration costs O(log n) per sequence that starts or ends, not O(batch).

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "models/inference/iteration_cost.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::inference {

// A request as a replica receives it.
struct ReplicaRequest {
  std::uint64_t id = 0;
  int input_tokens = 0;
  int output_tokens = 0;
  sim::Time issued;   // sent by the client (before the gateway)
  sim::Time arrived;  // at the replica
  // Prefilled elsewhere (disaggregated serving): its prompt's KV arrived with it and its first
  // token was sampled there, so it only decodes here.
  bool kv_ready = false;
};

// A request the replica is done with: answered in full, or rejected (it can never fit).
struct ReplicaOutcome {
  ReplicaRequest request;
  bool rejected = false;
  sim::Time admitted;      // first admission
  sim::Time first_token;   // the first output token sampled
  sim::Time last_token;
  int preemptions = 0;
};

// What routers and autoscalers read.
struct ReplicaLoad {
  int waiting = 0;      // queued: not admitted, swapped out included
  int running = 0;      // admitted: prefilling or decoding
  double kv_used_fraction = 0.0;
  int outstanding() const { return waiting + running; }
};

struct ReplicaCounters {
  double busy_s = 0.0;  // iterations' time
  double compute_s = 0.0, memory_s = 0.0, communication_s = 0.0;
  std::uint64_t iterations = 0;
  std::uint64_t preemptions = 0;
  double prefill_tokens = 0.0;  // prompt tokens computed (recomputation included)
  double decode_tokens = 0.0;
  double batch_sum = 0.0;       // sequences per iteration, summed (mean batch = / iterations)
  // A replica's engines (pipeline stages) or a pool of replicas, summed field by field.
  ReplicaCounters& operator+=(const ReplicaCounters& c) {
    busy_s += c.busy_s;
    compute_s += c.compute_s;
    memory_s += c.memory_s;
    communication_s += c.communication_s;
    iterations += c.iterations;
    preemptions += c.preemptions;
    prefill_tokens += c.prefill_tokens;
    decode_tokens += c.decode_tokens;
    batch_sum += c.batch_sum;
    return *this;
  }
  // What these (later) counters add to `earlier` ones of the same replica.
  ReplicaCounters since(const ReplicaCounters& earlier) const {
    ReplicaCounters d = *this;
    d.busy_s -= earlier.busy_s;
    d.compute_s -= earlier.compute_s;
    d.memory_s -= earlier.memory_s;
    d.communication_s -= earlier.communication_s;
    d.iterations -= earlier.iterations;
    d.preemptions -= earlier.preemptions;
    d.prefill_tokens -= earlier.prefill_tokens;
    d.decode_tokens -= earlier.decode_tokens;
    d.batch_sum -= earlier.batch_sum;
    return d;
  }
};

class ServingReplica;

// The load of one replica's engines: requests summed, KV use averaged. O(engines).
ReplicaLoad combined_load(const std::vector<std::unique_ptr<ServingReplica>>& engines);

class ServingReplica {
 public:
  using DoneFn = std::function<void(const ReplicaOutcome&)>;

  // `kv_capacity_tokens` < 0: the cost model's whole capacity (a pipeline-parallel replica's
  // virtual engines share it).
  ServingReplica(sim::Simulator& sim, const IterationCostModel& cost, const EngineConfig& engine, DoneFn on_done,
                 double kv_capacity_tokens = -1.0);
  ~ServingReplica();
  ServingReplica(const ServingReplica&) = delete;
  ServingReplica& operator=(const ServingReplica&) = delete;

  // Queues the request; an idle replica starts an iteration now.
  void submit(const ReplicaRequest& request);
  // Stops now (the replica's GPUs are gone): the iteration in flight is lost and every request
  // not finished is returned, in arrival order, for the service to send elsewhere.
  std::vector<ReplicaRequest> stop();

  // The GPUs' SM clock factor (0 < f <= 1; throttling, a power cap) from the next iteration on:
  // it stretches the compute-bound part of an iteration, not HBM traffic or NVLink (as the
  // compute model's clock factor does; a memory-bound op that a slow clock would make compute
  // bound is still charged its memory time).
  void set_clock_factor(double factor) { clock_factor_ = factor; }

  ReplicaLoad load() const;
  // load().outstanding() without the KV fraction: what a load-aware router compares, per request.
  int outstanding() const { return static_cast<int>(waiting_.size() + swapped_.size()) + running_; }
  // Every request not finished, with its first token's time (Time::max() before it), in no order.
  void visit_unfinished(const std::function<void(const ReplicaRequest&, sim::Time first_token)>& visit) const;
  bool idle() const { return !iteration_.valid(); }
  const ReplicaCounters& counters() const { return counters_; }
  double kv_capacity_tokens() const { return capacity_; }
  double kv_used_tokens() const { return kv_used_; }

 private:
  enum class State : std::uint8_t { kFree, kWaiting, kPrefilling, kDecoding, kSwapped };
  struct Slot {
    ReplicaRequest request;
    State state = State::kFree;
    int generated = 0;        // output tokens sampled (at decode_base for a decoding sequence)
    int prefill_target = 0;   // tokens its prefill computes: prompt (+ generated, recomputed)
    int prefilled = 0;
    double kv = 0.0;          // KV tokens held (decoding: at decode_base)
    std::int64_t decode_base = 0;  // decode_steps_ when it started decoding
    std::uint32_t epoch = 0;  // bumps when it leaves decoding (stale heap entries)
    int prev = -1, next = -1;  // running list, in admission order
    sim::Time admitted = sim::Time::max(), first_token = sim::Time::max();
    int preemptions = 0;
  };
  struct Finish {
    std::int64_t step;
    int slot;
    std::uint32_t epoch;
    bool operator>(const Finish& o) const { return step != o.step ? step > o.step : slot > o.slot; }
  };

  void start_iteration();
  void end_iteration();
  int allocate(const ReplicaRequest& request);
  void release(int slot);
  void link_running(int slot);
  void unlink_running(int slot);
  double kv_of(const Slot& s) const;
  // Frees the most recently admitted running sequence's KV (recompute or swap); its swap-out
  // bytes go to `swap_bytes`.
  void preempt_latest(double& swap_bytes);
  bool admissible(const Slot& s) const;
  void admit(int slot);
  // Reserve admission: adds a request's whole context to what the running ones reserved.
  void reserve(const Slot& s);
  void start_decoding(int slot);
  void finish(int slot);

  sim::Simulator& sim_;
  const IterationCostModel& cost_;
  EngineConfig engine_;
  // The replica's batch limits: the engine's per attention rank, as each data-parallel rank of an
  // expert-parallel replica schedules its own batch (vLLM's DP engines); = engine's otherwise.
  int max_batch_ = 0, max_batched_tokens_ = 0;
  DoneFn on_done_;
  double capacity_ = 0.0;
  double clock_factor_ = 1.0;

  std::vector<Slot> slots_;
  std::vector<int> free_slots_;
  std::deque<int> waiting_;
  std::deque<int> swapped_;
  std::deque<int> prefilling_;  // admitted, prompt not fully computed, in admission order
  int running_head_ = -1, running_tail_ = -1;
  int running_ = 0;
  int decoding_ = 0;
  double kv_used_ = 0.0;
  double kv_reserved_ = 0.0;  // reserve admission: the running requests' whole contexts
  double decode_kv_ = 0.0;  // KV tokens of the decoding sequences
  std::int64_t decode_steps_ = 0;
  std::priority_queue<Finish, std::vector<Finish>, std::greater<>> finishing_;

  // The iteration in flight.
  sim::EventHandle iteration_;
  std::vector<PrefillChunk> chunks_;
  std::vector<int> chunk_slots_;
  bool decode_step_ = false;
  int growth_ = 0;  // KV tokens this iteration's decode step appends
  ReplicaCounters counters_;
};

}  // namespace dcsim::models::inference
