// One replica's continuous batching (models/inference/serving_replica.hpp).
#include <catch2/catch.hpp>

#include <vector>

#include "models/hardware/node_presets.hpp"
#include "models/inference/serving_replica.hpp"

namespace mi = dcsim::models::inference;
namespace mw = dcsim::models::workload;
using dcsim::sim::Time;

namespace {

struct Bench {
  explicit Bench(mi::EngineConfig e = {})
      : engine(e),
        cost(mw::llama3_8b(), e, dcsim::models::hardware::hgx_h100(), [](double) { return 0.0; }),
        replica(sim, cost, engine, [this](const mi::ReplicaOutcome& o) { done.push_back(o); }) {}
  mi::ReplicaRequest request(std::uint64_t id, int input, int output) {
    return {id, input, output, sim.now(), sim.now()};
  }
  static Time ns(double s) { return std::max(Time::from_ns(1), Time::ceil_from_seconds(s)); }

  dcsim::sim::Simulator sim;
  mi::EngineConfig engine;
  mi::IterationCostModel cost;
  std::vector<mi::ReplicaOutcome> done;
  mi::ServingReplica replica;
};

// Two sequences admitted together whose answers outgrow the KV cache (each fits alone), run to the
// end; returns their (prompt, output) tokens.
std::pair<int, int> overfill(Bench& b) {
  const int capacity = static_cast<int>(b.cost.memory().kv_capacity_tokens);
  const int prompt = capacity / 2 - 1000, output = 3000;
  b.replica.submit(b.request(1, prompt, output));
  b.replica.submit(b.request(2, prompt, output));
  b.sim.run();
  return {prompt, output};
}

}  // namespace

TEST_CASE("a lone request's first token comes after its prefill and each later token after one decode step") {
  Bench b;
  b.replica.submit(b.request(1, 512, 4));
  b.sim.run();
  REQUIRE(b.done.size() == 1);
  const mi::ReplicaOutcome& o = b.done[0];
  // Iteration 1 prefills the 512 prompt tokens and samples token 1; iterations 2-4 decode one
  // token each, attention reading 513, 514, 515 tokens of KV (prompt + tokens so far).
  const Time prefill = Bench::ns(b.cost.cost({{512, 0}}, 0, 0.0, 1).time_s);
  Time t = prefill;
  for (int k = 0; k < 3; ++k) t += Bench::ns(b.cost.cost({}, 1, 513.0 + k, 1).time_s);
  CHECK(o.first_token == prefill);
  CHECK(o.last_token == t);
  CHECK(o.admitted == Time::zero());
  CHECK(b.replica.kv_used_tokens() == 0.0);  // everything released
  CHECK(b.replica.counters().decode_tokens == 3.0);
  CHECK(b.replica.counters().prefill_tokens == 512.0);
}

TEST_CASE("a throttled clock stretches a prefill's compute but not a decode step's reads from HBM") {
  Bench b;
  b.replica.set_clock_factor(0.5);
  b.replica.submit(b.request(1, 4096, 2));
  b.sim.run();
  REQUIRE(b.done.size() == 1);
  const mi::IterationCost prefill = b.cost.cost({{4096, 0}}, 0, 0.0, 1);
  const mi::IterationCost decode = b.cost.cost({}, 1, 4097.0, 1);
  REQUIRE(prefill.compute_s > 0.5 * prefill.time_s);  // mostly compute bound
  REQUIRE(decode.compute_s == 0.0);                   // all memory bound
  const Time first = Bench::ns(prefill.compute_s / 0.5 + prefill.memory_s + prefill.communication_s);
  CHECK(b.done[0].first_token == first);
  CHECK(b.done[0].last_token == first + Bench::ns(decode.time_s));
}

TEST_CASE("admission refuses a request exactly when its KV would exceed the capacity") {
  // Request A (prompt a) is prefilled in iteration 1 and decodes in iteration 2, appending one
  // token of KV. B arrives during iteration 1; at iteration 2's start it is admitted iff
  // a + 1 + its prompt <= capacity.
  for (const int extra : {0, 1}) {
    Bench b;
    const int a = 1000;
    const int capacity = static_cast<int>(b.cost.memory().kv_capacity_tokens);
    b.replica.submit(b.request(1, a, 100));
    b.sim.run_until(Time::from_ns(1));  // iteration 1 in flight
    b.replica.submit(b.request(2, capacity - a - 1 + extra, 1));
    const Time end_of_first = Bench::ns(b.cost.cost({{a, 0}}, 0, 0.0, 1).time_s);
    b.sim.run_until(end_of_first);  // iteration 2 has started
    const mi::ReplicaLoad load = b.replica.load();
    CHECK(load.running == (extra == 0 ? 2 : 1));
    CHECK(load.waiting == (extra == 0 ? 0 : 1));
  }
}

TEST_CASE("a request whose context can never fit the KV cache is rejected at once") {
  Bench b;
  const int capacity = static_cast<int>(b.cost.memory().kv_capacity_tokens);
  b.replica.submit(b.request(1, capacity, 2));  // prompt + 1 token of KV > capacity
  REQUIRE(b.done.size() == 1);
  CHECK(b.done[0].rejected);
  b.replica.submit(b.request(2, capacity, 1));  // exactly the capacity: served
  b.sim.run();
  REQUIRE(b.done.size() == 2);
  CHECK_FALSE(b.done[1].rejected);
}

TEST_CASE("when decode growth outruns the KV cache the latest admitted sequence is preempted and recomputed") {
  // Two sequences whose answers together need more KV than there is: the second admitted is
  // preempted, recomputed once the first has finished, and both answers are complete.
  Bench b;
  const auto [prompt, output] = overfill(b);
  REQUIRE(b.done.size() == 2);
  CHECK(b.replica.counters().preemptions >= 1);
  CHECK(b.done[0].request.id == 1);  // the first admitted was never preempted
  CHECK(b.done[0].preemptions == 0);
  CHECK(b.done[1].preemptions >= 1);
  // Every output token is sampled once: by a decode step, or by the prefill (the first, and the
  // next one after each recomputation); the recomputation shows as extra prefill tokens.
  CHECK(b.replica.counters().decode_tokens == 2.0 * (output - 1) - b.done[1].preemptions);
  CHECK(b.replica.counters().prefill_tokens > 2.0 * prompt);
  CHECK(b.replica.kv_used_tokens() == 0.0);
}

TEST_CASE("swap preemption copies the KV out and back instead of recomputing it") {
  mi::EngineConfig e;
  e.preemption = mi::Preemption::kSwap;
  Bench b(e);
  const auto [prompt, output] = overfill(b);
  REQUIRE(b.done.size() == 2);
  CHECK(b.replica.counters().preemptions >= 1);
  CHECK(b.replica.counters().prefill_tokens == 2.0 * prompt);  // nothing recomputed
  CHECK(b.replica.counters().decode_tokens == 2.0 * (output - 1));
}

TEST_CASE("chunked prefill runs decodes beside prompt chunks while vLLM v0 stalls decodes for a prefill") {
  // A long answer in flight, then a long prompt arrives: with chunked prefill the decode keeps
  // producing a token every iteration; without, one iteration is the whole prefill.
  for (const bool chunked : {true, false}) {
    mi::EngineConfig e;
    e.chunked_prefill = chunked;
    e.max_batched_tokens = chunked ? 512 : 16384;
    Bench b(e);
    b.replica.submit(b.request(1, 100, 400));
    b.sim.run_until(Time::from_s(1));
    b.replica.submit(b.request(2, 8000, 2));
    b.sim.run();
    REQUIRE(b.done.size() == 2);
    const double iterations = static_cast<double>(b.replica.counters().iterations);
    // Chunked: 8000 / (512 - 1) = 16 mixed iterations; v0: one prefill-only iteration.
    if (chunked) {
      CHECK(b.replica.counters().batch_sum / iterations > 1.0);
    } else {
      CHECK(b.replica.counters().prefill_tokens == 8100.0);
    }
    CHECK(b.replica.counters().decode_tokens == 399.0 + 1.0);
  }
}

TEST_CASE("stop returns every unfinished request and leaves the replica empty") {
  Bench b;
  for (std::uint64_t i = 0; i < 5; ++i) b.replica.submit(b.request(i, 2000, 500));
  b.sim.run_until(Time::from_ms(50));
  const auto left = b.replica.stop();
  CHECK(left.size() == 5 - b.done.size());
  CHECK(b.replica.load().outstanding() == 0);
  CHECK(b.replica.kv_used_tokens() == 0.0);
  CHECK(b.replica.idle());
}

TEST_CASE("reserve admission starts a request only when its whole answer fits, and never preempts") {
  // The two sequences of overfill() each need prompt + 3000 - 1 tokens at their end, together
  // more than the cache: on demand both start and one is preempted (the case above); reserved,
  // the second waits for the first to finish, is never preempted, and nothing is recomputed.
  mi::EngineConfig e;
  e.admission = mi::Admission::kReserve;
  Bench b(e);
  const auto [prompt, output] = overfill(b);
  REQUIRE(b.done.size() == 2);
  CHECK(b.replica.counters().preemptions == 0);
  CHECK(b.replica.counters().prefill_tokens == 2.0 * prompt);
  CHECK(b.replica.counters().decode_tokens == 2.0 * (output - 1));
  CHECK(b.done[1].admitted >= b.done[0].last_token);  // one at a time
  CHECK(b.replica.kv_used_tokens() == 0.0);
}

TEST_CASE("reserve admission admits exactly while the reserved contexts fit the cache") {
  // Capacity C: requests of context c = input + output - 1 each run at most floor(C / c) at once.
  mi::EngineConfig e;
  e.admission = mi::Admission::kReserve;
  Bench b(e);
  const int capacity = static_cast<int>(b.cost.memory().kv_capacity_tokens);
  const int input = 1000, output = capacity / 4 - input + 1;  // c = C / 4 (C a multiple of 4 or not)
  for (std::uint64_t id = 1; id <= 6; ++id) b.replica.submit(b.request(id, input, output));
  // Iteration 1 started with request 1 alone; iteration 2 admits the rest as they fit (their
  // prompts fit its token budget many times over).
  b.sim.run_until(Bench::ns(b.cost.cost({{input, 0}}, 0, 0.0, 1).time_s));
  const double context = input + output - 1.0;
  const int fit = static_cast<int>(capacity / context);
  CHECK(b.replica.load().running == fit);
  CHECK(b.replica.load().waiting == 6 - fit);
  b.sim.run();
  CHECK(b.done.size() == 6);
  CHECK(b.replica.counters().preemptions == 0);
}
