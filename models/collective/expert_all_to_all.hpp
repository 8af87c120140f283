#pragma once
// One expert-parallel all-to-all of a mixture-of-experts layer (the dispatch of routed tokens to
// their experts, or the combine back), on the busiest GPU of the EP group, run hierarchically as
// DeepEP and NCCL's PXN run it (issue 41): a routed copy for a GPU in the sender's NVLink domain
// goes over NVLink; a copy for another domain crosses the fabric once, on the sender's rail, to the
// GPU of the same index there, which forwards it over NVLink. Per rank, with T tokens routed by
// the rank, k experts per token, h hidden, B bytes per element, an EP group of ep GPUs that spans
// N = ep / g NVLink domains of g = min(ep, domain) GPUs:
//   sent (logical)   T k h B (ep - 1) / ep
//   NVLink           T k h B (g - 1) / g        every copy to another GPU of its domain
//   NICs             T h B c (N - 1) / N        c = k copies a token, or with node-limited routing
//                                               (a token reaches at most M domains, DeepSeek-V3
//                                               report §3.2.2) c = min(M, k, N): one per domain
//   time             latency (N > 1) + load x max(NVLink bytes / NVLink rate, NIC bytes / NIC rate)
// where load is the busiest GPU's routed tokens over the mean. Cost: O(1).

namespace dcsim::models::collective {

// DeepEP's FP8 dispatch: one byte per element plus a 4-byte scale per 1 x 128 tile (DeepSeek-V3,
// hidden 7168: 7,392 B per token, moe-hardware-stacks.md section 1).
inline constexpr double kFp8DispatchBytesPerElement = 1.0 + 4.0 / 128.0;

struct ExpertAllToAllShape {
  double tokens_per_rank = 0.0;    // T
  double experts_per_token = 1.0;  // k
  double hidden = 0.0;             // h
  double element_bytes = 2.0;      // B: BF16 2; DeepEP's FP8 dispatch 1 + 4/128 (1 x 128 scales)
  int ep = 1;
  int domain_gpus = 8;          // GPUs of one NVLink domain
  int max_nodes_per_token = 0;  // M; 0: any
  double load = 1.0;            // busiest GPU's tokens / the mean (>= 1)
};

struct ExpertAllToAll {
  double sent_bytes = 0.0;    // logical, per rank, mean
  double nvlink_bytes = 0.0;  // on the busiest GPU
  double nic_bytes = 0.0;     // on the busiest GPU
  double time_s = 0.0;
};

// `nvlink_bytes_per_s`: one GPU's NVLink rate per direction; `nic_bytes_per_s`: the NIC rate one
// GPU has (its node's NICs over its GPUs); `latency_s`: one fabric crossing.
ExpertAllToAll expert_all_to_all(const ExpertAllToAllShape& shape, double nvlink_bytes_per_s, double nic_bytes_per_s,
                                 double latency_s);

}  // namespace dcsim::models::collective
