#pragma once
// Engine benchmark: the classic hold model (Jones 1986). `pending` events are kept in the queue;
// each executed event schedules one new event at now + an exponential delay, so the queue size
// stays constant and every event costs one pop and one push.
//
// The same loop runs on the real Simulator (self-rescheduling callbacks through the slab, the
// radix heap and the event loop) and on a plain std::priority_queue of 16-byte {time, sequence}
// events, in the same process, with the same delays drawn from the same RandomStream, so the
// ratio is what the engine's structure buys over the textbook one on this machine.
//
// Mean delay: pending x 1 us. Simulated time then advances about 1 us per event whatever the
// queue size, so equal-time ties stay rare (as in a real run) instead of piling up at large N.
// Each side first runs max(pending, events / 10) warm-up events (pools and buckets reach their
// steady-state size, the pending times their steady-state spread), then five timed repeats of
// `events` events, alternating engine and heap; each side reports its best repeat.
//
// Used by `dcsim bench engine`; no timing is asserted in tests.

#include <cstddef>
#include <cstdint>

namespace dcsim::sim {

struct EngineBenchResult {
  std::size_t pending;
  std::uint64_t events;        // per timed repeat
  double engine_events_per_s;  // Simulator, best repeat
  double heap_events_per_s;    // std::priority_queue baseline, best repeat
  double ratio;                // engine / heap
};

// pending >= 1, events >= 1 (else InternalError).
EngineBenchResult run_engine_bench(std::size_t pending, std::uint64_t events,
                                   std::uint64_t seed = 1);

}  // namespace dcsim::sim
