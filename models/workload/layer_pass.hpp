#pragma once
// One micro-batch through one transformer layer (and the LM head) on one GPU: the compute side of
// the step model (training_step.hpp), with the TP, CP and FP8 details the step needs to place
// communication next to it. Per micro-batch of b sequences (T = b x seq / cp tokens per CP rank):
//   forward   QKV, attention-out, MLP GEMMs sharded by TP; FlashAttention (1/cp of it per CP
//             rank); norms, residuals and activations as HBM-bound ops (sharded by TP only with
//             sequence parallelism: Korthikanti et al. 2022, section 4.2.2); with FP8 the casts
//             of Transformer Engine (compute/fp8_overheads.hpp); LoRA adapters (lora.hpp)
//   backward  2x each GEMM (dgrad + wgrad; 1x for frozen LoRA weights), FA2 backward (2.5x),
//             2x element-wise, the gradients' FP8 casts; full recomputation adds one more forward
//   head      the LM head GEMM (BF16 also under FP8: Megatron's output layer is not a TE module)
//             and the fp32 cross-entropy over T x vocab / tp logits

#include "models/compute/compute_model.hpp"
#include "models/compute/fp8_overheads.hpp"
#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

struct LayerPass {
  double forward_s = 0.0;
  double backward_s = 0.0;  // full recomputation included
  double flops = 0.0;       // forward + backward (+ recompute)
  // The HBM-bound kernels in forward_s + backward_s (norms, residuals, activations, LoRA
  // adapters, FP8 casts, cross-entropy): they draw memory-bound power, not the tensor cores'
  // (power/gpu_phase_power.hpp).
  double memory_bound_s = 0.0;
  double attention_forward_s = 0.0;   // the layer's attention, for the CP ring's overlap
  double attention_backward_s = 0.0;
  // The four linears (QKV, attention out, MLP up, MLP down): forward GEMM time whole and split
  // into tp row pieces (TP overlap, tp_overlap.hpp).
  double linear_gemm_s[4] = {0.0, 0.0, 0.0, 0.0};
  double linear_split_gemm_s[4] = {0.0, 0.0, 0.0, 0.0};
  compute::Fp8Traffic fp8;  // FP8 casts of the layer's linears (fp8_overheads.hpp)
  double fp8_forward_s = 0.0;   // in forward_s
  double fp8_backward_s = 0.0;  // in backward_s
};

// One layer, one micro-batch, one GPU of the job's (tp, cp) plan; without its MLP (its GEMMs and
// activation) for an MoE layer, whose experts expert_parallel.hpp counts.
LayerPass layer_pass(const TrainingJobConfig& job, const compute::ComputeModel& cmod, bool with_mlp = true);
// The LM head and loss of one micro-batch on one GPU of the last stage.
LayerPass head_pass(const TrainingJobConfig& job, const compute::ComputeModel& cmod);

}  // namespace dcsim::models::workload
