#pragma once
// Tensor-parallel communication overlapped with the GEMMs next to it (issue 15, item 4), as
// Megatron-LM's --tp-comm-overlap does with Transformer Engine's userbuffers (TE docs,
// "Communication-GEMM overlap"; Megatron-Core docs, "tp_comm_overlap"). It needs sequence
// parallelism: each layer's all-gather before a column-parallel GEMM (QKV, MLP up) and
// reduce-scatter after a row-parallel GEMM (attention out, MLP down), and in the backward the
// all-gather of the output gradient before a row-parallel dgrad and the reduce-scatter after a
// column-parallel dgrad, are split into `chunks` pieces (the TP size: TE's ring exchange and
// pipelined split both cut the tensor into tp parts) and pipelined with the GEMM on those pieces:
// while piece i is multiplied, piece i+1 moves. With a collective of c = t_comm / n per piece and a
// GEMM of g per piece (the GEMM on 1/n of the rows, which runs less efficiently than the whole),
// the pair takes
//   c + (n - 1) max(c, g) + g
// so the exposed time beyond the unsplit GEMM (which the step counts as compute) is
//   exposed = c + (n - 1) max(c, g) + n g - t_gemm
// When each GEMM piece outlasts its transfer this is t_comm / n plus what splitting costs the
// GEMM: the documented exposed fraction of the communication is exactly 1/n (the first piece of
// an all-gather, the last of a reduce-scatter). A collective longer than its GEMM shows the rest.
// The GEMM pieces are not run one by one: TE launches them on a pool of compute streams
// (_NUM_MAX_UB_STREAMS = 3 in transformer_engine/pytorch/module/base.py), so up to 3 pieces share
// the SMs at once and their tiles fill waves together. The split GEMM therefore takes
//   floor(n / 3) x gemm(3 m / n rows) + gemm((n mod 3) m / n rows)
// (split_gemm_s), which keeps the wave quantisation a lone 1/n-row GEMM would suffer out of it.
// Not modelled: the SMs a reduce-scatter kernel takes from the GEMM (TE's ring exchange moves
// data with copy engines); Megatron's re-gather of the input for the weight gradient.

#include <functional>

namespace dcsim::models::workload {

inline constexpr int kOverlapComputeStreams = 3;

// Time of a GEMM of `rows` rows split into `chunks` row pieces run `streams` at a time;
// gemm_of_rows(r) is the time of the same GEMM on r rows.
double split_gemm_s(const std::function<double(double)>& gemm_of_rows, double rows, int chunks,
                    int streams = kOverlapComputeStreams);

// One collective next to one GEMM: its time alone, the whole GEMM's time, the GEMM's time when
// split into `chunks` pieces (sum of the pieces). Returns the time the pair adds beyond
// gemm_s (>= 0).
double overlapped_tp_exposed_s(double comm_s, double gemm_s, double split_gemm_s, int chunks);

}  // namespace dcsim::models::workload
