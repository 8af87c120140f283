#include "tools/scenario/training_spec.hpp"

#include <map>
#include <utility>
#include <vector>

#include "models/workload/training_job.hpp"
#include "sim/error.hpp"
#include "tools/scenario/software_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;
namespace hw = models::hardware;
namespace mw = models::workload;

void bind_node_hardware(Bindings<hw::NodeSpec>& node) {
  using N = hw::NodeSpec;
  const auto from_preset = [](FieldSpec f) { return with_default_note(std::move(f), "from the preset"); };
  node.bind(from_preset(quantity_field("gpu_hbm", "HBM capacity of one GPU.", QuantityKind::kDataSize, above(0))),
            &N::gpu, &hw::GpuSpec::hbm_bytes, "node.gpu.hbm_bytes")
      .bind(from_preset(quantity_field("gpu_hbm_bandwidth", "Peak HBM bandwidth of one GPU.", QuantityKind::kDataRate,
                                       above(0))),
            &N::gpu, &hw::GpuSpec::hbm_bandwidth_bytes_per_s, "node.gpu.hbm_bandwidth_bytes_per_s", 1.0 / 8.0)
      .bind(from_preset(number_field("gpu_bf16_tflops", "Dense BF16 tensor peak of one GPU, TFLOP/s.", above(0))),
            &N::gpu, &hw::GpuSpec::peak_bf16_flops, "node.gpu.peak_bf16_flops", 1e12)
      .bind(from_preset(number_field("gpu_fp8_tflops",
                                     "Dense FP8 tensor peak of one GPU, TFLOP/s (0: no FP8 tensor cores).",
                                     at_least(0))),
            &N::gpu, &hw::GpuSpec::peak_fp8_flops, "node.gpu.peak_fp8_flops", 1e12)
      .bind(from_preset(quantity_field("nvlink_bandwidth",
                                       "NVLink bandwidth of one GPU, per direction, all links together.",
                                       QuantityKind::kDataRate, above(0))),
            &N::gpu, &hw::GpuSpec::nvlink_bandwidth_bytes_per_s, "node.gpu.nvlink_bandwidth_bytes_per_s", 1.0 / 8.0)
      .bind(from_preset(integer_field("nvlink_domain_gpus",
                                      "GPUs of one NVLink domain, whole nodes: the node's on HGX/DGX, 72 (18 "
                                      "trays, a rack) on gb200-nvl72. Tensor parallelism stays inside it.",
                                      between(1, 576))),
            &N::nvlink_domain_gpus, "node.nvlink_domain_gpus")
      .bind(from_preset(boolean_field("nvls", "The NVSwitch reduces in-network (NVLink SHARP, NVLS).")), &N::nvls,
            "node.nvls")
      .bind(from_preset(integer_field("compute_nics",
                                      "Back-end (compute fabric) NICs per node, i.e. fabric links per node.",
                                      at_least(0))),
            &N::compute_nics, "node.compute_nics")
      .bind(from_preset(quantity_field("compute_nic_bandwidth", "Line rate of one compute NIC.",
                                       QuantityKind::kDataRate, above(0))),
            &N::compute_nic_bandwidth_bps, "node.compute_nic_bandwidth_bps")
      .bind(from_preset(
                integer_field("storage_nics", "Front-end / storage NICs per node (remote checkpoints).", at_least(0))),
            &N::storage_nics, "node.storage_nics")
      .bind(from_preset(quantity_field("storage_nic_bandwidth", "Line rate of one storage NIC.",
                                       QuantityKind::kDataRate, above(0))),
            &N::storage_nic_bandwidth_bps, "node.storage_nic_bandwidth_bps")
      .bind(from_preset(quantity_field("nvme_write_bandwidth",
                                       "Sustained write bandwidth of the node's local NVMe (checkpoints).",
                                       QuantityKind::kDataRate, at_least(0))),
            &N::nvme_write_bandwidth_bytes_per_s, "node.nvme_write_bandwidth_bytes_per_s", 1.0 / 8.0);
}

Bindings<mw::TrainingJobSpec> training_job_bindings(const models::ModelRegistries& registries) {
  using S = mw::TrainingJobSpec;
  using J = mw::TrainingJobConfig;
  const auto from_preset = [](FieldSpec f) { return with_default_note(std::move(f), "from the preset"); };
  // The model names a job's fields after TrainingJobSpec and its job ("parallelism.tp",
  // "model.layers", "checkpoint.interval_steps"); the key that chose the preset is the shape's.
  Bindings<mw::TransformerModel> shape(object_field("shape", "Overrides of the preset's shape.", {}));
  using M = mw::TransformerModel;
  shape.bind(from_preset(integer_field("layers", "Transformer layers.", at_least(1))), &M::layers, "model.layers")
      .bind(from_preset(integer_field("hidden", "Hidden size.", at_least(1))), &M::hidden, "model.hidden")
      .bind(from_preset(integer_field("heads", "Attention heads.", at_least(1))), &M::heads, "model.heads")
      .bind(from_preset(integer_field("kv_heads", "Key/value heads (GQA).", at_least(1))), &M::kv_heads,
            "model.kv_heads")
      .bind(from_preset(integer_field("ffn_hidden", "MLP inner size.", at_least(1))), &M::ffn_hidden,
            "model.ffn_hidden")
      .bind(from_preset(integer_field("vocab", "Vocabulary size.", at_least(1))), &M::vocab, "model.vocab")
      .bind(from_preset(boolean_field("dropout",
                                      "Dropout after attention and MLP: its masks are kept "
                                      "for the backward pass (BERT, GPT-3 yes; Llama no).")),
            &M::dropout, "model.dropout")
      // Issue 41 item 1: mixture-of-experts shape (experts 0: dense).
      .bind(from_preset(integer_field("experts", "Routed experts per MoE layer (0: a dense model).", at_least(0))),
            &M::moe, &mw::MoeShape::experts, "model.moe.experts")
      .bind(from_preset(integer_field("experts_per_token", "Routed experts each token passes (top-k).", at_least(0))),
            &M::moe, &mw::MoeShape::experts_per_token, "model.moe.experts_per_token")
      .bind(from_preset(integer_field("shared_experts", "Experts every token passes.", at_least(0))), &M::moe,
            &mw::MoeShape::shared_experts, "model.moe.shared_experts")
      .bind(from_preset(integer_field("expert_ffn_hidden", "Inner width of one expert's MLP.", at_least(0))), &M::moe,
            &mw::MoeShape::expert_ffn_hidden, "model.moe.expert_ffn_hidden")
      .bind(from_preset(integer_field("dense_layers", "The first layers, dense (ffn_hidden wide).", at_least(0))),
            &M::moe, &mw::MoeShape::dense_layers, "model.moe.dense_layers")
      .bind(from_preset(integer_field("moe_layer_step",
                                      "After the dense layers, every n-th layer is MoE (Llama 4 Maverick: 2).",
                                      at_least(1))),
            &M::moe, &mw::MoeShape::layer_step, "model.moe.layer_step")
      .bind(from_preset(number_field("capacity_factor",
                                     "Tokens one expert takes per batch over its even share; beyond, tokens are "
                                     "dropped (0: dropless).",
                                     at_least(0))),
            &M::moe, &mw::MoeShape::capacity_factor, "model.moe.capacity_factor")
      .bind(from_preset(enum_field("router", "Router scores: softmax or sigmoid (DeepSeek-V3), both top-k.", "router",
                                   {"softmax", "sigmoid"})),
            "model.moe.router", [](M& m, const json& v) {
              m.moe.router = v == "sigmoid" ? mw::MoeShape::Router::kSigmoidTopK : mw::MoeShape::Router::kSoftmaxTopK;
            });

  using P = mw::ParallelismPlan;
  Bindings<P> parallelism(object_field("parallelism", "How the job's GPUs split the model and the batch.", {}));
  parallelism
      // Issue 37 item 2: read by finish_training_jobs.
      .key(with_default_note(
          boolean_field("auto",
                        "Choose the plan with the highest tokens/s in the step model "
                        "(models/workload/plan_search.hpp): tp, cp, pp, virtual_stages, "
                        "micro_batch_size, recompute, zero_stage or distributed_optimizer, "
                        "sequence_parallel, tp_comm_overlap and (MoE models) ep, each key given here (and "
                        "micro_batch_size or recompute given on the job) pinned. Needs "
                        "global_batch. The chosen plan is written into the resolved "
                        "scenario and the summary (training/plans/NAME/*)."),
          "false: the plan as given"))
      .bind(integer_field("tp", "Tensor parallelism (inside one NVLink domain).", at_least(1)), &P::tp,
            "parallelism.tp")
      .bind(integer_field("pp", "Pipeline stages (1F1B schedule).", at_least(1)), &P::pp, "parallelism.pp")
      .bind(with_default_note(integer_field("dp", "Data-parallel replicas.", at_least(1)), "GPUs / (tp x cp x pp)"),
            &P::dp, "parallelism.dp")
      .bind(integer_field("zero_stage",
                          "ZeRO sharding of optimizer (1), + gradients (2), "
                          "+ weights (3, FSDP) over dp.",
                          between(0, 3)),
            &P::zero_stage, "parallelism.zero_stage")
      // Issue 15 items 1-3 (pipeline schedule, stage split, CP, SP).
      .bind(integer_field("virtual_stages",
                          "Model chunks per pipeline stage: > 1 runs Megatron-LM's "
                          "interleaved schedule (bubble (pp-1)/(v m), v times the "
                          "pipeline sends); needs pp > 1 and micro-batches a "
                          "multiple of pp.",
                          at_least(1)),
            &P::virtual_stages, "parallelism.virtual_stages")
      .bind(with_default_note(integer_field("first_stage_layers",
                                            "Layers of the first pipeline stage (Megatron's "
                                            "--decoder-first-pipeline-num-layers); the middle "
                                            "stages share the rest.",
                                            at_least(1)),
                              "layers / pp; a remainder goes to the middle stages first"),
            &P::first_stage_layers, "parallelism.first_stage_layers")
      .bind(with_default_note(integer_field("last_stage_layers",
                                            "Layers of the last pipeline stage (Megatron's "
                                            "--decoder-last-pipeline-num-layers).",
                                            at_least(1)),
                              "layers / pp; a remainder goes to the middle stages first"),
            &P::last_stage_layers, "parallelism.last_stage_layers")
      .bind(boolean_field("account_for_embedding",
                          "Count the input embedding as one layer of the stage "
                          "split (Megatron's --account-for-embedding-in-pipeline-"
                          "split): the first stage gets one layer fewer."),
            &P::account_for_embedding, "parallelism.account_for_embedding")
      .bind(boolean_field("account_for_loss",
                          "Count the LM head and loss as one layer of the stage "
                          "split (--account-for-loss-in-pipeline-split): the last "
                          "stage gets one layer fewer."),
            &P::account_for_loss, "parallelism.account_for_loss")
      .bind(integer_field("cp",
                          "Context parallelism: ranks that split each sequence and "
                          "pass key/value blocks around a ring (ring attention); "
                          "rank order tp-cp-dp-pp. The sequence length must be a "
                          "multiple of 2 cp.",
                          at_least(1)),
            &P::cp, "parallelism.cp")
      .bind(boolean_field("sequence_parallel",
                          "Sequence parallelism with tp > 1 (reduce-scatter + "
                          "all-gather, norms and their activations sharded by tp); "
                          "off: all-reduces, those activations whole on every TP "
                          "rank."),
            &P::sequence_parallel, "parallelism.sequence_parallel")
      // Issue 15 items 4, 5.
      .bind(boolean_field("tp_comm_overlap",
                          "Pipeline each sequence-parallel all-gather and "
                          "reduce-scatter with its GEMM in tp pieces (Megatron-LM "
                          "--tp-comm-overlap, Transformer Engine userbuffers): a "
                          "collective shorter than its GEMM exposes 1/tp of itself. "
                          "Needs sequence_parallel."),
            &P::tp_comm_overlap, "parallelism.tp_comm_overlap")
      .bind(boolean_field("distributed_optimizer",
                          "Megatron-LM's distributed optimizer: Adam state sharded "
                          "over the dp x cp ranks, gradients reduce-scattered and "
                          "parameters all-gathered (overlapped with the next "
                          "forward); gradients stay whole. Use with zero_stage 0."),
            &P::distributed_optimizer, "parallelism.distributed_optimizer")
      // Issue 41 item 2 (models/workload/expert_parallel.hpp).
      .bind(integer_field("ep",
                          "Expert parallelism (MoE models): consecutive ranks of a stage's tp x cp x dp that split "
                          "each MoE layer's routed experts (expert tensor parallelism 1); must divide the experts "
                          "and tp x cp x dp. Each MoE layer sends a dispatch and a combine all-to-all per "
                          "micro-batch forward and again backward.",
                          at_least(1)),
            &P::ep, "parallelism.ep")
      .bind(number_field("ep_overlap",
                         "Fraction of the EP all-to-alls hidden behind another micro-batch's compute "
                         "(DualPipe-style schedules); 0: all exposed.",
                         between(0, 1)),
            &P::ep_overlap, "parallelism.ep_overlap");

  // The adapters' switches become LoraConfig::targets (finish_training_jobs); "no target" points at
  // the first switch.
  Bindings<mw::LoraConfig> lora(
      optional_section(object_field("lora",
                                    "LoRA fine-tuning: adapters of rank r on the chosen linears of every layer, the "
                                    "base weights frozen (no weight gradients, optimizer state and gradient "
                                    "reduction for the adapters only; checkpoints hold the adapters).",
                                    {}),
                       "every weight trains"));
  lora.bind(required(integer_field("rank", "Adapter rank r.", at_least(1))), &mw::LoraConfig::rank, "lora.rank")
      .key(with_default(boolean_field("qkv", "Adapt the attention's QKV projection."), true), "lora.targets")
      .key(with_default(boolean_field("attention_out", "Adapt the attention's output projection."), true))
      .key(with_default(boolean_field("mlp_up", "Adapt the MLP's up (and gate) projection."), false))
      .key(with_default(boolean_field("mlp_down", "Adapt the MLP's down projection."), false));

  using D = mw::DatasetConfig;
  Bindings<D> dataset(optional_section(
      object_field("dataset",
                   "The job's input, read from the shared store (/storage) ahead of its steps: the loader reads "
                   "prefetch_steps steps' input at a time (every node its share), the next chunk beside the "
                   "steps of the current one; a step whose input has not arrived waits "
                   "(storage/jobs/NAME/data_stall_s). Without this key the input costs nothing.",
                   {}),
      "input costs nothing (already in host memory)"));
  dataset
      .bind(with_default_note(non_empty(string_field("pool", "The /storage pool it is read from.")),
                              "the first pool of /storage"),
            &D::pool, "dataset.pool")
      .bind(number_field("bytes_per_token",
                         "Bytes read per training token (tokenized text: 4 for a "
                         "vocabulary beyond 65,536 tokens, 2 below).",
                         above(0)),
            &D::bytes_per_token, "dataset.bytes_per_token")
      .bind(quantity_field("bytes_per_sample", "Bytes read per sample (one sequence) instead: images, audio, video.",
                           QuantityKind::kDataSize, above(0)),
            "dataset.bytes_per_sample", [](D& d, const json& v) { d.bytes_per_sample = v.get<double>(); })
      .bind(integer_field("prefetch_steps", "Steps of input read at a time (and held ahead).", at_least(1)),
            &D::prefetch_steps, "dataset.prefetch_steps")
      .bind(with_default_note(quantity_field("size",
                                             "What the dataset takes in its pool from the start (client "
                                             "bytes; the pool's replication or EC adds to it): its "
                                             "room is not the checkpoints' (storage/pools/NAME/"
                                             "dataset_bytes).",
                                             QuantityKind::kDataSize, above(0)),
                              "what the job reads: steps x bytes per step (one pass)"),
            &D::size_bytes, "dataset.size_bytes");

  using C = mw::CheckpointConfig;
  Bindings<C> checkpoint(
      object_field("checkpoint", "Synchronous checkpoints of weights and optimizer state (14 B per parameter).", {}));
  checkpoint
      .bind(integer_field("interval", "Steps between checkpoints; 0: none.", at_least(0)), &C::interval_steps,
            "checkpoint.interval_steps")
      .bind_enum(with_default(enum_field("target",
                                         "Where they go: node NVMe, a remote store "
                                         "over the NICs of `network`, `store`: the "
                                         "shared object store of /storage (writes and "
                                         "restart reads through its data path), or "
                                         "`nvmeof`: each node's namespace on the "
                                         "targets of /nvmeof.",
                                         "checkpoint target", {"nvme", "remote", "store", "nvmeof"}),
                              "nvme"),
                 &C::target, "checkpoint.target",
                 {{"nvme", mw::CheckpointTarget::kNvme},
                  {"remote", mw::CheckpointTarget::kRemote},
                  {"store", mw::CheckpointTarget::kStore},
                  {"nvmeof", mw::CheckpointTarget::kNvmeof}})
      .bind_enum(with_default_note(enum_field("network",
                                              "Remote target: which NICs and network carry "
                                              "it. `frontend`: the storage NICs (and the "
                                              "/frontend network with a `store_host`), off "
                                              "the GPU rails; `backend`: the compute NICs "
                                              "(and /fabric), sharing them with the "
                                              "collectives, as designs without a separate "
                                              "storage network do.",
                                              "checkpoint network", {"frontend", "backend"}),
                                   "`frontend`"),
                 &C::network, "checkpoint.network",
                 {{"frontend", mw::CheckpointNetwork::kFrontend}, {"backend", mw::CheckpointNetwork::kBackend}})
      .bind(with_default_note(quantity_field("remote_bandwidth", "Aggregate write bandwidth of the remote store.",
                                             QuantityKind::kDataRate, above(0)),
                              "only the NICs limit"),
            &C::remote_bandwidth_bps, "checkpoint.remote_bandwidth_bps")
      .bind(with_default_note(integer_field("store_host",
                                            "Remote target: the store's host on the "
                                            "`network` (/frontend or /fabric; a host "
                                            "beyond the cluster's nodes); each node "
                                            "writes its share as a flow to it, sharing "
                                            "that network with whatever else runs there.",
                                            at_least(0)),
                              "no store host: the NICs' line rate"),
            &C::store_host, "checkpoint.store_host")
      .bind(boolean_field("async",
                          "Asynchronous save: the job stalls only while its "
                          "GPUs copy the checkpoint to host memory; the write "
                          "runs beside the next steps (a save due before it "
                          "finishes waits for it)."),
            &C::async, "checkpoint.async")
      .bind(with_default(quantity_field("snapshot_bandwidth",
                                        "Async saves: device-to-host copy rate per GPU "
                                        "(52 GB/s measured on H100 SXM over PCIe Gen5).",
                                        QuantityKind::kDataRate, above(0)),
                         "52 GB/s"),
            &C::snapshot_bytes_per_s_per_gpu, "checkpoint.snapshot_bytes_per_s_per_gpu", 1.0 / 8.0)
      .bind(with_default_note(non_empty(string_field("pool",
                                                     "Store target: the /storage pool the "
                                                     "checkpoints go to.")),
                              "the first pool of /storage"),
            &C::pool, "checkpoint.pool");

  Bindings<S> job(with_default(
      object_array_field("training",
                         "Training jobs: each holds whole nodes and runs `steps` steps of the analytic step model "
                         "(compute, exposed communication, pipeline bubble), with checkpoints.",
                         {}),
      json::array()));
  job.bind(required(non_empty(string_field("name", "Job name, unique among all jobs."))), &S::job, &J::name, "name")
      // The preset first: the shape's keys override its figures.
      .bind(required(enum_field("model", "Transformer preset (`dcsim list \"training model\"` describes each).",
                                registries.training_models.kind(), registries.training_models.names())),
            "",
            [&registries](S& s, const json& v) {
              s.job.model = registries.training_models.get(v.get<std::string>()).factory();
            })
      .object(
          std::move(shape), [](S& s) -> M& { return s.job.model; }, "model")
      .bind(from_preset(integer_field("sequence_length", "Training sequence length, tokens.", at_least(1))),
            "model.seq_len", [](S& s, const json& v) { s.job.model.seq_len = v.get<int>(); })
      .bind(integer_field("nodes", "Whole nodes the job holds (at most /cluster/nodes).", at_least(1)), &S::job,
            &J::nodes, "nodes")
      .object(
          std::move(parallelism), [](S& s) -> P& { return s.job.parallelism; }, "parallelism")
      .object(
          std::move(lora), [](S& s) -> mw::LoraConfig& { return s.job.lora; }, "lora")
      .bind(integer_field("micro_batch_size", "Sequences per micro-batch.", at_least(1)), &S::job, &J::micro_batch_size,
            "micro_batch_size")
      .bind(with_default_note(integer_field("global_batch", "Sequences per step, a multiple of micro_batch_size x dp.",
                                            at_least(1)),
                              "4 x pp micro-batches per replica (1 without pipeline)"),
            &S::job, &J::global_batch_sequences, "global_batch_sequences")
      .bind(number_field("moe_skew",
                         "MoE token imbalance: the busiest expert's tokens over the mean; its GPU's expert GEMMs and "
                         "all-to-all bytes set each MoE layer's time (a capacity factor caps it).",
                         at_least(1)),
            &S::job, &J::moe_skew, "moe_skew")
      .bind(integer_field("moe_max_nodes_per_token",
                          "Node-limited routing (DeepSeek-V3: 4): a token's experts lie on at most this many "
                          "nodes and it crosses the fabric once per node, forwarded over NVLink there; 0: every "
                          "routed copy crosses on its own.",
                          at_least(0)),
            &S::job, &J::moe_max_nodes_per_token, "moe_max_nodes_per_token")
      .bind(with_default(enum_field("precision", "Precision of the GEMMs (attention stays BF16).", "precision",
                                    {"bf16", "fp8"}),
                         "bf16"),
            "precision",
            [](S& s, const json& v) {
              s.job.precision = v == "fp8" ? models::compute::Precision::kFp8 : models::compute::Precision::kBf16;
            })
      .bind(boolean_field("fp8_amax_reduction",
                          "With precision fp8: reduce each tensor's amax over the stage's "
                          "tp x cp x dp ranks after every forward and backward (Transformer "
                          "Engine's delayed scaling default; two small all-reduces per "
                          "micro-batch on the compute stream). Off: local amaxes."),
            &S::job, &J::fp8_amax_reduction, "fp8_amax_reduction")
      .bind(with_default(enum_field("recompute", "Activation recomputation.", "recompute mode", {"selective", "full"}),
                         "selective"),
            "recompute",
            [](S& s, const json& v) {
              s.job.recompute = v == "full" ? mw::Recompute::kFull : mw::Recompute::kSelective;
            })
      // The scenario's default run is 100 steps; the model's TrainingJobSpec defaults to 1.
      .bind(with_default(integer_field("steps", "Training steps to run.", at_least(1)), 100), "steps",
            [](S& s, const json& v) { s.steps = v.get<int>(); })
      .bind(integer_field("max_dp_chunks",
                          "Flow mode (with /fabric): gradient buckets are coalesced into at "
                          "most this many collectives per stage and step (simulation "
                          "granularity; fewer is faster, the tail stays one bucket).",
                          at_least(1)),
            &S::graph, &mw::StepGraphOptions::max_dp_chunks, "max_dp_chunks")
      .bind(with_default(quantity_field("arrival", "Arrival time, from the start of the run.", QuantityKind::kDuration,
                                        at_least(0)),
                         "0 s"),
            &S::arrival, "arrival")
      .object(std::move(dataset), &S::dataset, "dataset")
      .object(std::move(checkpoint), &S::checkpoint, "checkpoint")
      // Mapped with its profile file by the loader (software_spec.hpp), before the plan.
      .key(software_override_field(registries, "training job"), "software");
  return job;
}

void check_training_cross_field(const json& resolved, ErrorList& errors) {
  const json::json_pointer list_ptr("/workload/training");
  if (!resolved.contains(list_ptr) || !resolved.at(list_ptr).is_array()) return;
  const json& list = resolved.at(list_ptr);
  const json::json_pointer nodes_ptr("/cluster/nodes");
  const std::int64_t cluster_nodes =
      resolved.contains(nodes_ptr) && resolved.at(nodes_ptr).is_number_integer()
          ? resolved.at(nodes_ptr).get<std::int64_t>()
          : -1;
  std::map<std::string, std::string> names;
  const json::json_pointer jobs_ptr("/workload/jobs");
  if (resolved.contains(jobs_ptr) && resolved.at(jobs_ptr).is_array()) {
    const json& jobs = resolved.at(jobs_ptr);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].is_object() && jobs[i].contains("name") && jobs[i]["name"].is_string()) {
        names.emplace(jobs[i]["name"].get<std::string>(), "/workload/jobs/" + std::to_string(i) + "/name");
      }
    }
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& t = list[i];
    if (!t.is_object()) continue;
    const std::string base = "/workload/training/" + std::to_string(i);
    if (cluster_nodes >= 0 && t.contains("nodes") && t["nodes"].is_number_integer() &&
        t["nodes"].get<std::int64_t>() > cluster_nodes) {
      errors.add(base + "/nodes", "expected at most " + std::to_string(cluster_nodes) +
                                      " nodes (the cluster's size, /cluster/nodes), got " +
                                      t["nodes"].dump());
    }
    if (const json::json_pointer ck("/checkpoint"); t.contains(ck / "network") && t.contains(ck / "target") &&
                                                     t.at(ck / "target") != "remote") {
      errors.add(base + "/checkpoint/network",
                 t.at(ck / "target") == "store"
                     ? std::string("applies to the remote target only (the store target uses the network that holds "
                                   "the store, /storage/network): drop it")
                 : t.at(ck / "target") == "nvmeof"
                     ? std::string("applies to the remote target only (the nvmeof target uses the network that holds "
                                   "the targets, /nvmeof/network): drop it")
                     : "applies to the remote target only (target is " + t.at(ck / "target").dump() +
                           "; node NVMe needs no network): drop it or set target \"remote\"");
    }
    if (const json::json_pointer ck("/checkpoint"); t.contains(ck / "pool") &&
                                                     (!t.contains(ck / "target") || t.at(ck / "target") != "store")) {
      errors.add(base + "/checkpoint/pool", "applies to the store target only: drop it or set target \"store\"");
    }
    if (t.contains("name") && t["name"].is_string()) {
      const auto [it, fresh] = names.emplace(t["name"].get<std::string>(), base + "/name");
      if (!fresh) {
        errors.add(base + "/name", "expected a unique job name, got " + t["name"].dump() +
                                       " (also at " + it->second + ")");
      }
    }
  }
}

models::collective::FabricParams collective_fabric_params(const models::hardware::NodeSpec& node) {
  models::collective::FabricParams f;
  f.nics_per_node = node.compute_nics;
  f.nic_bandwidth_bps = node.compute_nic_bandwidth_bps;
  return f;
}

namespace {

// The keys an automatic plan keeps: those the scenario gives in the parallelism object, and the
// job's micro_batch_size and recompute.
mw::PlanSearchPins pins_of(const json* given) {
  mw::PlanSearchPins p;
  if (given == nullptr || !given->is_object()) return p;
  const json empty = json::object();
  const json& g =
      given->contains("parallelism") && given->at("parallelism").is_object() ? given->at("parallelism") : empty;
  const std::pair<const char*, bool*> keys[] = {{"tp", &p.tp},
                                                {"pp", &p.pp},
                                                {"dp", &p.dp},
                                                {"cp", &p.cp},
                                                {"virtual_stages", &p.virtual_stages},
                                                {"zero_stage", &p.zero_stage},
                                                {"distributed_optimizer", &p.distributed_optimizer},
                                                {"sequence_parallel", &p.sequence_parallel},
                                                {"tp_comm_overlap", &p.tp_comm_overlap},
                                                {"ep", &p.ep}};
  for (const auto& [key, pin] : keys) *pin = g.contains(key);
  p.micro_batch_size = given->contains("micro_batch_size");
  p.recompute = given->contains("recompute");
  return p;
}

}  // namespace

std::vector<std::pair<std::size_t, mw::PlanSearchOutcome>> finish_training_jobs(
    const json& list, const json* given_list, const models::ModelRegistries& registries,
    models::cluster::ClusterConfig& config) {
  std::vector<std::pair<std::size_t, mw::PlanSearchOutcome>> searched;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& t = list[i];
    mw::TrainingJobSpec& spec = config.training_jobs[i];
    // What no single key says: a shape override makes it another model than the published one,
    // the adapters' switches are a list, a dataset key reads from the store, and the plan checks
    // the cluster's node.
    if (!t.at("shape").empty()) spec.job.model.published_params = spec.job.model.published_active_params = 0.0;
    if (t.contains("lora")) {
      spec.job.lora.targets.clear();
      for (const std::string& name : mw::lora_target_names()) {
        if (t.at("lora").at(name).get<bool>()) spec.job.lora.targets.push_back(mw::parse_lora_target(name));
      }
    }
    spec.dataset.from_store = t.contains("dataset");
    spec.fabric = collective_fabric_params(config.node);
    try {
      if (t.at("parallelism").value("auto", false)) {
        mw::PlanSearchOptions options;
        const bool given = given_list != nullptr && given_list->is_array() && i < given_list->size();
        options.pins = pins_of(given ? &(*given_list)[i] : nullptr);
        const auto found =
            mw::search_training_plan(spec.job, config.node, spec.fabric, registries.collective_algorithms,
                                     spec.software.kernels, spec.software.collective_tuning(), options);
        spec.job = found.best.job;
        searched.emplace_back(i, mw::outcome_of(found));
      }
      (void)mw::plan_training_job(spec, config.node, registries.collective_algorithms);
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError("training[" + std::to_string(i) + "]." + e.field(), e.detail());
    }
  }
  return searched;
}

void record_searched_plans(const models::cluster::ClusterConfig& config,
                           const std::vector<std::pair<std::size_t, mw::PlanSearchOutcome>>& searched, json& resolved) {
  for (const auto& [i, outcome] : searched) {
    const mw::TrainingJobConfig& job = config.training_jobs[i].job;
    const mw::ParallelismPlan& p = job.parallelism;
    json& t = resolved["workload"]["training"][i];
    json& par = t["parallelism"];
    par["tp"] = p.tp;
    par["pp"] = p.pp;
    par["dp"] = job.nodes * config.node.gpus / (p.tp * p.cp * p.pp);
    par["cp"] = p.cp;
    par["virtual_stages"] = p.virtual_stages;
    par["zero_stage"] = p.zero_stage;
    par["distributed_optimizer"] = p.distributed_optimizer;
    par["sequence_parallel"] = p.sequence_parallel;
    par["tp_comm_overlap"] = p.tp_comm_overlap;
    if (job.model.moe.enabled()) par["ep"] = p.ep;
    t["micro_batch_size"] = job.micro_batch_size;
    t["recompute"] = job.recompute == mw::Recompute::kFull ? "full" : "selective";
  }
}

}  // namespace dcsim::tools::scenario
