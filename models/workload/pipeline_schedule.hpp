#pragma once
// Pipeline schedules as Megatron-LM runs them (issue 15, items 1 and 2): how layers split over
// stages, the order in which a stage runs its forward and backward passes, and what that order
// costs in bubble and keeps in flight.
//
// Stage split. Megatron gives every stage L/p layers; its --decoder-first-pipeline-num-layers /
// --decoder-last-pipeline-num-layers set the first and last stage's counts (the middle stages
// share the rest), and --account-for-embedding-in-pipeline-split / --account-for-loss-in-
// pipeline-split count the input embedding / the LM head and loss as one layer of the split
// (the stage holding them gets one layer fewer). When L does not divide by p and nothing is
// given, the remainder goes to the middle stages first: the first and last stage carry the
// embedding and the loss, and the Llama 3 405B run trimmed exactly those (Dubey et al. 2024,
// section 3.3.2: "we reduce one Transformer layer each from the first and the last stages";
// 126 layers on 16 stages = 7, 8 x 14, 7).
//
// Interleaved (virtual) pipeline (Narayanan et al. 2021, "Efficient Large-Scale Language Model
// Training on GPU Clusters Using Megatron-LM", section 2.2.2): each stage holds v model chunks
// (chunk c of stage s is virtual stage c p + s), and a micro-batch crosses the p stages v times.
// The bubble shrinks to (p-1)/(v m) of the ideal time, and each stage sends v times as many
// activations and gradients. Megatron's order (megatron/core/pipeline_parallel/schedules.py):
// virtual micro-batch k runs chunk (k mod p v) / p of micro-batch (k / p v) p + k mod p
// (backward: chunk v-1 minus that); stage s warms up with 2 (p-s-1) + (v-1) p forwards (1F1B:
// p-s-1), then alternates one forward, one backward, then cools down. The schedule needs m to
// be a multiple of p (Megatron asserts it).

#include <vector>

namespace dcsim::models::workload {

struct ParallelismPlan;
struct TransformerModel;

// Layers per stage (stages 0 .. p-1). Throws sim::ConfigError("parallelism.<key>", ...) for an
// impossible split (a stage without layers, first + last more than the model, ...).
std::vector<int> stage_layers(const TransformerModel& model, const ParallelismPlan& plan);

// MoE layers per stage (issue 41): model chunks in schedule order (chunk c on stage c mod p, a
// stage's layers split evenly over its v chunks, the remainder in its last), each chunk the next
// layers of the model, counted with model.is_moe_layer. All zero for a dense model.
std::vector<int> stage_moe_layers(const TransformerModel& model, const std::vector<int>& layers, int v);

// Checks an interleaved schedule of v chunks on p stages with m micro-batches per step and the
// given stage split: pp > 1, m a multiple of p, at least v layers on every stage. Throws
// sim::ConfigError("parallelism.virtual_stages", ...).
void validate_interleaving(int p, int v, int m, const std::vector<int>& layers);

// One element of a stage's schedule: a forward or backward of one chunk of one micro-batch.
struct ScheduleItem {
  bool forward = true;
  int chunk = 0;
  int micro_batch = 0;
};

// Megatron's order of stage s's passes (v = 1: plain 1F1B).
std::vector<ScheduleItem> stage_order(int p, int v, int m, int s);

// Chunk-micro-batches whose activations stage s holds at its peak (the end of the warm-up, plus
// the one the steady state adds before its first backward): 1F1B min(p-s, m); interleaved
// min(2 (p-s-1) + (v-1) p + 1, v m). Each holds 1/v of the stage's layers, so stage 0 holds
// p + (p-1)/v stage-micro-batches (Korthikanti et al. 2022, section 4.2.3: the interleaved
// schedule multiplies the first stage's activations by 1 + (p-1)/(p v)).
int in_flight_chunks(int p, int v, int m, int s);

// Pipeline bubble of one step. A micro-batch fills the pipeline through every stage once and
// the slowest stage then sets the pace, so 1F1B takes sum_s slot_s + (m-1) max_s slot_s: the
// bubble is what the fill and drain add beyond the slowest stage's m slots, plus the pipeline
// sends on that path, which no compute hides (2 per stage boundary). The interleaved schedule
// fills with chunks, 1/v of a stage each:
//   bubble = (sum_s slot_s - max_s slot_s) / v + 2 (p-1) send
// slot_s: stage s's forward + backward + exposed TP/CP communication of one micro-batch; send:
// one pipeline send. Equal stages: (p-1) (slot / v + 2 send), i.e. (p-1)/(v m) of the ideal
// time m slot (Narayanan et al. 2021, section 2.2.2) plus the sends.
double pipeline_bubble_s(int p, int v, double sum_slots_s, double max_slot_s, double send_s);

// Exposed pipeline-send time of one micro-batch in the steady state, on one stage: 1F1B blocks
// on its 2 sends (2 send); the interleaved schedule sends 2 v times and overlaps each send with
// the next chunk's compute (Megatron's overlap_p2p_comm, on by default for the interleaved
// schedule), exposing only what a chunk's forward does not hide: 2 v max(0, send - forward / v).
double exposed_sends_per_micro_batch_s(int v, double send_s, double forward_s);

}  // namespace dcsim::models::workload
