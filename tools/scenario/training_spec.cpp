#include "tools/scenario/training_spec.hpp"

#include <map>

#include "models/workload/training_job.hpp"
#include "sim/error.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

namespace {

FieldSpec* find_child(FieldSpec& parent, const std::string& key) {
  for (auto& c : parent.children) {
    if (c.key == key) return &c;
  }
  return nullptr;
}

std::vector<FieldSpec> node_hardware_fields() {
  const auto from_preset = [](FieldSpec f) { return with_default_note(std::move(f), "from the preset"); };
  return {
      from_preset(quantity_field("gpu_hbm", "HBM capacity of one GPU.", QuantityKind::kDataSize, above(0))),
      from_preset(quantity_field("gpu_hbm_bandwidth", "Peak HBM bandwidth of one GPU.",
                                 QuantityKind::kDataRate, above(0))),
      from_preset(number_field("gpu_bf16_tflops", "Dense BF16 tensor peak of one GPU, TFLOP/s.", above(0))),
      from_preset(number_field("gpu_fp8_tflops",
                               "Dense FP8 tensor peak of one GPU, TFLOP/s (0: no FP8 tensor cores).",
                               at_least(0))),
      from_preset(quantity_field("nvlink_bandwidth",
                                 "NVLink bandwidth of one GPU, per direction, all links together.",
                                 QuantityKind::kDataRate, above(0))),
      from_preset(boolean_field("nvls", "The NVSwitch reduces in-network (NVLink SHARP, NVLS).")),
      from_preset(integer_field("compute_nics",
                                "Back-end (compute fabric) NICs per node, i.e. fabric links per node.",
                                at_least(0))),
      from_preset(quantity_field("compute_nic_bandwidth", "Line rate of one compute NIC.",
                                 QuantityKind::kDataRate, above(0))),
      from_preset(integer_field("storage_nics", "Front-end / storage NICs per node (remote checkpoints).",
                                at_least(0))),
      from_preset(quantity_field("storage_nic_bandwidth", "Line rate of one storage NIC.",
                                 QuantityKind::kDataRate, above(0))),
      from_preset(quantity_field("nvme_write_bandwidth",
                                 "Sustained write bandwidth of the node's local NVMe (checkpoints).",
                                 QuantityKind::kDataRate, at_least(0))),
  };
}

FieldSpec training_array(const models::ModelRegistries& registries) {
  const auto from_preset = [](FieldSpec f) { return with_default_note(std::move(f), "from the preset"); };
  return with_default(
      object_array_field(
          "training",
          "Training jobs: each holds whole nodes and runs `steps` steps of the analytic step model "
          "(compute, exposed communication, pipeline bubble), with checkpoints.",
          {
              required(non_empty(string_field("name", "Job name, unique among all jobs."))),
              required(enum_field("model",
                                  "Transformer preset (`dcsim list \"training model\"` describes each).",
                                  registries.training_models.kind(), registries.training_models.names())),
              object_field("shape", "Overrides of the preset's shape.",
                           {
                               from_preset(integer_field("layers", "Transformer layers.", at_least(1))),
                               from_preset(integer_field("hidden", "Hidden size.", at_least(1))),
                               from_preset(integer_field("heads", "Attention heads.", at_least(1))),
                               from_preset(integer_field("kv_heads", "Key/value heads (GQA).", at_least(1))),
                               from_preset(integer_field("ffn_hidden", "MLP inner size.", at_least(1))),
                               from_preset(integer_field("vocab", "Vocabulary size.", at_least(1))),
                               from_preset(boolean_field("dropout",
                                                         "Dropout after attention and MLP: its masks are kept "
                                                         "for the backward pass (BERT, GPT-3 yes; Llama no).")),
                           }),
              with_default_note(integer_field("sequence_length", "Training sequence length, tokens.",
                                              at_least(1)),
                                "from the preset"),
              with_default(integer_field("nodes", "Whole nodes the job holds (at most /cluster/nodes).",
                                         at_least(1)),
                           1),
              object_field("parallelism", "How the job's GPUs split the model and the batch.",
                           {
                               with_default(integer_field("tp", "Tensor parallelism (inside one NVLink domain).",
                                                          at_least(1)),
                                            1),
                               with_default(integer_field("pp", "Pipeline stages (1F1B schedule).", at_least(1)),
                                            1),
                               with_default_note(integer_field("dp", "Data-parallel replicas.", at_least(1)),
                                                 "GPUs / (tp x cp x pp)"),
                               with_default(integer_field("zero_stage",
                                                          "ZeRO sharding of optimizer (1), + gradients (2), "
                                                          "+ weights (3, FSDP) over dp.",
                                                          between(0, 3)),
                                            0),
                               // Issue 15 items 1-3 (pipeline schedule, stage split, CP, SP).
                               with_default(integer_field("virtual_stages",
                                                          "Model chunks per pipeline stage: > 1 runs Megatron-LM's "
                                                          "interleaved schedule (bubble (pp-1)/(v m), v times the "
                                                          "pipeline sends); needs pp > 1 and micro-batches a "
                                                          "multiple of pp.",
                                                          at_least(1)),
                                            1),
                               with_default_note(integer_field("first_stage_layers",
                                                               "Layers of the first pipeline stage (Megatron's "
                                                               "--decoder-first-pipeline-num-layers); the middle "
                                                               "stages share the rest.",
                                                               at_least(1)),
                                                 "layers / pp; a remainder goes to the middle stages first"),
                               with_default_note(integer_field("last_stage_layers",
                                                               "Layers of the last pipeline stage (Megatron's "
                                                               "--decoder-last-pipeline-num-layers).",
                                                               at_least(1)),
                                                 "layers / pp; a remainder goes to the middle stages first"),
                               with_default(boolean_field("account_for_embedding",
                                                          "Count the input embedding as one layer of the stage "
                                                          "split (Megatron's --account-for-embedding-in-pipeline-"
                                                          "split): the first stage gets one layer fewer."),
                                            false),
                               with_default(boolean_field("account_for_loss",
                                                          "Count the LM head and loss as one layer of the stage "
                                                          "split (--account-for-loss-in-pipeline-split): the last "
                                                          "stage gets one layer fewer."),
                                            false),
                               with_default(integer_field("cp",
                                                          "Context parallelism: ranks that split each sequence and "
                                                          "pass key/value blocks around a ring (ring attention); "
                                                          "rank order tp-cp-dp-pp. The sequence length must be a "
                                                          "multiple of 2 cp.",
                                                          at_least(1)),
                                            1),
                               with_default(boolean_field("sequence_parallel",
                                                          "Sequence parallelism with tp > 1 (reduce-scatter + "
                                                          "all-gather, norms and their activations sharded by tp); "
                                                          "off: all-reduces, those activations whole on every TP "
                                                          "rank."),
                                            true),
                               // Issue 15 items 4, 5.
                               with_default(boolean_field("tp_comm_overlap",
                                                          "Pipeline each sequence-parallel all-gather and "
                                                          "reduce-scatter with its GEMM in tp pieces (Megatron-LM "
                                                          "--tp-comm-overlap, Transformer Engine userbuffers): a "
                                                          "collective shorter than its GEMM exposes 1/tp of itself. "
                                                          "Needs sequence_parallel."),
                                            false),
                               with_default(boolean_field("distributed_optimizer",
                                                          "Megatron-LM's distributed optimizer: Adam state sharded "
                                                          "over the dp x cp ranks, gradients reduce-scattered and "
                                                          "parameters all-gathered (overlapped with the next "
                                                          "forward); gradients stay whole. Use with zero_stage 0."),
                                            false),
                           }),
              optional_section(
                  object_field("lora",
                               "LoRA fine-tuning: adapters of rank r on the chosen linears of every layer, the "
                               "base weights frozen (no weight gradients, optimizer state and gradient "
                               "reduction for the adapters only; checkpoints hold the adapters).",
                               {
                                   required(integer_field("rank", "Adapter rank r.", at_least(1))),
                                   with_default(boolean_field("qkv", "Adapt the attention's QKV projection."), true),
                                   with_default(boolean_field("attention_out", "Adapt the attention's output projection."),
                                                true),
                                   with_default(boolean_field("mlp_up", "Adapt the MLP's up (and gate) projection."),
                                                false),
                                   with_default(boolean_field("mlp_down", "Adapt the MLP's down projection."), false),
                               }),
                  "every weight trains"),
              with_default(integer_field("micro_batch_size", "Sequences per micro-batch.", at_least(1)), 1),
              with_default_note(integer_field("global_batch",
                                              "Sequences per step, a multiple of micro_batch_size x dp.",
                                              at_least(1)),
                                "4 x pp micro-batches per replica (1 without pipeline)"),
              with_default(enum_field("precision", "Precision of the GEMMs (attention stays BF16).",
                                      "precision", {"bf16", "fp8"}),
                           "bf16"),
              with_default(boolean_field("fp8_amax_reduction",
                                         "With precision fp8: reduce each tensor's amax over the stage's "
                                         "tp x cp x dp ranks after every forward and backward (Transformer "
                                         "Engine's delayed scaling default; two small all-reduces per "
                                         "micro-batch on the compute stream). Off: local amaxes."),
                           true),
              with_default(enum_field("recompute", "Activation recomputation.", "recompute mode",
                                      {"selective", "full"}),
                           "selective"),
              with_default(integer_field("steps", "Training steps to run.", at_least(1)), 100),
              with_default(integer_field("max_dp_chunks",
                                         "Flow mode (with /fabric): gradient buckets are coalesced into at "
                                         "most this many collectives per stage and step (simulation "
                                         "granularity; fewer is faster, the tail stays one bucket).",
                                         at_least(1)),
                           8),
              with_default(quantity_field("arrival", "Arrival time, from the start of the run.",
                                          QuantityKind::kDuration, at_least(0)),
                           "0 s"),
              optional_section(
                  object_field(
                      "dataset",
                      "The job's input, read from the shared store (/storage) ahead of its steps: the loader reads "
                      "prefetch_steps steps' input at a time (every node its share), the next chunk beside the "
                      "steps of the current one; a step whose input has not arrived waits "
                      "(storage/jobs/NAME/data_stall_s). Without this key the input costs nothing.",
                      {
                          with_default_note(non_empty(string_field("pool", "The /storage pool it is read from.")),
                                            "the first pool of /storage"),
                          with_default(number_field("bytes_per_token",
                                                    "Bytes read per training token (tokenized text: 4 for a "
                                                    "vocabulary beyond 65,536 tokens, 2 below).",
                                                    above(0)),
                                       4.0),
                          quantity_field("bytes_per_sample",
                                         "Bytes read per sample (one sequence) instead: images, audio, video.",
                                         QuantityKind::kDataSize, above(0)),
                          with_default(integer_field("prefetch_steps",
                                                     "Steps of input read at a time (and held ahead).", at_least(1)),
                                       32),
                          with_default_note(quantity_field("size",
                                                           "What the dataset takes in its pool from the start (client "
                                                           "bytes; the pool's replication or EC adds to it): its "
                                                           "room is not the checkpoints' (storage/pools/NAME/"
                                                           "dataset_bytes).",
                                                           QuantityKind::kDataSize, above(0)),
                                            "what the job reads: steps x bytes per step (one pass)"),
                      }),
                  "input costs nothing (already in host memory)"),
              object_field("checkpoint",
                           "Synchronous checkpoints of weights and optimizer state (14 B per parameter).",
                           {
                               with_default(integer_field("interval", "Steps between checkpoints; 0: none.",
                                                          at_least(0)),
                                            0),
                               with_default(enum_field("target",
                                                       "Where they go: node NVMe, a remote store "
                                                       "over the NICs of `network`, `store`: the "
                                                       "shared object store of /storage (writes and "
                                                       "restart reads through its data path), or "
                                                       "`nvmeof`: each node's namespace on the "
                                                       "targets of /nvmeof.",
                                                       "checkpoint target", {"nvme", "remote", "store", "nvmeof"}),
                                            "nvme"),
                               with_default_note(enum_field("network",
                                                            "Remote target: which NICs and network carry "
                                                            "it. `frontend`: the storage NICs (and the "
                                                            "/frontend network with a `store_host`), off "
                                                            "the GPU rails; `backend`: the compute NICs "
                                                            "(and /fabric), sharing them with the "
                                                            "collectives, as designs without a separate "
                                                            "storage network do.",
                                                            "checkpoint network", {"frontend", "backend"}),
                                                 "`frontend`"),
                               with_default_note(quantity_field("remote_bandwidth",
                                                                "Aggregate write bandwidth of the remote store.",
                                                                QuantityKind::kDataRate, above(0)),
                                                 "only the NICs limit"),
                               with_default_note(integer_field("store_host",
                                                               "Remote target: the store's host on the "
                                                               "`network` (/frontend or /fabric; a host "
                                                               "beyond the cluster's nodes); each node "
                                                               "writes its share as a flow to it, sharing "
                                                               "that network with whatever else runs there.",
                                                               at_least(0)),
                                                 "no store host: the NICs' line rate"),
                               with_default(boolean_field("async",
                                                          "Asynchronous save: the job stalls only while its "
                                                          "GPUs copy the checkpoint to host memory; the write "
                                                          "runs beside the next steps (a save due before it "
                                                          "finishes waits for it)."),
                                            false),
                               with_default(quantity_field("snapshot_bandwidth",
                                                           "Async saves: device-to-host copy rate per GPU "
                                                           "(52 GB/s measured on H100 SXM over PCIe Gen5).",
                                                           QuantityKind::kDataRate, above(0)),
                                            "52 GB/s"),
                               with_default_note(non_empty(string_field("pool",
                                                                        "Store target: the /storage pool the "
                                                                        "checkpoints go to.")),
                                                 "the first pool of /storage"),
                           }),
          }),
      json::array());
}

double si(const json& v) { return v.get<double>(); }

}  // namespace

void add_training_fields(FieldSpec& root, const models::ModelRegistries& registries) {
  if (FieldSpec* cluster = find_child(root, "cluster")) {
    if (FieldSpec* node = find_child(*cluster, "node")) {
      for (auto& f : node_hardware_fields()) node->children.push_back(std::move(f));
    }
  }
  if (FieldSpec* workload = find_child(root, "workload")) {
    workload->children.push_back(training_array(registries));
  }
}

void fill_node_hardware_from_preset(json& node, const models::hardware::NodeSpec& spec) {
  const auto fill = [&node](const char* key, const json& value) {
    if (!node.contains(key)) node[key] = value;
  };
  fill("gpu_hbm", spec.gpu.hbm_bytes);
  fill("gpu_hbm_bandwidth", spec.gpu.hbm_bandwidth_bytes_per_s * 8.0);
  fill("gpu_bf16_tflops", spec.gpu.peak_bf16_flops / 1e12);
  fill("gpu_fp8_tflops", spec.gpu.peak_fp8_flops / 1e12);
  fill("nvlink_bandwidth", spec.gpu.nvlink_bandwidth_bytes_per_s * 8.0);
  fill("nvls", spec.nvls);
  fill("compute_nics", spec.compute_nics);
  fill("compute_nic_bandwidth", spec.compute_nic_bandwidth_bps);
  fill("storage_nics", spec.storage_nics);
  fill("storage_nic_bandwidth", spec.storage_nic_bandwidth_bps);
  fill("nvme_write_bandwidth", spec.nvme_write_bandwidth_bytes_per_s * 8.0);
}

void map_node_hardware(const OriginReader& n, models::hardware::NodeSpec& node) {
  node.gpu.hbm_bytes = si(n.at("gpu_hbm", "gpu.hbm_bytes"));
  node.gpu.hbm_bandwidth_bytes_per_s = si(n.at("gpu_hbm_bandwidth", "gpu.hbm_bandwidth_bytes_per_s")) / 8.0;
  node.gpu.peak_bf16_flops = si(n.at("gpu_bf16_tflops", "gpu.peak_bf16_flops")) * 1e12;
  node.gpu.peak_fp8_flops = si(n.at("gpu_fp8_tflops", "gpu.peak_fp8_flops")) * 1e12;
  node.gpu.nvlink_bandwidth_bytes_per_s = si(n.at("nvlink_bandwidth", "gpu.nvlink_bandwidth_bytes_per_s")) / 8.0;
  node.nvls = n.at("nvls", "nvls").get<bool>();
  node.compute_nics = n.at("compute_nics", "compute_nics").get<int>();
  node.compute_nic_bandwidth_bps = si(n.at("compute_nic_bandwidth", "compute_nic_bandwidth_bps"));
  node.storage_nics = n.at("storage_nics", "storage_nics").get<int>();
  node.storage_nic_bandwidth_bps = si(n.at("storage_nic_bandwidth", "storage_nic_bandwidth_bps"));
  node.nvme_write_bandwidth_bytes_per_s = si(n.at("nvme_write_bandwidth", "nvme_write_bandwidth_bytes_per_s")) / 8.0;
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

void map_training_jobs(const json& r, const models::ModelRegistries& registries,
                       models::cluster::ClusterConfig& config, FieldOrigins& origins) {
  namespace mw = models::workload;
  const json::json_pointer ptr("/workload/training");
  if (!r.contains(ptr)) return;
  const json& list = r.at(ptr);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string index = std::to_string(i);
    const std::string prefix = "training[" + index + "].";
    const OriginReader t(list[i], "/workload/training/" + index, prefix, origins);
    mw::TrainingJobSpec spec;
    mw::TrainingJobConfig& job = spec.job;
    job.name = t.at("name", "name").get<std::string>();
    job.model = registries.training_models.get(t.at("model", "model").get<std::string>()).factory();
    const OriginReader shape = t.object("shape", "model.");
    // The preset's figure unless given; either way the key is where a complaint about it points.
    const auto set_int = [](const OriginReader& obj, const char* key, const char* field, int& out) {
      obj.record(field, key);
      if (obj.contains(key)) out = obj.json().at(key).get<int>();
    };
    set_int(shape, "layers", "layers", job.model.layers);
    set_int(shape, "hidden", "hidden", job.model.hidden);
    set_int(shape, "heads", "heads", job.model.heads);
    set_int(shape, "kv_heads", "kv_heads", job.model.kv_heads);
    set_int(shape, "ffn_hidden", "ffn_hidden", job.model.ffn_hidden);
    set_int(shape, "vocab", "vocab", job.model.vocab);
    shape.record("dropout", "dropout");
    if (shape.contains("dropout")) job.model.dropout = shape.json().at("dropout").get<bool>();
    set_int(t, "sequence_length", "model.seq_len", job.model.seq_len);
    if (!shape.json().empty()) job.model.published_params = 0.0;  // no longer the published model
    job.nodes = t.at("nodes", "nodes").get<int>();
    const OriginReader p = t.object("parallelism", "parallelism.");
    job.parallelism.tp = p.at("tp", "tp").get<int>();
    job.parallelism.pp = p.at("pp", "pp").get<int>();
    if (p.contains("dp")) job.parallelism.dp = p.at("dp", "dp").get<int>();
    job.parallelism.zero_stage = p.at("zero_stage", "zero_stage").get<int>();
    // Issue 15 items 1-3.
    job.parallelism.virtual_stages = p.at("virtual_stages", "virtual_stages").get<int>();
    p.record("first_stage_layers", "first_stage_layers");
    p.record("last_stage_layers", "last_stage_layers");
    if (p.contains("first_stage_layers")) job.parallelism.first_stage_layers = p.at("first_stage_layers", "first_stage_layers").get<int>();
    if (p.contains("last_stage_layers")) job.parallelism.last_stage_layers = p.at("last_stage_layers", "last_stage_layers").get<int>();
    job.parallelism.account_for_embedding = p.at("account_for_embedding", "account_for_embedding").get<bool>();
    job.parallelism.account_for_loss = p.at("account_for_loss", "account_for_loss").get<bool>();
    job.parallelism.cp = p.at("cp", "cp").get<int>();
    job.parallelism.sequence_parallel = p.at("sequence_parallel", "sequence_parallel").get<bool>();
    job.parallelism.tp_comm_overlap = p.at("tp_comm_overlap", "tp_comm_overlap").get<bool>();
    job.parallelism.distributed_optimizer = p.at("distributed_optimizer", "distributed_optimizer").get<bool>();
    if (t.contains("lora")) {
      const OriginReader lora = t.object("lora", "lora.");
      job.lora.rank = lora.at("rank", "rank").get<int>();
      job.lora.targets.clear();
      for (const std::string& name : mw::lora_target_names()) {
        if (lora.at(name, "targets").get<bool>()) job.lora.targets.push_back(mw::parse_lora_target(name));
      }
      lora.record("targets", "qkv");  // "no target" points at the first switch
    }
    job.micro_batch_size = t.at("micro_batch_size", "micro_batch_size").get<int>();
    if (t.contains("global_batch")) job.global_batch_sequences = t.at("global_batch", "global_batch_sequences").get<int>();
    job.precision = t.at("precision", "precision").get<std::string>() == "fp8" ? models::compute::Precision::kFp8
                                                                              : models::compute::Precision::kBf16;
    job.fp8_amax_reduction = t.at("fp8_amax_reduction", "fp8_amax_reduction").get<bool>();
    job.recompute = t.at("recompute", "recompute").get<std::string>() == "full" ? mw::Recompute::kFull
                                                                               : mw::Recompute::kSelective;
    spec.steps = t.at("steps", "steps").get<int>();
    spec.graph.max_dp_chunks = t.at("max_dp_chunks", "max_dp_chunks").get<int>();
    spec.arrival = sim::Time::from_seconds(t.at("arrival", "arrival").get<double>());
    if (t.contains("dataset")) {
      const OriginReader data = t.object("dataset", "dataset.");
      spec.dataset.from_store = true;
      if (data.contains("pool")) spec.dataset.pool = data.at("pool", "pool").get<std::string>();
      spec.dataset.bytes_per_token = data.at("bytes_per_token", "bytes_per_token").get<double>();
      if (data.contains("bytes_per_sample")) {
        spec.dataset.bytes_per_sample = data.at("bytes_per_sample", "bytes_per_sample").get<double>();
      }
      spec.dataset.prefetch_steps = data.at("prefetch_steps", "prefetch_steps").get<int>();
      if (data.contains("size")) spec.dataset.size_bytes = data.at("size", "size_bytes").get<double>();
    }
    const OriginReader ck = t.object("checkpoint", "checkpoint.");
    spec.checkpoint.interval_steps = ck.at("interval", "interval_steps").get<int>();
    const std::string target = ck.at("target", "target").get<std::string>();
    spec.checkpoint.target = target == "remote"   ? mw::CheckpointTarget::kRemote
                             : target == "store"  ? mw::CheckpointTarget::kStore
                             : target == "nvmeof" ? mw::CheckpointTarget::kNvmeof
                                                  : mw::CheckpointTarget::kNvme;
    if (ck.contains("pool")) spec.checkpoint.pool = ck.at("pool", "pool").get<std::string>();
    spec.checkpoint.async = ck.at("async", "async").get<bool>();
    spec.checkpoint.snapshot_bytes_per_s_per_gpu =
        ck.at("snapshot_bandwidth", "snapshot_bytes_per_s_per_gpu").get<double>() / 8.0;
    if (ck.contains("remote_bandwidth")) {
      spec.checkpoint.remote_bandwidth_bps = ck.at("remote_bandwidth", "remote_bandwidth_bps").get<double>();
    }
    if (ck.contains("store_host")) spec.checkpoint.store_host = ck.at("store_host", "store_host").get<int>();
    if (ck.contains("network") && ck.at("network", "network").get<std::string>() == "backend") {
      spec.checkpoint.network = mw::CheckpointNetwork::kBackend;
    }
    // The node hardware a job's plan checks is the cluster's node: its keys are in /cluster/node.
    spec.fabric = collective_fabric_params(config.node);
    origins.record(prefix + "fabric.nics_per_node", "/cluster/node/compute_nics");
    origins.record(prefix + "node", "/cluster/node");
    origins.record(prefix + "node.storage_nics", "/cluster/node/storage_nics");
    origins.record(prefix + "node.compute_nics", "/cluster/node/compute_nics");
    origins.record(prefix + "node.nvme_write_bandwidth_bytes_per_s", "/cluster/node/nvme_write_bandwidth");
    try {
      (void)mw::plan_training_job(spec, config.node, registries.collective_algorithms);
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError(prefix + e.field(), e.detail());
    }
    config.training_jobs.push_back(std::move(spec));
  }
}

}  // namespace dcsim::tools::scenario
