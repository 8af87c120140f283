#pragma once
// One training step as a DAG of compute and communication tasks (issue 4 item 5): the mechanism
// behind the closed form of training_step.hpp, run task by task by the datacenter layer's
// StepExecutor (flow mode) or evaluated on its own (critical_path_s, ideal network).
//
// Per pipeline stage s (of p), model chunk c (of v) and micro-batch j (of m), on the stage's one
// compute stream, in Megatron's order (pipeline_schedule.hpp: 1F1B for v = 1, warm-up
// min(p-s-1, m) forwards, then alternating forward / backward, then the cool-down backwards;
// the interleaved schedule for v > 1). A chunk's forward F(s,c,j) and backward B(s,c,j) take
// 1/v of the stage's times (its layers; the LM head on the last stage) and are followed on the
// stream by their exposed TP (+ CP ring) communication (NVLink, the step model's duration: half
// after the forward, half after the backward; with full recomputation the backward side carries
// 4 of the 6 all-reduces). Stages are the tp x cp x dp consecutive ranks of Megatron's
// tp-cp-dp-pp order, so stage s holds nodes [s x nodes/p, (s+1) x nodes/p) once a stage fills
// a node.
//
// Pipeline sends, as Megatron's send_forward / send_backward: F(s,c,j) + TP -> activation
// transfer to the next virtual stage (s+1, c; or stage 0, chunk c+1 after stage p-1) -> its
// forward, and B + TP -> gradient transfer to the previous virtual stage -> its backward. Under
// 1F1B the sender's stream waits for its send; the interleaved schedule overlaps a send with
// the next element on the stream (overlap_p2p_comm) and waits for it one element later.
// Across nodes a transfer is one fabric flow per NIC per node pair of the boundary (rank i of
// one stage sends to rank i of the other: T x h x 2 / (tp cp) bytes each), within a node a
// fixed NVLink time.
//
// Data parallelism (dp > 1): the stage's gradients (dp_grad_bytes per DP group) in buckets of
// bucket_bytes, coalesced into at most max_dp_chunks chunks (simulation granularity). Two
// layouts: growing (from the last bucket back, chunks of 1, 1, 2, 4, ... buckets, the first
// taking the rest; with ZeRO 3 also 1, 2, 4, ... from the first bucket on) and even (1, 1, ...
// at both ends, equal chunks between); build_step_graph keeps the one whose ideal-network step
// is closest to the graph with one collective per bucket (coalescing only ever delays overlap,
// and which layout delays it least depends on the job: +4.4% vs +1.3% for llama3-8b TP 2 x
// DP 64 at 8 chunks, the other way round for BERT-Large ZeRO 1). The last
// backward B(s,m-1) is split into pieces in proportion to the chunks' bytes; chunk k's
// collective (all_reduce, reduce_scatter for ZeRO 2/3) starts when piece k is done and the
// previous chunk's collective has ended (one NCCL stream). ZeRO >= 1 gathers the parameters
// (all_gather, chunked the same way) at the start of the step, each chunk gating its piece of
// the first forward F(s,0) (Megatron's overlap-param-gather); ZeRO 3 gathers them again, after
// the first pass, gating the pieces of the first backward B(s,0). The stage's optimizer runs
// after its stream and its last chunk; the step ends when every stage's optimizer is done.
//
// A DP collective across nodes follows the algorithm the collective model picks for one bucket
// (issue 15 item 9, dp_flows.hpp) over the DP group's nodes (dp_system.nodes consecutive nodes
// of the stage; the node's DP groups share its NICs). A ring (and hierarchical's per-rail ring):
// one flow per NIC from each node to the next carrying what the lock-step ring sends over that
// edge in all its steps,
//   flow bytes = groups per node x steps x S/n / NICs / network_efficiency
// (steps 2(n-1) for all_reduce, n-1 for reduce_scatter / all_gather; S the chunk's bytes, n the
// DP ranks), as flow_collective.hpp does per step. A tree all_reduce: NCCL's double binary tree,
// one flow per NIC per tree edge and direction of groups per node x S/2 / NICs / (efficiency x
// tree bandwidth factor), as flow_collective.hpp runs it. The collective
// ends at max(NVLink part steps x S/n / B_nvlink, last flow) + a fixed part. Fixed parts keep
// what flows do not model: for every fabric task, closed form (sum of the per-bucket times of
// the step model, or its p2p time) minus its bandwidth term at line rate, clamped at 0 — the
// protocol and per-bucket latencies; the bandwidth term is the busiest node's bytes at line rate.
// So on an ideal fabric a task takes its closed-form time (exactly when the step model's
// algorithm is the ring; NVLS / tree / hierarchical choices of "auto" differ a little in their
// bandwidth term, which the graph replaces by its flows').
//
// Expert parallelism (MoE models, issue 41): when an EP group (ep consecutive ranks of a stage)
// spans N > 1 nodes, each pass's all-to-alls leave the TP task and run on the fabric as
// DeepEP's hierarchical all-to-all (collective/expert_all_to_all.hpp): a GPU's copies for another
// node cross once, on its own rail, to the GPU of the same index there, so per node pair of the
// group one flow per NIC (channel k = rail k) of
//   gpus per channel x X / (N - 1)   (X: a mean GPU's NIC bytes of those all-to-alls)
// and the NVLink legs in parallel (nvlink_s). A pass's MoE layers (its chunk's share of the
// stage's) are gathered into two tasks on the stream after its TP: the all-to-alls that flow
// into the busiest GPU (forward dispatch; backward the combine's gradient, and the recomputed
// dispatch) then those out of it (forward combine; backward the dispatch's gradient and the
// recomputed combine). The busiest GPU (NIC 0 of the group's first node) receives, resp.
// sends, moe_skew's load u times the mean, so its NIC's channels (k mod NICs = 0) carry
// (q - 1 + u) / q times the others' (q = GPUs / channels, u alone for q < 1); each direction's
// task ends with its slowest flow, as each
// layer's all-to-all waits for its busiest member. Their fixed part is the closed form minus
// the bandwidth term (per-all-to-all latencies). ep_overlap of each direction's bytes runs in
// a task beside the pass's compute (from the pass's start, off the stream, DualPipe's overlap
// of one micro-batch's all-to-all with another's compute), which the on-stream task waits for;
// the rest is exposed. The bytes are payload (no network_efficiency): as the closed form.
// EP within a node stays in the TP task at its closed-form time.
//
// Approximations, stated: one compute stream per stage stands for its tp x dp GPUs in lock-step
// (the slowest node's clock sets the rate); a stage's chunks take equal shares of its time;
// SM contention between overlapped communication and compute is not modelled; the pipelined
// ring's flows of one chunk all start together and the chunk ends with its last flow, so a
// slow edge delays the whole collective (as the lock-step ring does).

#include <cstdint>
#include <string>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

enum class StepTaskKind : std::uint8_t {
  kCompute,  // work_s at clock factor 1: runs at the job's clock factor
  kNvlink,   // fixed duration work_s (links do not throttle with the SMs)
  kFabric,   // flows (+ max(nvlink_s, flows) + work_s fixed part)
};

// What a task's time counts as in the step breakdown.
enum class StepTaskRole : std::uint8_t {
  kForward,
  kBackward,
  kOptimizer,  // compute
  kTp,
  kPp,
  kDpGrad,
  kDpGather,  // communication
  kEp,        // MoE expert all-to-alls (issue 41)
};

struct StepFlow {
  int src_node = 0;  // job-local node index (0 .. nodes-1)
  int dst_node = 0;
  double bytes = 0.0;  // wire bytes
  int channel = -1;    // NIC ports at both ends (network::Router::route): NCCL channel c on NIC c
};

struct StepTask {
  StepTaskKind kind = StepTaskKind::kCompute;
  StepTaskRole role = StepTaskRole::kForward;
  int stage = 0;
  int micro_batch = -1;  // -1: not per micro-batch
  // compute: seconds at clock 1; nvlink: duration; fabric: fixed part added after the flows.
  double work_s = 0.0;
  double nvlink_s = 0.0;       // fabric: the NVLink part in parallel with the flows
  double ideal_s = 0.0;        // fabric: closed-form time (flows at line rate + fixed part)
  bool on_stream = false;      // occupies its stage's compute stream (for the breakdown)
  std::vector<StepFlow> flows;  // fabric only
  std::vector<std::uint32_t> deps;
};

struct StepGraphOptions {
  // Gradient buckets are coalesced into at most this many collectives per stage and step. A
  // simulation-granularity knob (fewer flows): the per-bucket latency terms stay in the fixed
  // part, only the overlap with backward gets coarser (its tail exposure is the last bucket's).
  int max_dp_chunks = 8;
  // Fabric flows per node pair and transfer; 0: one per compute NIC (NCCL puts a channel on
  // each NIC). Channel k leaves on host port k mod ports, so on a fabric of P planes (a port
  // per NIC and plane, planes.hpp) NICs x P reach every port (the scenario layer sets that).
  int flows_per_node_pair = 0;
};

struct StepGraph {
  std::vector<StepTask> tasks;  // deps by index, in any order (acyclic: checked when built)
  std::vector<std::vector<std::uint32_t>> successors;
  int stages = 1;
  int micro_batches = 1;
  int nodes = 1;
  std::size_t fabric_flows = 0;  // flows per executed step
  bool has_ep = false;           // MoE all-to-alls on the fabric (role kEp tasks)
  // The tasks that end each stage's step (its optimizer).
  std::vector<std::uint32_t> stage_end;
};

// Builds the graph of one step of `job` from its step model result `step` (same job, node and
// fabric). Throws sim::ConfigError("max_dp_chunks", ...) for a chunk count below 1.
StepGraph build_step_graph(const TrainingJobConfig& job, const TrainingStepResult& step,
                           const hardware::NodeSpec& node, const collective::FabricParams& fabric,
                           const collective::CollectiveRegistry& collectives,
                           const StepGraphOptions& options = {},
                           const collective::CollectiveTuning& tuning = {});

// Longest path through the graph with every fabric task at its closed-form time (ideal_s) and
// compute at clock `clock_factor`: the step time on an ideal network.
double critical_path_s(const StepGraph& graph, double clock_factor = 1.0);

}  // namespace dcsim::models::workload
