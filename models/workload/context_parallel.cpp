#include "models/workload/context_parallel.hpp"

#include <algorithm>

namespace dcsim::models::workload {

RingAttentionCost ring_attention_cost(int cp, double block_bytes, double t_block_s, double t_two_blocks_s,
                                      double attention_forward_s, double attention_backward_s,
                                      bool full_recompute) {
  RingAttentionCost c;
  if (cp <= 1) return c;
  const double steps = cp - 1;
  const double forward_passes = full_recompute ? 2.0 : 1.0;
  c.bytes = steps * block_bytes * (forward_passes + 2.0);
  c.comm_s = steps * (forward_passes * t_block_s + t_two_blocks_s);
  c.exposed_s = steps * (forward_passes * std::max(0.0, t_block_s - attention_forward_s / cp) +
                         std::max(0.0, t_two_blocks_s - attention_backward_s / cp));
  return c;
}

}  // namespace dcsim::models::workload
