#pragma once
// A training job as the cluster model runs it: a TrainingJobConfig (shape, parallelism, batch)
// plus how long it trains and how it checkpoints, and the plan derived from the analytic step
// model (training_step.hpp).
//
// Two ways to run the steps (models/datacenter): analytic segments, below, when the run has no
// fabric; flow mode, with a fabric, where every step runs as its step graph (step_graph.hpp,
// built from `job`, `fabric` and `graph_options` kept in the plan) and clock scaling is the
// compute tasks' own rate.
//
// Clock scaling (analytic mode). The analytic step splits into compute, exposed communication and bubble. A GPU
// clock factor f (thermal or power throttling) stretches what the SMs execute and nothing else:
//   step(f) = S_clock / f + S_fixed
//   S_clock = compute + bubble x (t_fwd + t_bwd) / slot   (the bubble is idle time waiting on
//             other stages' compute, so it stretches with it in the compute part of a slot)
//   S_fixed = the rest (exposed TP/PP/DP communication: links do not throttle with the SMs)
// clock_fraction = S_clock / step at f = 1. This treats HBM-bound kernels as clock-bound too, an
// upper bound on the slowdown (memory clocks do not throttle with the SM clock).
//
// Checkpoints (synchronous, as Megatron's default save): every `interval_steps` steps the job
// stops and writes the model's parameters and optimizer state,
//   bytes = parameters x (2 B BF16 weights + 12 B Adam fp32 master, m, v)   (ZeRO's 16 B minus
//           the gradients, which a checkpoint does not keep)
// spread evenly over the job's nodes (each DP replica writes its 1/nodes share, as
// torch.distributed.checkpoint does), at a per-node rate of
//   nvme    the node's NVMe write bandwidth
//   remote  min(NICs x their line rate, remote_bandwidth / nodes), the NICs of the network the
//           checkpoint config names: the front-end (storage) NICs, as clusters keep checkpoint
//           traffic off the GPU rails, or the backend (compute) NICs where the design puts storage
//           on the compute fabric; remote_bandwidth 0 = no limit beyond the NICs. With store_host
//           set, every node writes its share as one flow to that host of that network instead
//           (the datacenter's /frontend or /fabric), sharing it with whatever else runs there.
//   store   the shared object store (models/storage): planned as remote; the run's writes and
//           restart reads go through the store's data path on its network.
//   nvmeof  every node's NVMe-oF namespace on a target host (models/storage/nvmeof_targets.hpp):
//           planned as remote; the run's writes and restart reads are flows to and from the
//           targets through their queues, drives and (TCP) cores.

#include <string>

#include "models/collective/collective_algorithm.hpp"
#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/workload/software_stack.hpp"
#include "models/workload/step_graph.hpp"
#include "models/workload/training_step.hpp"
#include "sim/time.hpp"

namespace dcsim::models::workload {

// kStore: the datacenter's shared object store (models/storage, the storage subsystem), on the
// network that holds it; planned like kRemote (its nominal time at the NICs' line rate).
enum class CheckpointTarget { kNvme, kRemote, kStore, kNvmeof };
// Which NICs and network carry a remote checkpoint.
enum class CheckpointNetwork { kFrontend, kBackend };

struct CheckpointConfig {
  int interval_steps = 0;  // 0: no checkpoints
  CheckpointTarget target = CheckpointTarget::kNvme;
  double remote_bandwidth_bps = 0.0;  // aggregate of the remote store; 0: only the NICs limit
  int store_host = -1;  // remote target: the store's host on `network`; -1: analytic rate
  CheckpointNetwork network = CheckpointNetwork::kFrontend;  // remote and store targets
  std::string pool;  // store target: the store's pool (empty: its first)
  // Asynchronous save (torch.distributed.checkpoint's async_save, Megatron's --async-save): the
  // job stalls only while every GPU copies its shard to host memory, at snapshot_bytes_per_s_per_gpu
  // (PCIe device-to-host: 52 GB/s measured on H100 SXM, public-figures.md "host-device"); the
  // write then runs beside the next steps, and the checkpoint counts once the write has
  // finished. A save due while the previous write still runs waits for it.
  bool async = false;
  double snapshot_bytes_per_s_per_gpu = 52e9;
};

// The job's input, read from the shared store ahead of its steps (datacenter/dataset_reader.hpp).
// Without it the input costs nothing (tokens already in host memory).
struct DatasetConfig {
  bool from_store = false;
  std::string pool;              // the store's pool (empty: its first)
  // Bytes a step reads: tokens x bytes_per_token (tokenized text: 4 B per token for a vocabulary
  // beyond 65,536), or samples (tokens / sequence length) x bytes_per_sample (images, video)
  // when that is above 0.
  double bytes_per_token = 4.0;
  double bytes_per_sample = 0.0;
  int prefetch_steps = 32;       // the loader reads this many steps at a time, one batch ahead
  // What the dataset takes in its pool (client bytes, before replication or EC); 0: what the job
  // reads over its steps (one pass).
  double size_bytes = 0.0;
};

struct TrainingJobSpec {
  TrainingJobConfig job;  // job.name, job.nodes, model, parallelism, batch, precision
  sim::Time arrival = sim::Time::zero();
  int steps = 1;
  CheckpointConfig checkpoint;
  DatasetConfig dataset;
  collective::FabricParams fabric;
  StepGraphOptions graph;  // flow mode: the step graph's granularity
  SoftwareStack software = nemo_25_02();  // kernel and NCCL efficiencies (software_stack.hpp)
};

struct TrainingJobPlan {
  // What the step graph is built from in flow mode (step_graph.hpp).
  TrainingJobConfig job;
  collective::FabricParams fabric;
  StepGraphOptions graph_options;
  SoftwareStack software;             // what the step was estimated with (a re-plan keeps it)
  TrainingStepResult step;            // at nominal clock
  double clock_fraction = 1.0;        // share of step_time_s that scales with 1 / clock factor
  int steps = 1;
  int checkpoint_interval_steps = 0;  // 0: none
  int checkpoints = 0;                // written during the run (not after the last step)
  double checkpoint_bytes = 0.0;      // one checkpoint, whole job
  double checkpoint_bytes_per_node = 0.0;
  double checkpoint_rate_bytes_per_s = 0.0;  // per node
  double checkpoint_snapshot_rate_bytes_per_s = 0.0;  // per node, async saves: GPUs x D2H rate
  double checkpoint_s = 0.0;          // one checkpoint's stall (nominal; async: the snapshot)
  int checkpoint_store_host = -1;     // the store's host on checkpoint_config.network (remote target)
  CheckpointConfig checkpoint_config;  // as given: re-sizes the checkpoints of a re-planned job
  DatasetConfig dataset;
  double dataset_bytes_per_step = 0.0;  // whole job; 0 unless dataset.from_store
  double dataset_bytes_stored = 0.0;    // what it takes in its pool (DatasetConfig::size_bytes)
  // Run time at nominal clock: steps x step_time_s + checkpoints x checkpoint_s.
  double nominal_duration_s() const;
  // Step time at clock factor f (0 < f <= 1).
  double step_time_s(double clock_factor) const;
};

// Bytes of one checkpoint of `model` (see the header comment).
double checkpoint_bytes(const TransformerModel& model);
// With LoRA adapters (rank > 0) only the adapters and their optimizer state.
double checkpoint_bytes(const TransformerModel& model, const LoraConfig& lora);

// Runs the step model and sizes the checkpoints. Throws sim::ConfigError naming the field
// ("parallelism", "steps", "checkpoint.interval_steps", ...).
TrainingJobPlan plan_training_job(const TrainingJobSpec& spec, const hardware::NodeSpec& node,
                                  const collective::CollectiveRegistry& collectives);

// The same job on `dp` data-parallel replicas instead of plan.step.dp (an elastic job that lost
// or regained replicas), on dp x tp x pp / node.gpus nodes. The global batch stays what it was
// (TorchElastic and Megatron keep it: more gradient accumulation per replica), so each replica
// runs m' = ceil(B / (micro_batch_size x dp)) micro-batches; when dp does not divide the batch,
// the replicas with fewer micro-batches wait at the gradient reduction for the busiest, so the
// step takes m' micro-batches' time while it still trains B sequences (tokens_per_step and the
// model FLOPs per step are the original's). The step is re-estimated by the step model (bubble
// amortised over m', DP collectives over dp ranks, the optimizer shard of ZeRO over dp), and
// the checkpoints re-sized for the new node count (the same bytes over fewer nodes). Throws
// sim::ConfigError when the job does not fit (ZeRO shards grow as dp shrinks) or dp x tp x pp
// does not fill whole nodes.
TrainingJobPlan replan_data_parallel(const TrainingJobPlan& plan, int dp, const hardware::NodeSpec& node,
                                     const collective::CollectiveRegistry& collectives);

}  // namespace dcsim::models::workload
