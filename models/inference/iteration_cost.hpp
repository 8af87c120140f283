#pragma once
// What one engine iteration of a replica costs on its TP group, and how much KV cache the
// replica has: the roofline of the compute model (models/compute) over the operations a decoder
// layer runs, plus the TP all-reduces from the collective model.
//
// An iteration computes T tokens: the prefill chunks it schedules (each `tokens` new prompt
// tokens after `context` already in the KV cache) and one token for each decoding sequence.
// Per layer, on each of the tp GPUs (weights and heads split tp ways, as Megatron-style TP does):
//   GEMMs (T rows)       QKV h -> (h + 2 kv d)/tp, out h/tp -> h, MLP h -> (2|1) ffn/tp, ffn/tp -> h;
//                        each max(FLOPs at the GEMM's tile efficiency, weight + activation bytes
//                        from HBM): decode is weight-bandwidth bound, prefill FLOP bound. A GEMM
//                        with fewer output tiles than SMs (a decode batch) also gets the split-K
//                        kernel cuBLAS would pick: the k loop over every SM in one wave (FLOPs at
//                        the sustained peak plus one tile's fixed cost, against the bytes); the
//                        faster kernel counts
//   attention, prefill   FlashAttention over each chunk: chunk x (context + chunk/2) causal pairs
//   attention, decode    every decoding sequence reads its whole KV: 2 x context x kv/tp x d x
//                        bytes(kv) from HBM (memory bound at any batch)
//   element-wise         fused add + RMSNorm twice (read x, residual; write both: 8 h bytes per
//                        token) and SiLU-and-mul (3 ffn/tp x 2 bytes), from HBM
//   TP all-reduce        twice (after attention and after the MLP) of T x h x 2 bytes, when tp > 1
// plus the LM head for the sequences that sample this iteration (S x vocab/tp x h GEMM).
//
// Pipeline parallelism (pp stages): an iteration passes through every stage in turn, so it costs
// all the layers plus (pp - 1) sends of the T x h hidden states; each GPU holds its stage's
// layers (the largest stage: ceil(layers / pp)), so the KV cache holds pp times the tokens.
//
// Mixture-of-experts models (issue 41 item 3; the model's MoE shape, training_model.hpp): an MoE
// layer runs attention as above and, in place of the MLP, the router (T x experts x h), the
// shared experts (tp-way like an MLP) and the routed experts on the busiest GPU. Without expert
// parallelism every GPU holds every expert tp-way in width; with engine.ep > 1 each of the
// stage's ep GPUs holds experts / ep whole experts, attention runs on ep / tp data-parallel
// ranks (each 1 / ranks of the iteration's tokens and sequences), and every MoE layer pays a
// dispatch (FP8 with FP8 weights, as DeepEP) and a combine all-to-all of each rank's T / ep
// tokens (models/collective/expert_all_to_all.hpp: NVLink inside the domain, one NIC hop across;
// a GB200 NVL72 rack is the domain when the stage's trays divide its 72 GPUs).
// The busiest expert takes expert_skew times the mean T k / experts rows (capped at the capacity
// factor), and its GPU that much more of the routed copies; an expert no token chose this
// iteration is not read (a batch of T tokens touches 1 - (1 - k / experts)^T of them), which is
// what makes small decode batches cheaper than the experts' whole weights.
// MLA (DeepSeek-V3): its projections as one GEMM of their parameters, a KV cache of the latent
// and RoPE key per token and layer (not split by tp), and decode reading that latent.
//
// KV cache per GPU = memory_fraction x HBM - weights/tp - the activation peak of the largest
// iteration (one layer's widest intermediate at max_batched_tokens, and FP32 logits for
// max_batch sequences), in tokens of 2 x layers x kv/tp x d x bytes(kv) each. PagedAttention
// wastes under one 16-token block per sequence (vLLM paper, < 4%): counted in tokens here.

#include <functional>
#include <vector>

#include "models/compute/compute_model.hpp"
#include "models/inference/service_config.hpp"

namespace dcsim::models::inference {

struct PrefillChunk {
  int tokens = 0;   // new prompt tokens computed this iteration
  int context = 0;  // tokens of the same sequence already in the KV cache
};

struct IterationCost {
  double time_s = 0.0;
  // Seconds of it in compute-bound operations, memory-bound ones and TP communication (GPU power).
  double compute_s = 0.0, memory_s = 0.0, communication_s = 0.0;
};

// Per-GPU memory of one replica.
struct ReplicaMemory {
  double usable_bytes = 0.0;       // memory_fraction x HBM
  double weight_bytes = 0.0;       // the model's weights / tp
  double activation_bytes = 0.0;   // reserved for the largest iteration
  double kv_bytes_per_token = 0.0;
  double kv_capacity_tokens = 0.0;  // what is left, in tokens; < 1: the model does not fit
};

class IterationCostModel {
 public:
  // `tp_all_reduce_s(bytes)`: one all-reduce over the replica's tp GPUs (unused for tp 1).
  // Throws sim::ConfigError naming "engine.tp" for tp that does not divide the heads or the KV
  // heads (or exceeds the NVLink domain), "engine.memory" when the weights do not fit.
  IterationCostModel(const workload::TransformerModel& model, const EngineConfig& engine,
                     const hardware::NodeSpec& node, std::function<double(double bytes)> tp_all_reduce_s);

  const ReplicaMemory& memory() const { return memory_; }
  // Weight bytes of the whole replica (all its GPUs): what loading it reads.
  double replica_weight_bytes() const { return replica_weight_bytes_; }
  // KV bytes of one token on all the replica's GPUs: what a disaggregated prefill sends per token.
  double replica_kv_bytes_per_token() const { return replica_kv_bytes_per_token_; }

  // `decode_kv_tokens`: the KV cache tokens the decoding sequences read, summed over them.
  // Cost: O(prefill chunks) after the first call with the same token and sampled counts (the
  // layers' GEMMs and the LM head are memoised by them: a serving engine calls this once per
  // iteration, millions of times for a fluid curve, over a few hundred distinct shapes).
  // Not thread-safe (the memos): one model per thread.
  IterationCost cost(const std::vector<PrefillChunk>& prefills, int decodes, double decode_kv_tokens,
                     int sampled) const;

 private:
  // Values by a small non-negative count, each computed on its first use and kept.
  template <class T>
  class CountMemo {
   public:
    template <class Compute>
    const T& get(int count, Compute&& compute) {
      const auto i = static_cast<std::size_t>(count);
      if (i >= known_.size()) {
        values_.resize(i + 1);
        known_.resize(i + 1, 0);
      }
      if (!known_[i]) {
        values_[i] = compute();
        known_[i] = 1;
      }
      return values_[i];
    }

   private:
    std::vector<T> values_;
    std::vector<char> known_;
  };

  // The faster of the tiled and the split-K kernel for C[m x n] = A[m x k] W[k x n].
  compute::OpTime linear(double m, double n, double k, compute::Precision p) const;
  // GEMMs, element-wise ops and TP all-reduces of one layer for T tokens (memoised by T).
  const IterationCost& dense_layer(int tokens) const;
  // The LM head's GEMM for the sequences that sample (memoised by their count).
  const compute::OpTime& lm_head(int sampled) const;
  // QKV and output projections (MLA: one GEMM of its parameters) for `tokens` rows.
  void add_attention_projections(IterationCost& c, double tokens) const;
  // One MoE layer but its attention for the replica's T tokens (memoised by T): projections,
  // router, shared and routed experts, TP all-reduces and EP all-to-alls (the header comment).
  const IterationCost& moe_layer(int tokens) const;

  workload::TransformerModel model_;
  EngineConfig engine_;
  compute::ComputeModel compute_;
  std::function<double(double)> tp_all_reduce_s_;
  ReplicaMemory memory_;
  double replica_weight_bytes_ = 0.0;
  double replica_kv_bytes_per_token_ = 0.0;
  double pp_send_bytes_per_s_ = 0.0;
  // Per-iteration constants of cost(), as it used them (same values, same arithmetic order).
  double heads_per_gpu_ = 0.0, head_dim_ = 0.0, kv_heads_per_gpu_ = 0.0, kv_element_bytes_ = 0.0;
  // MoE: the MoE layers' count and what the all-to-alls run on.
  int moe_layers_ = 0, domain_gpus_ = 0;
  double nvlink_bytes_per_s_ = 0.0, nic_bytes_per_s_per_gpu_ = 0.0, fabric_latency_s_ = 0.0;
  mutable CountMemo<IterationCost> dense_by_tokens_;
  mutable CountMemo<IterationCost> moe_by_tokens_;
  mutable CountMemo<compute::OpTime> lm_head_by_sampled_;
};

}  // namespace dcsim::models::inference
