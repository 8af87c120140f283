#include "models/collective/nvls_algorithm.hpp"

#include "models/collective/size_ramp.hpp"

namespace dcsim::models::collective {

bool NvlsAlgorithm::supports(CollectiveOp op, const CollectiveSystem& system) const {
  return op == CollectiveOp::kAllReduce && system.nvls && system.nodes == 1 &&
         system.ranks() >= 2;
}

std::optional<CollectiveEstimate> NvlsAlgorithm::estimate(CollectiveOp op, double bytes,
                                                          const CollectiveSystem& s,
                                                          const CollectiveTuning& t,
                                                          Protocol p) const {
  if (!supports(op, s) || p != Protocol::kSimple ||
      !t.enable_protocol[static_cast<int>(Protocol::kSimple)]) {
    return std::nullopt;
  }
  const double n = s.ranks();
  CollectiveEstimate e;
  e.algorithm = "nvls";
  e.protocol = p;
  const double wire_bw = s.nvlink_bandwidth_bytes_per_s * t.nvls_efficiency;
  e.latency_s = t.nvls_latency_us * 1e-6;
  e.tuner_time_s = e.latency_s + bytes * (1.0 + 1.0 / n) / wire_bw;
  // The pipeline fill of the scatter / multimem / gather stages (size_ramp.hpp).
  const double fill = nvls_fill_bytes(bytes, s.gpus_per_node, t);
  e.bandwidth_s = (bytes + fill) * (1.0 + 1.0 / n) / wire_bw;
  e.time_s = e.latency_s + e.bandwidth_s;
  return e;
}

void register_nvls(CollectiveRegistry& registry) {
  registry.add({"nvls",
                "NVLink SHARP in-switch all_reduce inside one NVSwitch domain (H100 and later)",
                {},
                [] { return std::make_unique<NvlsAlgorithm>(); }});
}

}  // namespace dcsim::models::collective
