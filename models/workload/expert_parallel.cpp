#include "models/workload/expert_parallel.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

namespace dcsim::models::workload {

namespace {
namespace cm = compute;
constexpr double kBf16Bytes = 2.0;
// DeepEP's FP8 dispatch: one byte per element plus a 4-byte scale per 1 x 128 tile (DeepSeek-V3
// hidden 7168: 7,392 B per token, moe-hardware-stacks.md section 1).
constexpr double kFp8DispatchBytes = 1.0 + 4.0 / 128.0;
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

  // The all-to-alls (the header's split).
  if (p.ep > 1) {
    const int domain = node.nvlink_domain_gpus > 0 ? node.nvlink_domain_gpus : node.gpus;
    const double g = std::min(p.ep, domain);
    const double n = ep / g;
    const int m = job.moe_max_nodes_per_token;
    const double copies = m > 0 ? std::min({static_cast<double>(m), k, n}) : k;
    const auto bytes = [&](double b) {
      return std::pair{tr * k * h * b * (g - 1.0) / g, tr * h * b * copies * (n - 1.0) / n};
    };
    const int nics = fabric.nics_per_node > 0 ? fabric.nics_per_node : node.compute_nics;
    const double nic_bps = fabric.nic_bandwidth_bps > 0.0 ? fabric.nic_bandwidth_bps : node.compute_nic_bandwidth_bps;
    const double nic_share = nics * nic_bps / 8.0 / node.gpus;
    const double latency =
        n > 1.0 ? (fabric.switch_hops * fabric.per_hop_latency_ns + fabric.cable_latency_ns) * 1e-9 : 0.0;
    const auto time = [&](double b) {
      const auto [nvl, nic] = bytes(b);
      const double t_nic = nic > 0.0 ? nic / nic_share : 0.0;
      return latency + out.gpu_load * std::max(nvl / node.gpu.nvlink_bandwidth_bytes_per_s, t_nic);
    };
    std::tie(out.nvlink_bytes, out.nic_bytes) = bytes(kBf16Bytes);
    out.nvlink_bytes *= out.gpu_load;
    out.nic_bytes *= out.gpu_load;
    out.bytes_sent = tr * k * h * kBf16Bytes * (ep - 1.0) / ep;
    out.all_to_all_s = time(kBf16Bytes);
    const double dispatch = time(job.precision == cm::Precision::kFp8 ? kFp8DispatchBytes : kBf16Bytes);
    // Forward dispatch + combine, backward their gradients; full recomputation the forward again.
    out.all_to_alls = full ? 6 : 4;
    out.comm_s = (full ? 2.0 : 1.0) * (dispatch + out.all_to_all_s) + 2.0 * out.all_to_all_s;
    out.exposed_s = (1.0 - p.ep_overlap) * out.comm_s;
  }
  return out;
}

}  // namespace dcsim::models::workload
