#pragma once
// Private to models/workload: the construction of one step graph (step_graph.hpp says what the
// graph is; build_step_graph there chooses the DP chunk layout and calls this builder).
//
// StepGraphBuilder holds the job's derived sizes and the tasks built so far; build() runs the
// steps in a fixed order, because task indices (and so the graph, node for node) follow the
// order tasks are added:
//   1. add_stream_passes      per stage, every forward then every backward pass (+ its TP, EP)
//   2. add_pipeline_sends     per stage, the activation and gradient transfers of each pass
//   3. per stage: link_received_sends, chain_stream (+ MoE's overlapped EP), add_parameter_gathers,
//      add_gradient_reductions, add_optimizer
//   4. finish                 successors, the cycle check, the flow count
// Cost: O(tasks + deps + flows); tasks are O(p v m + p x DP chunks), flows per fabric task
// O(nodes of the transfer x flows per node pair).

#include <cstdint>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/dp_chunks.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "models/workload/step_graph.hpp"
#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

// How buckets coalesce into chunks when there are more than max_dp_chunks (build_step_graph
// makes the choice).
enum class ChunkLayout { kGrowing, kEven };
// Whether fabric tasks carry their flows, or only the closed-form times critical_path_s reads
// (the graphs that only choose the layout: a flow list per bucket grows with the DP ring, and at
// 32k GPUs was a third of a flow-mode step's wall time).
enum class FlowLists { kBuild, kTimesOnly };

class StepGraphBuilder {
 public:
  // Throws sim::ConfigError("max_dp_chunks" / "flows_per_node_pair") for bad options. Keeps
  // references to its arguments until build().
  StepGraphBuilder(const TrainingJobConfig& job, const TrainingStepResult& step, const hardware::NodeSpec& node,
                   const collective::FabricParams& fabric, const collective::CollectiveRegistry& collectives,
                   const StepGraphOptions& options, const collective::CollectiveTuning& tuning, ChunkLayout layout,
                   FlowLists lists);
  // The graph (call once). Throws sim::InternalError when the construction made a cycle (a bug).
  StepGraph build();

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  // One pass on a stage's stream: its compute pieces (one per DP chunk it gates or produces)
  // and its exposed TP communication.
  struct StreamPass {
    std::uint32_t first = kNone;  // first task (a received transfer gates it)
    std::uint32_t last = kNone;   // last task (compute, its TP or its EP)
    std::vector<std::uint32_t> pieces;
    std::vector<std::uint32_t> comm;  // after the pieces, in order: its TP, its EP all-to-alls
    std::uint32_t hidden = kNone;     // its first overlapped EP task (off the stream, from its start)
  };
  // Issue 41: one direction of one MoE layer's all-to-alls in a forward or backward pass (into
  // the busiest GPU, or out of it; step_graph.hpp).
  struct EpDirection {
    double nic_bytes = 0.0;  // a mean GPU's NIC bytes
    double nvlink_s = 0.0;   // the busiest GPU's NVLink legs
    double closed_s = 0.0;   // closed form: latencies + the busiest GPU's bandwidth term
    EpDirection& operator+=(const EpDirection& o) {
      nic_bytes += o.nic_bytes;
      nvlink_s += o.nvlink_s;
      closed_s += o.closed_s;
      return *this;
    }
  };
  // The passes of a stage's order that carry DP pieces.
  struct DpPasses {
    ScheduleItem first_forward;   // gated by the parameter gathers
    ScheduleItem last_backward;   // produces the gradient chunks
    ScheduleItem first_backward;  // ZeRO 3: gated by the second gather
  };
  // What the optimizer waits for at the end of a stage's stream.
  struct StreamTail {
    std::uint32_t last = kNone;        // the stream's last task
    std::uint32_t send = kNone;        // the last pass's send
    std::uint32_t older_send = kNone;  // the one before (interleaved: not yet waited for)
  };

  // --- The steps of build(), in order ---
  // Per stage, its schedule and every pass's compute pieces and TP task: O(p v m + p x chunks).
  void add_stream_passes();
  // Per stage, the transfer of each pass to the next (activations) / previous (gradients)
  // virtual stage, after the pass: O(p v m) tasks, O(transfer node pairs x per_pair) flows each.
  void add_pipeline_sends();
  // Stage s's passes wait for what they receive from the neighbouring virtual stages: O(v m).
  void link_received_sends(int s);
  // Stage s's passes in Megatron's order, each after the previous and (1F1B) its send: O(v m).
  StreamTail chain_stream(int s);
  // ZeRO >= 1: the parameter all_gather chunks on the NCCL stream, each gating its piece of
  // the first forward (ZeRO 3 again for the first backward): O(chunks) collectives. Returns the
  // NCCL stream's last task.
  std::uint32_t add_parameter_gathers(int s, std::uint32_t nccl);
  // The gradient chunks' collectives after the last backward's pieces, on the NCCL stream:
  // O(chunks) collectives. Returns the last one (kNone without DP).
  std::uint32_t add_gradient_reductions(int s, std::uint32_t nccl);
  // Stage s's optimizer after its stream, its sends and its last gradient chunk: one task.
  void add_optimizer(int s, const StreamTail& tail, std::uint32_t last_chunk);
  // Successors, a topological-order check and the flow count: O(tasks + deps).
  void finish();

  // --- Tasks ---
  std::uint32_t add(StepTask t);
  void dep(std::uint32_t task, std::uint32_t on);
  // One pass of stage s (micro-batch j): its compute split into `parts` (nullptr: whole) and its
  // TP task. O(pieces).
  StreamPass add_pass(int s, int j, bool forward, const std::vector<DpChunk>* parts);
  // A pipeline transfer from stage `from` to stage `to` (rank i to rank i): O(stage ranks).
  std::uint32_t add_pp_transfer(int from, int to, int j);
  // A DP collective of stage s over its DP group: O(group nodes x per_pair) flows.
  std::uint32_t add_dp_collective(int s, collective::CollectiveOp op, double bytes, double closed_s);
  // Issue 41: the per-layer all-to-all directions of the job (constructor; ep_on_fabric_ when an
  // EP group spans nodes). Throws sim::ConfigError("parallelism.ep") for a group flow mode
  // cannot lay out on whole nodes. O(1).
  void plan_expert_all_to_alls(const hardware::NodeSpec& node, const collective::FabricParams& fabric);
  // Pass (s, j)'s EP tasks: into then out of the busiest GPU on the stream after its TP, and
  // with ep_overlap their overlapped share off the stream. O(1) tasks.
  void add_ep_tasks(StreamPass& pass, int s, int j, bool forward);
  // One EP task carrying `share` of `layers` layers of direction d: O(stage nodes x (N - 1) x
  // per_pair) flows (N the nodes of an EP group).
  std::uint32_t add_ep_task(int s, int j, const EpDirection& d, double layers, double share, bool into_busiest,
                            bool on_stream);

  // --- Sizes ---
  // Per-pass exposed TP (+ CP ring) time of stage s.
  double tp_comm_s(int s, bool forward) const;
  // Closed form of `op` over buckets of `sizes` bytes (sum of the per-bucket estimates).
  double closed_form_s(collective::CollectiveOp op, const std::vector<double>& sizes) const;
  // Sizes of the buckets of `bytes` split by bucket_bytes (the all_gather's own buckets).
  std::vector<double> buckets_of(double bytes) const;
  // Node of the first rank of stage s (Megatron tp-dp-pp order: stages are rank blocks).
  int stage_first_node(int s) const { return s * stage_ranks_ / gpus_; }
  // Index of chunk c, micro-batch j in a stage's pass and send lists: c m + j.
  std::size_t at(int c, int j) const { return static_cast<std::size_t>(c * m_ + j); }
  DpPasses dp_passes(int s) const;

  // Inputs (referenced, not copied).
  const TrainingJobConfig& job_;
  const TrainingStepResult& r_;
  const collective::CollectiveRegistry& collectives_;
  const StepGraphOptions& options_;
  const collective::CollectiveTuning& tuning_;

  // Sizes derived from them.
  bool build_flows_;
  int p_, tp_, cp_, v_, m_, dp_, gpus_, z_;
  int per_pair_;             // flows per node pair and transfer
  int nics_;                 // compute NICs per node (channel k on NIC k mod nics_)
  double flow_bytes_per_s_;  // line rate of one flow (a node's flows spread over its NICs)
  double eff_;               // network efficiency
  int stage_ranks_;          // tp x cp x dp
  double tp_forward_share_;  // of a pass's TP time, on the forward side
  double p2p_s_;             // closed form of one pipeline send
  bool has_dp_;
  bool gather_;  // parameters are all-gathered (ZeRO >= 1, distributed optimizer)
  // Gradient chunks (the last backward's pieces) and gather chunks (the first forward's pieces,
  // and ZeRO 3's first backward): one partition of the stage's parameters serves both.
  std::vector<DpChunk> gather_chunks_, grad_chunks_;
  double param_bytes_;       // BF16 parameters of a stage (what the gathers move)
  bool pp_cross_node_;       // pipeline neighbours on different nodes
  double pp_bytes_per_gpu_;  // one pipeline transfer, per GPU
  // Issue 41: EP all-to-alls on the fabric (an EP group spans ep_nodes_ > 1 nodes).
  bool ep_on_fabric_ = false;
  int ep_nodes_ = 1;
  double ep_overlap_ = 0.0;
  double ep_busiest_factor_ = 1.0;  // the busiest GPU's channel's flows over a mean channel's
  EpDirection ep_[2][2];            // per MoE layer: [backward][out of the busiest GPU]

  // Built so far.
  StepGraph g_;
  std::vector<std::vector<ScheduleItem>> orders_;       // per stage, Megatron's order
  std::vector<std::vector<StreamPass>> fwd_, bwd_;      // per stage, [at(c, j)]
  std::vector<std::vector<std::uint32_t>> act_, grad_;  // per stage, the sends [at(c, j)]
};

}  // namespace dcsim::models::workload
