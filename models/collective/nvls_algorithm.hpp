#pragma once
// NVLS (NCCL_ALGO_NVLS): in-switch reduction by a third-generation NVSwitch (NVLink SHARP),
// all_reduce inside one NVLink domain. GPU i owns chunk i (S/n): multimem.ld_reduce makes the
// switch read chunk i from all n GPUs and return the sum (each GPU sends S/n per chunk: S in all,
// receives S/n), then multimem.st sends S/n to the switch, which writes it to every GPU (each
// receives S). Per GPU and direction the wire carries S (1 + 1/n):
//   t = nvls_latency + S (1 + 1/n) / (B_nvlink_line x nvls_efficiency)      (Simple only)
// so busBW = B_line x nvls_efficiency x 2(n-1)/(n+1): 476-480 GB/s on 8 x H100 with the
// documented efficiency (collective_types.hpp), against 370 for the ring.

#include "models/collective/collective_algorithm.hpp"

namespace dcsim::models::collective {

class NvlsAlgorithm : public CollectiveAlgorithm {
 public:
  std::string_view name() const override { return "nvls"; }
  bool supports(CollectiveOp op, const CollectiveSystem& system) const override;
  std::optional<CollectiveEstimate> estimate(CollectiveOp op, double bytes,
                                             const CollectiveSystem& system,
                                             const CollectiveTuning& tuning,
                                             Protocol p) const override;
};

void register_nvls(CollectiveRegistry& registry);

}  // namespace dcsim::models::collective
