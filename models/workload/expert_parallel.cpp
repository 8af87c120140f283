#include "models/workload/expert_parallel.hpp"

#include <algorithm>

#include "models/collective/expert_all_to_all.hpp"
#include "models/hardware/nvlink_domain.hpp"

namespace dcsim::models::workload {

namespace {
namespace cm = compute;
constexpr double kBf16Bytes = 2.0;
}  // namespace

double routed_tokens_per_rank(const TrainingJobConfig& job) {
  const ParallelismPlan& p = job.parallelism;
  return static_cast<double>(job.micro_batch_size) * job.model.seq_len / (p.cp * p.tp);
}

double busiest_gpu_load(const TrainingJobConfig& job) {
  const MoeShape& e = job.model.moe;
  const double cap = e.capacity_factor;
  const double s = cap > 0.0 ? std::min(job.moe_skew, cap) : job.moe_skew;
  return 1.0 + (s - 1.0) * job.parallelism.ep / e.experts;
}

collective::ExpertAllToAllShape expert_all_to_all_shape(const TrainingJobConfig& job, const hardware::NodeSpec& node) {
  collective::ExpertAllToAllShape shape;
  shape.tokens_per_rank = routed_tokens_per_rank(job);
  shape.experts_per_token = job.model.moe.experts_per_token;
  shape.hidden = job.model.hidden;
  shape.element_bytes = kBf16Bytes;
  shape.ep = job.parallelism.ep;
  shape.domain_gpus = hardware::nvlink_domain(node);
  shape.max_nodes_per_token = job.moe_max_nodes_per_token;
  shape.load = busiest_gpu_load(job);
  return shape;
}

double dispatch_element_bytes(const TrainingJobConfig& job) {
  return job.precision == cm::Precision::kFp8 ? collective::kFp8DispatchBytesPerElement : kBf16Bytes;
}

double nic_bytes_per_s_per_gpu(const hardware::NodeSpec& node, const collective::FabricParams& fabric) {
  const int nics = fabric.nics_per_node > 0 ? fabric.nics_per_node : node.compute_nics;
  const double nic_bps = fabric.nic_bandwidth_bps > 0.0 ? fabric.nic_bandwidth_bps : node.compute_nic_bandwidth_bps;
  return nics * nic_bps / 8.0 / node.gpus;
}

double fabric_crossing_s(const collective::FabricParams& fabric) {
  return (fabric.switch_hops * fabric.per_hop_latency_ns + fabric.cable_latency_ns) * 1e-9;
}

ExpertLayerCost expert_layer_cost(const TrainingJobConfig& job, const hardware::NodeSpec& node,
                                  const collective::FabricParams& fabric, const cm::ComputeModel& cmod) {
  const TransformerModel& md = job.model;
  const MoeShape& e = md.moe;
  const ParallelismPlan& p = job.parallelism;
  const double h = md.hidden, fe = e.expert_ffn_hidden, k = e.experts_per_token, ep = p.ep;
  const double tr = routed_tokens_per_rank(job);
  const double T = tr * p.tp;  // the tokens of a TP group (shared experts, TP-sharded)
  const double cap = e.capacity_factor;
  const double s = cap > 0.0 ? std::min(job.moe_skew, cap) : job.moe_skew;
  ExpertLayerCost out;
  out.gpu_load = busiest_gpu_load(job);

  // Compute: the grouped expert GEMMs (one expert at s T_e, the others at T_e), the shared
  // experts and the router; dgrad + wgrad backward.
  const double local = e.experts / ep;
  const double te = tr * k * ep / e.experts;
  const double up = (md.gated_mlp ? 2.0 : 1.0);
  double fwd = 0.0, mean_flops = 0.0;
  const auto expert_mlp = [&](double tokens, double count, double width) {
    const cm::OpTime a = cmod.gemm(tokens, up * width, h, job.precision);
    const cm::OpTime b = cmod.gemm(tokens, h, width, job.precision);
    return cm::OpTime{count * (a.time_s + b.time_s), count * (a.flops + b.flops), 0.0};
  };
  fwd += expert_mlp(s * te, 1.0, fe).time_s + expert_mlp(te, local - 1.0, fe).time_s;
  mean_flops += expert_mlp(te, local, fe).flops;
  if (e.shared_experts > 0) {
    const cm::OpTime sh = expert_mlp(T, 1.0, e.shared_experts * fe / p.tp);
    fwd += sh.time_s;
    mean_flops += sh.flops;
  }
  const cm::OpTime router = cmod.gemm(tr, e.experts, h, cm::Precision::kBf16);
  fwd += router.time_s;
  mean_flops += router.flops;
  double bwd = 2.0 * fwd;
  double flops = 3.0 * mean_flops;
  // HBM-bound: the activation over the routed tokens' expert width (read 1 or 2, write 1) and the
  // shared experts', and the permute before dispatch and unpermute after combine (read + write).
  const double ew_bytes =
      kBf16Bytes * (out.gpu_load * tr * k * 3.0 * fe + T * e.shared_experts * 3.0 * fe / p.tp + 4.0 * tr * k * h);
  const cm::OpTime ew = cmod.memory_op(ew_bytes);
  fwd += ew.time_s;
  bwd += 2.0 * ew.time_s;
  const bool full = job.recompute == Recompute::kFull;
  if (full) {
    bwd += fwd;
    flops += flops / 3.0;
  }
  out.forward_s = fwd;
  out.backward_s = bwd;
  out.flops = flops;
  out.memory_bound_s = (full ? 4.0 : 3.0) * ew.time_s;

  // The all-to-alls (the header's split: models/collective/expert_all_to_all.hpp).
  if (p.ep > 1) {
    collective::ExpertAllToAllShape shape = expert_all_to_all_shape(job, node);
    const double nic_share = nic_bytes_per_s_per_gpu(node, fabric);
    const double latency = fabric_crossing_s(fabric);
    const auto all_to_all = [&](double element_bytes) {
      shape.element_bytes = element_bytes;
      return collective::expert_all_to_all(shape, node.gpu.nvlink_bandwidth_bytes_per_s, nic_share, latency);
    };
    const collective::ExpertAllToAll bf16 = all_to_all(kBf16Bytes);
    out.nvlink_bytes = bf16.nvlink_bytes;
    out.nic_bytes = bf16.nic_bytes;
    out.bytes_sent = bf16.sent_bytes;
    out.all_to_all_s = bf16.time_s;
    const double dispatch = all_to_all(dispatch_element_bytes(job)).time_s;
    // Forward dispatch + combine, backward their gradients; full recomputation the forward again.
    out.all_to_alls = full ? 6 : 4;
    out.comm_s = (full ? 2.0 : 1.0) * (dispatch + out.all_to_all_s) + 2.0 * out.all_to_all_s;
    out.exposed_s = (1.0 - p.ep_overlap) * out.comm_s;
  }
  return out;
}

}  // namespace dcsim::models::workload
