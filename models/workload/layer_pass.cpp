#include "models/workload/layer_pass.hpp"

#include <utility>
#include <vector>

#include "models/workload/tp_overlap.hpp"

namespace dcsim::models::workload {

namespace {
namespace cm = compute;
constexpr double kBf16Bytes = 2.0;
}  // namespace

LayerPass layer_pass(const TrainingJobConfig& job, const cm::ComputeModel& cmod, bool with_mlp) {
  const ParallelismPlan& plan = job.parallelism;
  const TransformerModel& md = job.model;
  const double T = static_cast<double>(job.micro_batch_size) * md.seq_len / plan.cp;
  const double h = md.hidden, f = md.ffn_hidden, tp = plan.tp;
  const double d = md.head_dim();
  const double kv_cols = static_cast<double>(md.kv_heads) * d;
  const cm::Precision prec = job.precision;
  const bool fp8 = prec == cm::Precision::kFp8;
  const bool frozen = job.lora.enabled();
  LayerPass out;
  double fwd = 0.0, bwd = 0.0, flops = 0.0;
  double memory_fwd = 0.0, memory_bwd = 0.0;  // the HBM-bound part of fwd and bwd
  // Linear i: C[m x n] = A[m x k] B[k x n]. Frozen weights (LoRA) need the data gradient only.
  const double backward_gemms = frozen ? 1.0 : 2.0;
  int linear = 0;
  auto gemm = [&](double m, double n, double k, bool input_fused, bool grad_fused) {
    const cm::OpTime t = cmod.gemm(m, n, k, prec);
    fwd += t.time_s;
    bwd += backward_gemms * t.time_s;  // dgrad (and wgrad: the same FLOPs again)
    flops += (1.0 + backward_gemms) * t.flops;
    out.linear_gemm_s[linear] = t.time_s;
    out.linear_split_gemm_s[linear] =
        plan.tp > 1 && plan.tp_comm_overlap
            ? split_gemm_s([&](double rows) { return cmod.gemm(rows, n, k, prec).time_s; }, m, plan.tp)
            : t.time_s;
    if (fp8) out.fp8 += cm::fp8_linear_traffic({m, k, n, input_fused, grad_fused});
    ++linear;
  };
  // Which casts Transformer Engine fuses (fp8_overheads.hpp): the norms before QKV and MLP up,
  // the activation before MLP down and its backward before MLP up's data gradient.
  gemm(T, (h + 2.0 * kv_cols) / tp, h, true, false);             // QKV
  gemm(T, h, h / tp, false, false);                              // attention output
  if (with_mlp) {
    gemm(T, (md.gated_mlp ? 2.0 : 1.0) * f / tp, h, true, true);  // MLP up (and gate)
    gemm(T, h, f / tp, true, false);                              // MLP down
  }
  // LoRA adapters (lora.hpp), BF16: x A then (x A) B per target, trained (dgrad + wgrad). With
  // one side of rank r their arithmetic intensity is about r FLOP per byte, far below the
  // tensor cores' ridge: they cost their HBM traffic (operands and output, 2 B each).
  static const std::vector<LoraTarget> kNoAdapters;
  for (LoraTarget target : job.lora.enabled() ? job.lora.targets : kNoAdapters) {
    const LinearShape sh = target_shape(md, target);
    const double in = sh.column_parallel ? sh.in : sh.in / tp;
    const double outf = sh.column_parallel ? sh.out / tp : sh.out;
    const double r = job.lora.rank;
    for (const auto& [n, k] : {std::pair{r, in}, std::pair{outf, r}}) {
      const cm::OpTime t = cmod.memory_op(kBf16Bytes * (T * k + k * n + T * n), 2.0 * T * n * k);
      fwd += t.time_s;
      bwd += 2.0 * t.time_s;
      memory_fwd += t.time_s;
      memory_bwd += 2.0 * t.time_s;
      flops += 3.0 * t.flops;
    }
  }
  if (fp8) {
    out.fp8_forward_s = cmod.memory_op(out.fp8.forward_bytes).time_s;
    out.fp8_backward_s = cmod.memory_op(out.fp8.backward_bytes).time_s;
    fwd += out.fp8_forward_s;
    bwd += out.fp8_backward_s;
    memory_fwd += out.fp8_forward_s;
    memory_bwd += out.fp8_backward_s;
  }
  // A CP rank computes its s / cp queries against all keys: 1/cp of the attention (balanced
  // causal split, context_parallel.hpp).
  const double bh = job.micro_batch_size * md.heads / tp;
  const cm::OpTime af = cmod.attention_forward(bh, md.seq_len, md.seq_len, d, md.causal);
  const cm::OpTime ab = cmod.attention_backward(bh, md.seq_len, md.seq_len, d, md.causal);
  out.attention_forward_s = af.time_s / plan.cp;
  out.attention_backward_s = ab.time_s / plan.cp;
  fwd += out.attention_forward_s;
  bwd += out.attention_backward_s;
  flops += (af.flops + ab.flops) / plan.cp;
  // HBM-bound ops per layer, BF16: 2 norms and 2 residual adds on T x h (read + write each,
  // about 10 h per token; sequence parallelism shards them by tp, without it every TP rank does
  // them whole: Korthikanti et al. 2022, section 4.2.2), the activation over the MLP width
  // (read 1 or 2, write 1: 3 f / tp per token).
  const bool sp = job.parallelism.sequence_parallel || plan.tp == 1;
  const double ew_bytes = kBf16Bytes * T * (10.0 * h / (sp ? tp : 1.0) + (with_mlp ? 3.0 * f / tp : 0.0));
  const cm::OpTime ew = cmod.memory_op(ew_bytes);
  fwd += ew.time_s;
  bwd += 2.0 * ew.time_s;
  memory_fwd += ew.time_s;
  memory_bwd += 2.0 * ew.time_s;
  if (job.recompute == Recompute::kFull) {
    bwd += fwd;
    memory_bwd += memory_fwd;
    flops += flops / 3.0;
  }
  out.forward_s = fwd;
  out.backward_s = bwd;
  out.flops = flops;
  out.memory_bound_s = memory_fwd + memory_bwd;
  return out;
}

// The LM head and the fp32 cross-entropy over T x vocab / tp logits (last stage only). The head
// stays in BF16 with FP8 training (Megatron's output layer is not a Transformer Engine module);
// frozen (LoRA) it needs no weight gradient.
LayerPass head_pass(const TrainingJobConfig& job, const cm::ComputeModel& cmod) {
  const ParallelismPlan& plan = job.parallelism;
  const TransformerModel& md = job.model;
  const double T = static_cast<double>(job.micro_batch_size) * md.seq_len / plan.cp;
  const cm::OpTime head = cmod.gemm(T, md.vocab / plan.tp, md.hidden, cm::Precision::kBf16);
  const cm::OpTime ce = cmod.memory_op(3.0 * 4.0 * T * md.vocab / plan.tp);
  const double backward_gemms = job.lora.enabled() ? 1.0 : 2.0;
  LayerPass out;
  out.forward_s = head.time_s + ce.time_s;
  out.backward_s = backward_gemms * head.time_s + ce.time_s;
  out.flops = (1.0 + backward_gemms) * head.flops;
  out.memory_bound_s = 2.0 * ce.time_s;
  return out;
}

}  // namespace dcsim::models::workload
