#pragma once
// `dcsim bench training` (issue 4's performance targets), two cases on HGX H100 nodes, models
// built directly (no scenario files), into a sink that counts points:
//   dp-1024-gpus-flow        BERT-Large data parallel on 128 nodes (1,024 GPUs), 1,000 steps in
//                            flow mode, EVERY step executed as its step graph (no sampling):
//                            gradient chunks as flows of the algorithm the collective model
//                            picks (the double binary tree at 128 nodes; one per NIC per tree
//                            edge and direction) on a
//                            non-blocking leaf-spine (16 leaves x 8 hosts, 8 x 400G bonded per
//                            host, 64 spines, ECMP per flow: hash collisions on the uplinks
//                            are real; spraying would split every flow into 64 subflows, an
//                            upper bound and about that much slower). Target < 10 s (13 s since
//                            the tree: 4x the ring's flows).
//   llama3-70b-16384-gpus-analytic  Llama 3 70B, TP 8 x PP 4 x DP 512, ZeRO-1, on 2,048 nodes,
//                            analytic steps for one simulated day with a checkpoint every 50
//                            steps to NVMe. Target < 5 s.
//   flow-step-N-gpus         one step of a Llama-3-405B-style job (TP 8 x PP 16 x DP N / 128,
//                            ZeRO 1, full recomputation, 16 micro-batches per replica) in flow
//                            mode on a three-tier rail-optimised fabric of 128-port switches:
//                            every pipeline send and DP collective between nodes as flows (one
//                            per NIC per node-to-node transfer; a ring's lock-step steps are one
//                            flow per edge). Default set: N = 16,384 (target < 10 s) and 131,072
//                            (target < 60 s), both under 8 GiB.
//   moe-flow-step-N-gpus     one step of DeepSeek-V3 as DeepSeek trained it (TP 1 x PP 16 x EP 64
//                            over 8 nodes, FP8 dispatch, 4 nodes a token at most, full
//                            recomputation, 16 micro-batches per replica) in flow mode on the
//                            same fabric: every MoE layer's all-to-alls as flows (one per rail
//                            per node pair of each EP group and direction), plus the pipeline
//                            sends and DP collectives (issue 41). Default set: N = 2,048 (target
//                            < 30 s and < 4 GiB) and 16,384.
// Each case: {name, gpus, steps, wall_s, events, events_per_s} (+ flow case: fabric_flows,
// graph_steps, step_time_s realised, analytic_step_time_s; (moe-)flow-step: flows,
// wall_us_per_flow, peak_rss_mb, step_time_s, analytic_step_time_s). Wall time covers building the model and fabric
// (step planning included) and running it.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

// `names`: the cases to run (empty: the default set); throws sim::InputError for an unknown one.
nlohmann::json run_training_bench(const std::vector<std::string>& names = {});

}  // namespace dcsim::tools::bench
