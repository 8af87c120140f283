#include "models/inference/serving_replica.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::inference {

ServingReplica::ServingReplica(sim::Simulator& sim, const IterationCostModel& cost, const EngineConfig& engine,
                               DoneFn on_done, double kv_capacity_tokens)
    : sim_(sim),
      cost_(cost),
      engine_(engine),
      max_batch_(engine.max_batch * engine.attention_dp()),
      max_batched_tokens_(engine.max_batched_tokens * engine.attention_dp()),
      on_done_(std::move(on_done)),
      capacity_(kv_capacity_tokens >= 0.0 ? std::floor(kv_capacity_tokens) : cost.memory().kv_capacity_tokens) {}

ServingReplica::~ServingReplica() {
  if (iteration_.valid()) sim_.cancel(iteration_);
}

int ServingReplica::allocate(const ReplicaRequest& request) {
  int slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<int>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  const std::uint32_t epoch = s.epoch + 1;
  s = Slot{};
  s.epoch = epoch;
  s.request = request;
  return slot;
}

void ServingReplica::release(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  s.state = State::kFree;
  ++s.epoch;
  free_slots_.push_back(slot);
}

void ServingReplica::link_running(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  s.prev = running_tail_;
  s.next = -1;
  if (running_tail_ >= 0) slots_[static_cast<std::size_t>(running_tail_)].next = slot;
  else running_head_ = slot;
  running_tail_ = slot;
  ++running_;
}

void ServingReplica::unlink_running(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  if (s.prev >= 0) slots_[static_cast<std::size_t>(s.prev)].next = s.next;
  else running_head_ = s.next;
  if (s.next >= 0) slots_[static_cast<std::size_t>(s.next)].prev = s.prev;
  else running_tail_ = s.prev;
  s.prev = s.next = -1;
  --running_;
}

double ServingReplica::kv_of(const Slot& s) const {
  return s.state == State::kDecoding ? s.kv + static_cast<double>(decode_steps_ - s.decode_base) : s.kv;
}

void ServingReplica::submit(const ReplicaRequest& request) {
  // Never fits: its whole context (prompt and every token but the last, whose KV is never
  // written) exceeds the KV cache; without chunked prefill, exceeds one iteration's tokens (a
  // preempted sequence is prefilled again whole: vLLM v0 requires max_num_batched_tokens >=
  // max_model_len).
  const double context = static_cast<double>(request.input_tokens) + request.output_tokens - 1;
  if (context > capacity_ || (!engine_.chunked_prefill && context > engine_.max_batched_tokens)) {
    ReplicaOutcome out;
    out.request = request;
    out.rejected = true;
    out.admitted = out.first_token = out.last_token = sim_.now();
    on_done_(out);
    return;
  }
  const int slot = allocate(request);
  slots_[static_cast<std::size_t>(slot)].state = State::kWaiting;
  waiting_.push_back(slot);
  if (!iteration_.valid()) start_iteration();
}

namespace {

// Every token's KV a request holds at its end: the prompt and every answer token but the last.
double context_tokens(const ReplicaRequest& r) { return static_cast<double>(r.input_tokens) + r.output_tokens - 1; }

}  // namespace

bool ServingReplica::admissible(const Slot& s) const {
  // Prefilled elsewhere: admitted by step 2b only.
  if (s.request.kv_ready || running_ >= max_batch_) return false;
  if (engine_.admission == Admission::kReserve) return kv_reserved_ + context_tokens(s.request) <= capacity_;
  // This iteration's decode step appends growth_ tokens of KV before the new prompt's is used.
  return kv_used_ + growth_ + s.request.input_tokens + s.generated <= capacity_;
}

void ServingReplica::reserve(const Slot& s) {
  if (engine_.admission == Admission::kReserve) kv_reserved_ += context_tokens(s.request);
}

void ServingReplica::admit(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  s.state = State::kPrefilling;
  s.prefill_target = s.request.input_tokens + s.generated;
  s.prefilled = 0;
  s.kv = s.prefill_target;
  kv_used_ += s.kv;
  reserve(s);
  if (s.admitted == sim::Time::max()) s.admitted = sim_.now();
  link_running(slot);
  prefilling_.push_back(slot);
}

void ServingReplica::start_decoding(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  s.state = State::kDecoding;
  s.decode_base = decode_steps_;
  decode_kv_ += s.kv;
  ++decoding_;
  finishing_.push({decode_steps_ + (s.request.output_tokens - s.generated), slot, s.epoch});
}

void ServingReplica::finish(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  const double kv = kv_of(s);
  kv_used_ -= kv;
  if (engine_.admission == Admission::kReserve) kv_reserved_ -= context_tokens(s.request);
  if (s.state == State::kDecoding) {
    decode_kv_ -= kv;
    --decoding_;
  }
  unlink_running(slot);
  ReplicaOutcome out;
  out.request = s.request;
  out.admitted = s.admitted;
  out.first_token = s.first_token;
  out.last_token = sim_.now();
  out.preemptions = s.preemptions;
  release(slot);
  on_done_(out);
}

void ServingReplica::preempt_latest(double& swap_tokens) {
  const int slot = running_tail_;
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  const double kv = kv_of(s);
  if (s.state == State::kDecoding) {
    s.generated += static_cast<int>(decode_steps_ - s.decode_base);
    s.kv = kv;
    decode_kv_ -= kv;
    --decoding_;
    ++s.epoch;  // its finishing entry is stale now
  } else {
    prefilling_.erase(std::find(prefilling_.begin(), prefilling_.end(), slot));
  }
  kv_used_ -= kv;
  unlink_running(slot);
  ++s.preemptions;
  ++counters_.preemptions;
  // A sequence still prefilling has nothing worth swapping: it starts over either way.
  if (engine_.preemption == Preemption::kSwap && s.state == State::kDecoding) {
    s.state = State::kSwapped;
    swap_tokens += kv;
    swapped_.push_back(slot);
  } else {
    s.state = State::kWaiting;
    s.kv = 0.0;
    s.prefilled = 0;
    s.request.kv_ready = false;  // its KV is gone: prefilled again here
    waiting_.push_front(slot);
  }
}

void ServingReplica::start_iteration() {
  chunks_.clear();
  chunk_slots_.clear();
  decode_step_ = false;
  growth_ = 0;
  double swap_tokens = 0.0;
  // 1. Swapped-out sequences first, with room for this step's growth.
  while (!swapped_.empty()) {
    const int slot = swapped_.front();
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    if (running_ >= max_batch_ || kv_used_ + s.kv + decoding_ + 1 > capacity_) break;
    swapped_.pop_front();
    kv_used_ += s.kv;
    swap_tokens += s.kv;
    link_running(slot);
    start_decoding(slot);
  }
  const bool may_admit = swapped_.empty();
  // 2b. Sequences prefilled elsewhere decode from this iteration on, with room for its growth.
  while (may_admit && !waiting_.empty()) {
    const int slot = waiting_.front();
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    const bool fits = engine_.admission == Admission::kReserve
                          ? kv_reserved_ + context_tokens(s.request) <= capacity_
                          : kv_used_ + s.request.input_tokens + decoding_ + 1 <= capacity_;
    if (!s.request.kv_ready || running_ >= max_batch_ || !fits) break;
    waiting_.pop_front();
    s.generated = 1;
    s.prefill_target = s.prefilled = s.request.input_tokens;
    s.kv = s.request.input_tokens;
    kv_used_ += s.kv;
    reserve(s);
    if (s.admitted == sim::Time::max()) s.admitted = sim_.now();
    link_running(slot);
    if (s.request.output_tokens <= 1) {
      finish(slot);  // nothing left to decode
    } else {
      start_decoding(slot);
    }
  }
  int budget = max_batched_tokens_;
  bool prefill_only = false;
  if (!engine_.chunked_prefill && may_admit && !waiting_.empty() &&
      admissible(slots_[static_cast<std::size_t>(waiting_.front())])) {
    prefill_only = true;  // vLLM v0: prefills first, whole prompts, no decode this iteration
    while (!waiting_.empty()) {
      const int slot = waiting_.front();
      const Slot& s = slots_[static_cast<std::size_t>(slot)];
      const int target = s.request.input_tokens + s.generated;
      if (!admissible(s) || target > budget) break;
      waiting_.pop_front();
      admit(slot);
      budget -= target;
    }
  }
  if (!prefill_only) {
    // 2. The decode step's KV growth must fit.
    while (decoding_ > 0 && kv_used_ + decoding_ > capacity_) preempt_latest(swap_tokens);
    decode_step_ = decoding_ > 0;
    growth_ = decoding_;
    budget -= decoding_;
  }
  if (engine_.chunked_prefill) {
    // 3. Partial prefills continue, then the queue's head is admitted while it fits.
    for (const int slot : prefilling_) {
      if (budget <= 0) break;
      const Slot& s = slots_[static_cast<std::size_t>(slot)];
      const int chunk = std::min(s.prefill_target - s.prefilled, budget);
      chunks_.push_back({chunk, s.prefilled});
      chunk_slots_.push_back(slot);
      budget -= chunk;
    }
    while (may_admit && budget > 0 && !waiting_.empty() &&
           admissible(slots_[static_cast<std::size_t>(waiting_.front())])) {
      const int slot = waiting_.front();
      waiting_.pop_front();
      admit(slot);
      const Slot& s = slots_[static_cast<std::size_t>(slot)];
      const int chunk = std::min(s.prefill_target, budget);
      chunks_.push_back({chunk, 0});
      chunk_slots_.push_back(slot);
      budget -= chunk;
    }
  } else if (prefill_only) {
    for (const int slot : prefilling_) {
      const Slot& s = slots_[static_cast<std::size_t>(slot)];
      chunks_.push_back({s.prefill_target, 0});
      chunk_slots_.push_back(slot);
    }
  }
  if (chunks_.empty() && !decode_step_) return;  // idle until a request arrives

  int sampled = decode_step_ ? decoding_ : 0;
  for (std::size_t i = 0; i < chunks_.size(); ++i) {
    const Slot& s = slots_[static_cast<std::size_t>(chunk_slots_[i])];
    if (s.prefilled + chunks_[i].tokens == s.prefill_target) ++sampled;
  }
  const int decodes = decode_step_ ? decoding_ : 0;
  // Attention reads each decoding sequence's KV including the token being appended.
  IterationCost c = cost_.cost(chunks_, decodes, decode_kv_ + decodes, sampled);
  if (clock_factor_ != 1.0) {
    c.compute_s /= clock_factor_;
    c.time_s = c.compute_s + c.memory_s + c.communication_s;
  }
  if (swap_tokens > 0.0) {
    const double swap_s = swap_tokens * cost_.memory().kv_bytes_per_token / engine_.swap_bytes_per_s;
    c.time_s += swap_s;
    c.communication_s += swap_s;
  }
  counters_.busy_s += c.time_s;
  counters_.compute_s += c.compute_s;
  counters_.memory_s += c.memory_s;
  counters_.communication_s += c.communication_s;
  ++counters_.iterations;
  counters_.batch_sum += decodes + static_cast<double>(chunks_.size());
  iteration_ = sim_.after(std::max(sim::Time::from_ns(1), sim::Time::ceil_from_seconds(c.time_s)),
                          [this] { end_iteration(); });
}

void ServingReplica::end_iteration() {
  iteration_ = {};
  if (decode_step_) {
    ++decode_steps_;
    kv_used_ += decoding_;
    decode_kv_ += decoding_;
    counters_.decode_tokens += decoding_;
    while (!finishing_.empty() && finishing_.top().step <= decode_steps_) {
      const Finish f = finishing_.top();
      finishing_.pop();
      const Slot& s = slots_[static_cast<std::size_t>(f.slot)];
      if (s.state != State::kDecoding || s.epoch != f.epoch) continue;  // preempted or stopped since
      finish(f.slot);
    }
  }
  for (std::size_t i = 0; i < chunks_.size(); ++i) {
    const int slot = chunk_slots_[i];
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    s.prefilled += chunks_[i].tokens;
    counters_.prefill_tokens += chunks_[i].tokens;
    if (s.prefilled < s.prefill_target) continue;
    prefilling_.erase(std::find(prefilling_.begin(), prefilling_.end(), slot));
    if (s.first_token == sim::Time::max()) s.first_token = sim_.now();
    ++s.generated;  // the prefill's last position samples the next token
    if (s.generated >= s.request.output_tokens) {
      finish(slot);
    } else {
      start_decoding(slot);
    }
  }
  start_iteration();
}

ReplicaLoad ServingReplica::load() const {
  ReplicaLoad l;
  l.waiting = static_cast<int>(waiting_.size() + swapped_.size());
  l.running = running_;
  l.kv_used_fraction = capacity_ > 0.0 ? kv_used_ / capacity_ : 0.0;
  return l;
}

void ServingReplica::visit_unfinished(
    const std::function<void(const ReplicaRequest&, sim::Time first_token)>& visit) const {
  for (const Slot& s : slots_) {
    if (s.state != State::kFree) visit(s.request, s.first_token);
  }
}

std::vector<ReplicaRequest> ServingReplica::stop() {
  if (iteration_.valid()) sim_.cancel(iteration_);
  iteration_ = {};
  std::vector<ReplicaRequest> left;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state != State::kFree) left.push_back(slots_[i].request);
  }
  std::sort(left.begin(), left.end(), [](const ReplicaRequest& a, const ReplicaRequest& b) { return a.id < b.id; });
  slots_.clear();
  free_slots_.clear();
  waiting_.clear();
  swapped_.clear();
  prefilling_.clear();
  running_head_ = running_tail_ = -1;
  running_ = decoding_ = 0;
  kv_used_ = decode_kv_ = kv_reserved_ = 0.0;
  finishing_ = {};
  return left;
}

ReplicaLoad combined_load(const std::vector<std::unique_ptr<ServingReplica>>& engines) {
  ReplicaLoad total;
  for (const auto& e : engines) {
    const ReplicaLoad l = e->load();
    total.waiting += l.waiting;
    total.running += l.running;
    total.kv_used_fraction += l.kv_used_fraction / static_cast<double>(engines.size());
  }
  return total;
}

}  // namespace dcsim::models::inference
