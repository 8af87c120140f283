#pragma once
// How a prefilled request's KV cache reaches its decode replica in disaggregated serving
// (DistServe, Splitwise): every TP GPU of the prefill replica sends its shard of the prompt's KV
// to the decode replica. The datacenter's transport sends them as flows on the backend fabric
// (inference_subsystem.cpp), where they share links with everything else; DirectKvTransport is
// the fabric-less estimate: each of the replica's NICs at line rate, nothing shared.

#include <cstddef>
#include <functional>

#include "sim/simulator.hpp"

namespace dcsim::models::inference {

class KvTransport {
 public:
  virtual ~KvTransport() = default;
  // Moves `bytes` of KV (the whole replica's, all shards) from the GPUs of replica handle `from`
  // to those of `to` (ReplicaHost handles); `done` runs once all of it has arrived.
  virtual void transfer(std::size_t from, std::size_t to, double bytes, std::function<void()> done) = 0;
};

// bytes / bytes_per_s after the call (latency, microseconds, neglected beside the transfer).
class DirectKvTransport final : public KvTransport {
 public:
  DirectKvTransport(sim::Simulator& sim, double bytes_per_s) : sim_(sim), bytes_per_s_(bytes_per_s) {}
  void transfer(std::size_t, std::size_t, double bytes, std::function<void()> done) override {
    sim_.after(sim::Time::ceil_from_seconds(bytes / bytes_per_s_), std::move(done));
  }

 private:
  sim::Simulator& sim_;
  double bytes_per_s_;
};

}  // namespace dcsim::models::inference
