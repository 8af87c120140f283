#pragma once
// Context parallelism as ring attention (issue 15, item 3; Megatron-LM docs, "context
// parallelism": the sequence is split over cp ranks, each computing attention of its queries
// against every key/value block, the KV blocks passed around the CP ring; Transformer Engine
// overlaps each ring step's send/receive with the attention of the block in hand).
//
// Per layer and micro-batch, one CP rank holds s b / cp tokens and their K and V block of
//   block = 2 (K, V) x s b / cp x kv_heads_per_tp_rank x head_dim x 2 B
// and passes it cp - 1 times in the forward; the backward passes the KV blocks again and the
// gradients dK, dV of the same size the other way (2 blocks per step); full recomputation runs
// the forward ring once more. So per layer and micro-batch one rank sends
//   (cp - 1) x block x (1 + 2 (+ 1 with full recomputation)) bytes.
// Overlap: a ring step's transfer runs while the rank computes attention on the block it has
// (1/cp of the layer's attention: Megatron splits the sequence in 2 cp chunks and pairs chunk i
// with chunk 2 cp - 1 - i, so causal work is even over ranks); a step exposes what its transfer
// takes beyond that compute:
//   exposed = (cp - 1) max(0, t_block - attn_fwd / cp) + (cp - 1) max(0, t_2blocks - attn_bwd / cp)
//             (+ the forward term again with full recomputation).

namespace dcsim::models::workload {

struct RingAttentionCost {
  double bytes = 0.0;      // sent by one rank, one layer, one micro-batch
  double comm_s = 0.0;     // its transfer time, all ring steps
  double exposed_s = 0.0;  // what attention compute does not hide
};

// cp ranks; block_bytes the K+V block of one rank; t_block_s / t_two_blocks_s one ring step's
// transfer of one / two blocks; attention forward / backward time of one layer and micro-batch
// on one rank (all cp blocks).
RingAttentionCost ring_attention_cost(int cp, double block_bytes, double t_block_s, double t_two_blocks_s,
                                      double attention_forward_s, double attention_backward_s,
                                      bool full_recompute);

}  // namespace dcsim::models::workload
