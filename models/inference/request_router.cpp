#include "models/inference/request_router.hpp"

namespace dcsim::models::inference {

namespace {

class RoundRobin final : public RequestRouter {
 public:
  std::size_t choose(std::span<const ReplicaLoad> replicas) override { return next_++ % replicas.size(); }
  double fluid_weight(double) const override { return 1.0; }

 private:
  std::size_t next_ = 0;
};

// The replica with the smallest key; the first one on ties.
template <class Key>
std::size_t argmin(std::span<const ReplicaLoad> replicas, Key key) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < replicas.size(); ++i) {
    if (key(replicas[i]) < key(replicas[best])) best = i;
  }
  return best;
}

class LeastOutstanding final : public RequestRouter {
 public:
  std::size_t choose(std::span<const ReplicaLoad> replicas) override {
    return argmin(replicas, [](const ReplicaLoad& l) { return l.outstanding(); });
  }
};

class JoinShortestQueue final : public RequestRouter {
 public:
  std::size_t choose(std::span<const ReplicaLoad> replicas) override {
    return argmin(replicas, [](const ReplicaLoad& l) { return std::make_pair(l.waiting, l.kv_used_fraction); });
  }
};

}  // namespace

void register_routers(RouterRegistry& registry) {
  registry.add({"round_robin", "each request to the next serving replica in turn", {},
                [](const sim::Params&) { return std::make_unique<RoundRobin>(); }});
  registry.add({"least_outstanding", "the serving replica with the fewest requests queued or running", {},
                [](const sim::Params&) { return std::make_unique<LeastOutstanding>(); }});
  registry.add({"join_shortest_queue",
                "the serving replica with the fewest queued requests (not yet admitted); ties to the least KV "
                "cache in use",
                {},
                [](const sim::Params&) { return std::make_unique<JoinShortestQueue>(); }});
}

}  // namespace dcsim::models::inference
