#pragma once
// CollectiveAlgorithm: one way of running collectives (ring, double binary tree, NVLS,
// hierarchical), registered under the name scenario files and `--algo` use.
//
// Analytic mode: estimate() is a closed form  time = latency(protocol) + wire bytes / bandwidth,
// the alpha-beta model with NCCL's per-protocol latencies and bandwidth factors
// (collective_types.hpp documents every constant). Each implementation's header writes its
// formulas out.

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "models/collective/collective_types.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::collective {

class CollectiveAlgorithm {
 public:
  virtual ~CollectiveAlgorithm() = default;
  virtual std::string_view name() const = 0;
  // Whether this algorithm can run `op` on `system` at all (NVLS needs one NVSwitch domain ...).
  virtual bool supports(CollectiveOp op, const CollectiveSystem& system) const = 0;
  // Closed-form estimate with protocol `p`; nullopt when the algorithm does not run `op` with
  // `p`. bytes > 0 (nccl-tests convention, collective_types.hpp).
  virtual std::optional<CollectiveEstimate> estimate(CollectiveOp op, double bytes,
                                                     const CollectiveSystem& system,
                                                     const CollectiveTuning& tuning,
                                                     Protocol p) const = 0;
};

using CollectiveAlgorithmFactory = std::function<std::unique_ptr<CollectiveAlgorithm>()>;
using CollectiveRegistry = sim::Registry<CollectiveAlgorithmFactory>;

// Registers ring, tree, nvls and hierarchical.
void register_collective_algorithms(CollectiveRegistry& registry);

// Bandwidths the algorithms share (bytes/s, after transport efficiency, before protocol factors).
// NVLink per GPU and direction.
double nvlink_bandwidth(const CollectiveSystem& s, const CollectiveTuning& t);
// All NICs of one node usable by the communicator, per direction.
double node_network_bandwidth(const CollectiveSystem& s, const CollectiveTuning& t);
// One-way network path latency in microseconds.
inline double fabric_latency_us(const CollectiveSystem& s) { return s.fabric_latency_ns * 1e-3; }

}  // namespace dcsim::models::collective
