#pragma once
// Private to models/workload: one MoE layer's expert MLP block and its expert-parallel (EP)
// all-to-alls for one micro-batch on the busiest GPU, the MoE side of the step model
// (training_step.hpp; issue 41 item 2).
//
// Layout (Megatron-Core MoE parallel folding, parallel_state.py: the expert grid is
// etp x ep x edp x pp over the same world, so etp x ep must divide tp x cp x dp): expert tensor
// parallelism 1, ep consecutive ranks of a stage share a layer's routed experts, E / ep each;
// attention keeps its tp x cp x dp. With tp > 1 sequence parallelism shards the tokens, so every
// rank routes T_r = b x seq / (cp x tp) tokens. Per MoE layer and micro-batch: dispatch and
// combine forward, their gradients backward (and the forward pair again with full
// recomputation). One all-to-all, per rank (k = experts_per_token, B bytes per element: the
// forward dispatch FP8, 1 + 4/128 B with DeepEP's 1 x 128 scales, when the job trains in FP8,
// else BF16; combine and the backward BF16):
//   sent (logical)  T_r k h B (ep - 1) / ep
//   the EP group spans N = ep / g NVLink domains of g = min(ep, domain) of its ranks each:
//   NVLink          T_r k h B (g - 1) / g     every routed copy to another GPU of the
//                                             destination domain (PXN / DeepEP forward leg)
//   NICs            T_r h B c (N - 1) / N     one RDMA hop per copy that leaves the domain, on
//                                             its rail: c = k copies per token, or with
//                                             node-limited routing (at most M nodes a token)
//                                             c = min(M, k, N), one copy per node, forwarded
//                                             over NVLink there (DeepSeek-V3 report §3.2.2)
//   time            max(NVLink bytes / NVLink bandwidth, NIC bytes / the GPU's NIC share)
//                   x the busiest GPU's load, + one fabric latency
// Imbalance: the busiest expert gets s = skew x its even share (min(skew, capacity_factor) when
// a capacity drops the rest); the other E / ep - 1 experts of its GPU the mean, so that GPU
// receives u = 1 + (s - 1) ep / E times the mean and its grouped GEMMs run one expert at s T_e
// and the rest at T_e = T_r k ep / E tokens (the compute model's efficiency at that shape).
// Also per layer: the router (T_r x E x h), shared experts (TP-sharded like a dense MLP), the
// activation over the routed tokens and the permute / unpermute copies (HBM-bound).
// Overlap: ep_overlap of the all-to-all time hides behind another micro-batch's compute
// (DualPipe, DeepSeek-V3 report §3.2.1); the rest is exposed. Not modelled: the SMs the
// all-to-all takes from compute, FP8 casts of the expert GEMMs, expert tensor parallelism.

#include "models/collective/collective_estimator.hpp"
#include "models/collective/expert_all_to_all.hpp"
#include "models/compute/compute_model.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

struct ExpertLayerCost {
  double forward_s = 0.0;     // the expert block's compute on the busiest GPU
  double backward_s = 0.0;    // full recomputation included
  double flops = 0.0;         // forward + backward (+ recompute), a mean GPU
  double memory_bound_s = 0.0;  // HBM-bound kernels in forward_s + backward_s (layer_pass.hpp)
  double all_to_all_s = 0.0;  // one BF16 all-to-all on the busiest GPU
  double comm_s = 0.0;        // all the layer's all-to-alls of one micro-batch
  double exposed_s = 0.0;     // (1 - ep_overlap) comm_s
  double bytes_sent = 0.0;    // one BF16 all-to-all, per rank (logical, mean)
  double nvlink_bytes = 0.0;  // one BF16 all-to-all on the busiest GPU
  double nic_bytes = 0.0;
  double gpu_load = 1.0;  // the busiest GPU's routed tokens / the mean
  int all_to_alls = 0;    // per micro-batch
};

// Tokens one rank routes per micro-batch: b x seq / (cp x tp).
double routed_tokens_per_rank(const TrainingJobConfig& job);
// The busiest GPU's routed tokens over the mean (the header's u).
double busiest_gpu_load(const TrainingJobConfig& job);

// The shape of one of the job's all-to-alls on `node` (BF16 elements; the busiest GPU's load),
// which expert_layer_cost and the step graph's flows share.
collective::ExpertAllToAllShape expert_all_to_all_shape(const TrainingJobConfig& job, const hardware::NodeSpec& node);
// Bytes per element of the forward dispatch: DeepEP's FP8 with scales when the job trains in FP8,
// else BF16 (the combine and the backward all-to-alls are BF16).
double dispatch_element_bytes(const TrainingJobConfig& job);
// The NIC rate one GPU has (its node's NICs over its GPUs), B/s, and one fabric crossing, s.
double nic_bytes_per_s_per_gpu(const hardware::NodeSpec& node, const collective::FabricParams& fabric);
double fabric_crossing_s(const collective::FabricParams& fabric);

// One MoE layer, one micro-batch, the busiest GPU of the job's plan (job.model must be MoE).
ExpertLayerCost expert_layer_cost(const TrainingJobConfig& job, const hardware::NodeSpec& node,
                                  const collective::FabricParams& fabric, const compute::ComputeModel& cmod);

}  // namespace dcsim::models::workload
