#pragma once
// The best parallel plan of a training job (issue 37, item 2): an exhaustive search over the
// plans the step model (training_step.hpp) can run, pruned by divisibility and by memory before
// the step model is called, as Calculon (Isaev et al. 2023) and Megatron's planners do.
//
// Search space (each dimension only where the job does not pin it, PlanSearchPins):
//   tp               divisors of the node's GPUs within its NVLink domain that divide the heads
//                    (and the KV heads, or that the KV heads divide)
//   cp               1, 2, 4, ... 16 with the sequence a multiple of 2 cp
//   pp               1 .. layers with tp x cp x pp dividing the GPUs (the default stage split:
//                    a remainder goes to the middle stages, pipeline_schedule.hpp); dp follows
//   virtual_stages   1 and, with pp > 1, each divisor of the largest stage's layers that every
//                    stage holds (Megatron's interleaved schedule), with micro-batches a multiple
//                    of pp
//   micro_batch_size 1, 2, 4, 8 dividing global_batch / dp
//   recompute        selective, full
//   optimizer        ZeRO 0..3, or the distributed optimizer (with ZeRO 0)
//   tensor comm      with tp > 1: sequence parallelism off; on; on with tp_comm_overlap
//   ep               MoE models (issue 41): the divisors of the experts that divide tp x cp x dp
//                    (and, beyond one NVLink domain, are a multiple of it); dense models: 1
// dp, first/last_stage_layers and account_for_* are the job's own; dp, when given, fixes
// tp x cp x pp. The global batch must be given (a plan is compared at a fixed batch).
//
// Pruning, before the step model:
//   divisibility  a plan that fails a rule above is dropped without any estimate (whole prefixes:
//                 a tp, cp or pp that does not divide skips everything under it);
//   bound         (dense models only: an MoE layer is not the dense pass it adds up)
//                 each plan that divides gets a lower bound on its step time from its compute
//                 alone (the layer and LM-head passes, the stages' bubble, the Adam step: no
//                 communication), and the plans are taken in order of it; once a bound exceeds
//                 the runner-up's step time no later plan can place (the batch, hence the tokens
//                 per step, is the same for all);
//   memory        a plan taken gets its exact memory (activation_memory.hpp, every stage) and is
//                 dropped when it does not fit hbm_bytes - memory_reserve_bytes, as
//                 estimate_training_step would refuse it.
// None drops a plan that could place first or second (tests/models/workload/plan_search_test.cpp
// checks against the brute force with pruning off, and with the bound off).
//
// Choice: the highest tokens/s; equal within 1e-9 relative: fewer pipeline stages, then less
// memory per GPU, then the first in the enumeration order (tp, cp, pp, micro-batch, v, recompute,
// optimizer, tensor comm, each ascending as listed): deterministic.
//
// Cost: enumerated x O(1) for the divisibility rules, divisible x O(pp) for the bounds (the passes
// cached per (tp, cp, micro-batch, recompute, sp)) and a heap, then evaluated x (one memory check,
// O(pp), and one estimate: O(pp + DP buckets) collective estimates, about 5 us). Llama 3 70B on
// 1,024 H100s with a 1,024-sequence batch: 2.8M plans enumerated, 59,000 divide, 4,300 evaluated,
// 25-45 ms on this machine's cores.

#include <optional>
#include <string>

#include "models/workload/training_step.hpp"

namespace dcsim::models::workload {

// Fields the search keeps as the job has them (a scenario pins the keys it gives).
struct PlanSearchPins {
  bool tp = false;
  bool pp = false;
  bool dp = false;
  bool cp = false;
  bool virtual_stages = false;
  bool zero_stage = false;
  bool distributed_optimizer = false;
  bool sequence_parallel = false;
  bool tp_comm_overlap = false;
  bool micro_batch_size = false;
  bool recompute = false;
  bool ep = false;
  bool any() const;
};

struct PlanSearchOptions {
  PlanSearchPins pins;
  bool prune = true;  // off: every enumerated plan goes to the step model (tests)
  bool bound = true;  // off: every plan that divides and fits goes to the step model (tests)
};

struct PlanCandidate {
  TrainingJobConfig job;  // the input job with this plan
  TrainingStepResult step;
};

struct PlanSearchResult {
  PlanCandidate best;
  std::optional<PlanCandidate> runner_up;
  int enumerated = 0;           // plans formed from the dimensions' choices
  int pruned_divisibility = 0;  // dropped before any estimate: they do not divide
  int pruned_memory = 0;        // dropped before the step model: they do not fit
  int pruned_bound = 0;         // fit, but their compute alone is slower than the runner-up
  int evaluated = 0;            // given to estimate_training_step
  int rejected = 0;             // of those, the step model refused (ConfigError)
};

// What a scenario keeps of a search for the run's summary and `dcsim validate`.
struct PlanSearchOutcome {
  int enumerated = 0;
  int pruned = 0;  // by divisibility, memory and the bound
  int evaluated = 0;
  std::string plan;       // describe_plan of the best
  std::string runner_up;  // empty: none
  double runner_up_tokens_per_s = 0.0;
};
PlanSearchOutcome outcome_of(const PlanSearchResult& result);

// The plan with the highest tokens/s (see the header comment). Throws sim::ConfigError:
// ("global_batch_sequences", ...) without a global batch; ("parallelism", ...) when no plan
// divides, or none fits, with the least memory any dividing plan needs, what is usable and what
// would help.
PlanSearchResult search_training_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node,
                                      const collective::FabricParams& fabric,
                                      const collective::CollectiveRegistry& collectives,
                                      const compute::ComputeModelConfig& compute_config = {},
                                      const collective::CollectiveTuning& tuning = {},
                                      const PlanSearchOptions& options = {});

// "tp 8, cp 1, pp 4, dp 32, v 5, micro_batch 1, selective recompute, zero_stage 1, sequence
// parallel, tp_comm_overlap": the plan as one line (logs, validate, errors).
std::string describe_plan(const TrainingJobConfig& job, const TrainingStepResult& step);

}  // namespace dcsim::models::workload
