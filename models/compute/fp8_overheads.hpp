#pragma once
// What FP8 training costs besides faster GEMMs (issue 15, item 6), per operation as NVIDIA
// Transformer Engine describes it (TE docs, "Using FP8 with Transformer Engine": per-tensor
// scaling with the delayed-scaling recipe; Hopper's FP8 tensor cores take only the "TN" layout,
// so a tensor used by a forward GEMM and by a backward GEMM in the other orientation is kept as
// an FP8 copy and an FP8 transposed copy, written together by TE's cast_transpose kernels).
//
// For one FP8 linear layer (GEMM of `tokens` x `in` by `in` x `out`):
//   forward   quantise the input: read it in BF16 (2 B/element) unless the kernel that produced
//             it already writes FP8 (TE fuses the cast into LayerNorm for LayerNormLinear and into
//             the activation for LayerNormMLP's second GEMM), write FP8 and FP8-transposed
//             (1 + 1 B): tokens x in elements;
//   backward  quantise the output gradient the same way (read 2 B unless fused with the
//             activation's backward, write 1 + 1 B): tokens x out elements;
//   weights   cast and transpose once per step (TE caches FP8 weights over the micro-batches of a
//             step: is_first_microbatch): read 2 B, write 1 + 1 B per parameter;
//   scaling   one amax per FP8 tensor (input, weight, output gradient) per pass, reduced over the
//             amax group (the data-, context- and tensor-parallel ranks of the stage, Megatron's
//             amax_reduction_group) at the end of each forward and backward: two small
//             all-reduces per micro-batch on the compute stream.
// Kept in BF16 (callers): attention (FlashAttention, unless FP8 attention is asked for), the
// LM head and loss (Megatron's output layer is not a TE module), norms and element-wise ops.
// All of it is HBM-bound traffic or latency: the callers turn bytes into time with the memory
// model and the amax reduction into a collective.

namespace dcsim::models::compute {

struct Fp8Linear {
  double tokens = 0.0;
  double in = 0.0;   // input features on this GPU
  double out = 0.0;  // output features on this GPU
  bool input_cast_fused = false;  // the producer writes FP8 (norm, activation)
  bool grad_cast_fused = false;   // the gradient's producer writes FP8 (activation backward)
};

struct Fp8Traffic {
  double forward_bytes = 0.0;   // per micro-batch
  double backward_bytes = 0.0;  // per micro-batch
  double weight_bytes_per_step = 0.0;
  int amax_tensors = 0;         // scaling factors the amax reductions carry
};

// BF16 read and FP8 + FP8-transposed write, per element.
inline constexpr double kFp8CastTransposeBytes = 2.0 + 1.0 + 1.0;
inline constexpr double kFp8FusedCastTransposeBytes = 1.0 + 1.0;

Fp8Traffic fp8_linear_traffic(const Fp8Linear& linear);

// Adds b to a (layers sum their linears).
Fp8Traffic& operator+=(Fp8Traffic& a, const Fp8Traffic& b);

}  // namespace dcsim::models::compute
