#include "models/workload/step_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "models/hardware/nvlink_domain.hpp"
#include "models/workload/activation_memory.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes * 1e-9);
  return buf;
}

// Issue 41 item 2: ep splits each MoE layer's experts over ranks of a stage's tp x cp x dp
// (expert_parallel.hpp: Megatron-Core's folding with expert tensor parallelism 1).
void check_expert_parallelism(const TrainingJobConfig& job, const hardware::NodeSpec& node, const StepPlan& plan) {
  const ParallelismPlan& p = job.parallelism;
  const MoeShape& e = job.model.moe;
  const auto fail = [](const char* field, const std::string& why) { throw sim::ConfigError(field, why); };
  if (p.ep < 1) fail("parallelism.ep", "must be a positive integer, got " + std::to_string(p.ep));
  if (!(p.ep_overlap >= 0.0 && p.ep_overlap <= 1.0)) {
    fail("parallelism.ep_overlap", "must be a fraction in [0, 1], got " + std::to_string(p.ep_overlap));
  }
  if (!(job.moe_skew >= 1.0)) fail("moe_skew", "must be at least 1 (the mean), got " + std::to_string(job.moe_skew));
  if (job.moe_max_nodes_per_token < 0) {
    fail("moe_max_nodes_per_token", "must be 0 (any) or positive, got " + std::to_string(job.moe_max_nodes_per_token));
  }
  if (!e.enabled()) {
    if (p.ep > 1) fail("parallelism.ep", job.model.name + " is dense: expert parallelism needs a model with experts");
    return;
  }
  if (job.lora.enabled()) fail("lora.rank", "LoRA on a mixture-of-experts model is not modelled");
  if (e.experts % p.ep != 0) {
    fail("parallelism.ep", "expert parallelism " + std::to_string(p.ep) + " must divide the " +
                               std::to_string(e.experts) + " experts of " + job.model.name);
  }
  const int stage_ranks = plan.tp * plan.cp * plan.dp;
  if (stage_ranks % p.ep != 0) {
    fail("parallelism.ep",
         "expert parallelism " + std::to_string(p.ep) + " must divide tp x cp x dp = " + std::to_string(stage_ranks) +
             " GPUs of a pipeline stage (" + std::to_string(plan.gpus) + " GPUs / pp " + std::to_string(plan.pp) + ")");
  }
  const int domain = hardware::nvlink_domain(node);
  if (p.ep > domain && p.ep % domain != 0) {
    fail("parallelism.ep", "expert parallelism " + std::to_string(p.ep) + " beyond one NVLink domain must be a " +
                               "multiple of its " + std::to_string(domain) + " GPUs");
  }
  if (p.tp > 1 && !p.sequence_parallel) {
    fail("parallelism.sequence_parallel",
         "MoE layers with tp > 1 need sequence parallelism (Megatron-Core requires it with experts)");
  }
}

}  // namespace

StepPlan make_step_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node) {
  if (job.nodes <= 0) throw sim::ConfigError("nodes", "must be a positive integer");
  const ParallelismPlan& p = job.parallelism;
  StepPlan plan{};
  plan.gpus = job.nodes * node.gpus;
  plan.tp = p.tp;
  plan.pp = p.pp;
  plan.cp = p.cp;
  plan.v = p.virtual_stages;
  plan.ep = p.ep;
  if (p.tp <= 0 || p.pp <= 0 || p.dp < 0) {
    throw sim::ConfigError("parallelism", "tp and pp must be positive and dp non-negative");
  }
  if (p.cp <= 0) throw sim::ConfigError("parallelism.cp", "must be a positive integer, got " + std::to_string(p.cp));
  if (p.zero_stage < 0 || p.zero_stage > 3) {
    throw sim::ConfigError("parallelism.zero_stage", "must be 0, 1, 2 or 3");
  }
  if (p.distributed_optimizer && p.zero_stage != 0) {
    throw sim::ConfigError("parallelism.distributed_optimizer",
                           "is Megatron-LM's own optimizer sharding and does not combine with zero_stage " +
                               std::to_string(p.zero_stage) + "; use zero_stage 0 with it");
  }
  if (p.tp_comm_overlap && p.tp > 1 && !p.sequence_parallel) {
    throw sim::ConfigError("parallelism.tp_comm_overlap",
                           "overlaps sequence parallelism's all-gathers and reduce-scatters; turn "
                           "sequence_parallel on or tp_comm_overlap off");
  }
  if (job.lora.rank < 0) {
    throw sim::ConfigError("lora.rank",
                           "must be a positive integer (0: no adapters), got " + std::to_string(job.lora.rank));
  }
  if (job.lora.enabled() && job.lora.targets.empty()) {
    throw sim::ConfigError("lora.targets", "needs at least one of qkv, attention_out, mlp_up, mlp_down on");
  }
  const int model_ranks = p.tp * p.cp * p.pp;
  if (plan.gpus % model_ranks != 0) {
    throw sim::ConfigError("parallelism", "tp x cp x pp = " + std::to_string(model_ranks) + " does not divide " +
                                              std::to_string(plan.gpus) + " GPUs");
  }
  plan.dp = p.dp > 0 ? p.dp : plan.gpus / model_ranks;
  if (model_ranks * plan.dp != plan.gpus) {
    throw sim::ConfigError("parallelism", "tp x cp x pp x dp = " + std::to_string(p.tp) + " x " + std::to_string(p.cp) +
                                              " x " + std::to_string(p.pp) + " x " + std::to_string(plan.dp) +
                                              " must equal the " + std::to_string(plan.gpus) + " GPUs of " +
                                              std::to_string(job.nodes) + " nodes");
  }
  plan.data_shards = plan.dp * plan.cp;
  // TP stays inside one NVLink domain: it divides a node, or (a domain of several nodes, NVL72)
  // it is whole nodes within the domain (models/hardware/nvlink_domain.hpp).
  const int domain = hardware::nvlink_domain(node);
  if (!hardware::group_fits_nvlink_domain(node, p.tp)) {
    throw sim::ConfigError("parallelism.tp", "tensor parallelism " + std::to_string(p.tp) + " must divide the " +
                                                 std::to_string(node.gpus) + " GPUs of a node " +
                                                 (domain > node.gpus ? "or be whole nodes within the " +
                                                                           std::to_string(domain) + "-GPU NVLink domain"
                                                                     : "(one NVLink domain)"));
  }
  if (job.model.heads % p.tp != 0 || job.model.kv_heads % std::min(p.tp, job.model.kv_heads) != 0) {
    throw sim::ConfigError("parallelism.tp", "tensor parallelism " + std::to_string(p.tp) + " must divide the " +
                                                 std::to_string(job.model.heads) + " heads");
  }
  // Megatron splits each sequence into 2 cp chunks (load-balanced causal attention).
  if (job.model.seq_len % (2 * p.cp) != 0 && p.cp > 1) {
    throw sim::ConfigError("parallelism.cp", "context parallelism " + std::to_string(p.cp) +
                                                 " needs the sequence length (" + std::to_string(job.model.seq_len) +
                                                 ") to be a multiple of 2 x cp");
  }
  if (p.pp > job.model.layers) {
    throw sim::ConfigError("parallelism.pp", "more pipeline stages than layers");
  }
  if (job.micro_batch_size <= 0) {
    throw sim::ConfigError("micro_batch_size", "must be a positive integer");
  }
  if (job.global_batch_sequences < 0) {
    throw sim::ConfigError("global_batch_sequences", "must not be negative");
  }
  if (job.global_batch_sequences == 0) {
    plan.m = p.pp == 1 ? 1 : 4 * p.pp;
  } else {
    const int per_step = job.micro_batch_size * plan.dp;
    if (job.global_batch_sequences % per_step != 0) {
      throw sim::ConfigError("global_batch_sequences",
                             std::to_string(job.global_batch_sequences) +
                                 " is not a multiple of micro_batch_size x dp = " + std::to_string(per_step));
    }
    plan.m = job.global_batch_sequences / per_step;
  }
  plan.layers = stage_layers(job.model, p);
  validate_interleaving(plan.pp, plan.v, plan.m, plan.layers);
  plan.moe_layers = stage_moe_layers(job.model, plan.layers, plan.v);
  check_expert_parallelism(job, node, plan);
  return plan;
}

std::string memory_error(const TrainingJobConfig& job, const StepPlan& plan, const hardware::NodeSpec& node,
                         const MemoryBreakdown& m, int stage, double usable) {
  const ParallelismPlan& p = job.parallelism;
  // Only what the job does not already use (issue 15 item 7).
  std::vector<std::string> ideas;
  if (p.tp < hardware::nvlink_domain(node)) ideas.push_back("raise tp");
  if (p.pp < job.model.layers) ideas.push_back("raise pp");
  if (m.activations_bytes > 0.0) ideas.push_back("raise cp");
  if (p.zero_stage < 3 && plan.data_shards > 1) ideas.push_back("raise zero_stage");
  if (job.recompute != Recompute::kFull) ideas.push_back("use full recomputation");
  if (!p.sequence_parallel && p.tp > 1) ideas.push_back("turn sequence_parallel on");
  if (p.virtual_stages > 1) ideas.push_back("use fewer virtual_stages");
  if (job.micro_batch_size > 1) ideas.push_back("use a smaller micro_batch_size");
  const MoeShape& e = job.model.moe;
  std::string experts;
  if (e.enabled()) {
    // Issue 41 item 3: name the experts, the usual reason an MoE plan does not fit.
    if (p.ep < e.experts) ideas.insert(ideas.begin(), "raise ep");
    experts = " (" + std::to_string(e.experts / p.ep) + " of the " + std::to_string(e.experts) +
              " routed experts of every MoE layer per GPU with ep " + std::to_string(p.ep) + ": " +
              gb(2.0 * stage_expert_parameters(job, plan.layers, stage)) + " of the weights)";
  }
  std::string hint;
  for (std::size_t i = 0; i < ideas.size(); ++i) {
    hint += (i == 0 ? "" : i + 1 == ideas.size() ? " or " : ", ") + ideas[i];
  }
  return job.model.name + " with tp " + std::to_string(plan.tp) + ", cp " + std::to_string(plan.cp) + ", pp " +
         std::to_string(plan.pp) + ", dp " + std::to_string(plan.dp) + ", zero_stage " + std::to_string(p.zero_stage) +
         " needs " + gb(m.total_bytes()) + " per GPU on pipeline stage " + std::to_string(stage) + " (weights " +
         gb(m.weights_bytes) + experts + ", gradients " + gb(m.gradients_bytes) + ", optimizer " +
         gb(m.optimizer_bytes) + ", activations " + gb(m.activations_bytes) + ") but a " + node.gpu.model + " has " +
         gb(usable) + " usable" + (hint.empty() ? "" : "; " + hint);
}

}  // namespace dcsim::models::workload
