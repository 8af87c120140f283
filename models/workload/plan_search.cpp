#include "models/workload/plan_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/hardware/nvlink_domain.hpp"
#include "models/workload/activation_memory.hpp"
#include "models/workload/layer_pass.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "models/workload/step_plan.hpp"
#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

struct OptimizerChoice {
  int zero_stage;
  bool distributed;
};
struct CommChoice {
  bool sequence_parallel;
  bool overlap;
};

constexpr int kMaxCp = 16;
constexpr int kVirtualStages[] = {1, 2, 3, 4, 5, 6, 8, 10};
constexpr int kMicroBatches[] = {1, 2, 4, 8};
constexpr double kTieTolerance = 1e-9;
// A bound this far above the runner-up's step time cannot tie it: rounding in the two sums.
constexpr double kBoundMargin = 1e-6;
// Optimizer step traffic per parameter of the shard, as training_step.cpp counts it.
constexpr double kAdamStepBytes = 24.0 + 2.0;
constexpr OptimizerChoice kOptimizers[] = {{0, false}, {1, false}, {2, false}, {3, false}, {0, true}};
constexpr CommChoice kComms[] = {{true, false}, {true, true}, {false, false}};

std::vector<int> range_choices(bool pinned, int value, int lo, int hi) {
  if (pinned) return {value};
  std::vector<int> out;
  for (int i = lo; i <= hi; ++i) out.push_back(i);
  return out;
}

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes * 1e-9);
  return buf;
}

// a (enumerated as ia) before b (ib) in the search's order: higher tokens/s, then fewer stages,
// then less memory, then the first enumerated.
bool better(const PlanCandidate& a, int ia, const PlanCandidate& b, int ib) {
  const double ta = a.step.tokens_per_s, tb = b.step.tokens_per_s;
  if (std::abs(ta - tb) > kTieTolerance * std::max(ta, tb)) return ta > tb;
  if (a.job.parallelism.pp != b.job.parallelism.pp) return a.job.parallelism.pp < b.job.parallelism.pp;
  const double ma = a.step.memory.total_bytes(), mb = b.step.memory.total_bytes();
  if (ma != mb) return ma < mb;
  return ia < ib;
}

// A plan that divides, waiting for the memory check and the step model, with a lower bound on its
// step time; 32 bytes, as tens of thousands wait.
struct Pending {
  double bound_s;
  int index;  // in the enumeration order
  std::uint16_t pp, ep;
  std::uint8_t tp, cp, v, micro_batch, zero_stage;
  bool full_recompute, distributed, sequence_parallel, overlap;
  bool after(const Pending& o) const { return std::tie(bound_s, index) > std::tie(o.bound_s, o.index); }
};

class PlanSearch {
 public:
  PlanSearch(const TrainingJobConfig& job, const hardware::NodeSpec& node, const collective::FabricParams& fabric,
             const collective::CollectiveRegistry& collectives, const compute::ComputeModelConfig& compute_config,
             const collective::CollectiveTuning& tuning, const PlanSearchOptions& options)
      : job_(job),
        node_(node),
        fabric_(fabric),
        collectives_(collectives),
        compute_config_(compute_config),
        tuning_(tuning),
        options_(options),
        pins_(options.pins),
        gpus_(job.nodes * node.gpus),
        usable_(node.gpu.hbm_bytes - job.memory_reserve_bytes) {}

  PlanSearchResult run() {
    if (job_.global_batch_sequences <= 0) {
      throw sim::ConfigError("global_batch_sequences",
                             "an automatic plan is chosen at a fixed batch: give global_batch (sequences per step)");
    }
    if (job_.nodes <= 0 || node_.gpus <= 0) throw sim::ConfigError("nodes", "must be a positive integer");
    const ParallelismPlan& p = job_.parallelism;
    const std::vector<int> tps = range_choices(pins_.tp, p.tp, 1, hardware::nvlink_domain(node_));
    std::vector<int> cps;
    for (int cp = 1; cp <= kMaxCp; cp *= 2) cps.push_back(cp);
    if (pins_.cp) cps = {p.cp};
    const std::vector<int> pps = range_choices(pins_.pp, p.pp, 1, job_.model.layers);
    const std::vector<int> vs = pins_.virtual_stages
                                    ? std::vector<int>{p.virtual_stages}
                                    : std::vector<int>(std::begin(kVirtualStages), std::end(kVirtualStages));
    const std::vector<int> mbs = pins_.micro_batch_size
                                     ? std::vector<int>{job_.micro_batch_size}
                                     : std::vector<int>(std::begin(kMicroBatches), std::end(kMicroBatches));
    std::vector<Recompute> recomputes = {Recompute::kSelective, Recompute::kFull};
    if (pins_.recompute) recomputes = {job_.recompute};
    std::vector<OptimizerChoice> optimizers;
    for (const OptimizerChoice o : kOptimizers) {
      if (pins_.zero_stage && o.zero_stage != p.zero_stage) continue;
      if (pins_.distributed_optimizer && o.distributed != p.distributed_optimizer) continue;
      optimizers.push_back(o);
    }
    if (optimizers.empty()) optimizers.push_back({p.zero_stage, p.distributed_optimizer});  // the model says why
    std::vector<CommChoice> comms;
    for (const CommChoice c : kComms) {
      if (pins_.sequence_parallel && c.sequence_parallel != p.sequence_parallel) continue;
      if (pins_.tp_comm_overlap && c.overlap != p.tp_comm_overlap) continue;
      comms.push_back(c);
    }
    if (comms.empty()) comms.push_back({p.sequence_parallel, p.tp_comm_overlap});

    // Expert parallelism (issue 41): the experts' divisors for an MoE model, else the job's.
    std::vector<int> eps = {p.ep};
    if (job_.model.moe.enabled() && !pins_.ep) {
      eps.clear();
      for (int e = 1; e <= job_.model.moe.experts; ++e) {
        if (job_.model.moe.experts % e == 0) eps.push_back(e);
      }
    }
    // Every combination counts as enumerated; with tp 1 the tensor-comm variants are one plan.
    const long long inner = static_cast<long long>(cps.size()) * pps.size() * vs.size() * mbs.size() *
                            recomputes.size() * optimizers.size() * eps.size();
    long long enumerated = 0;
    for (const int tp : tps) enumerated += inner * (tp == 1 ? 1 : static_cast<long long>(comms.size()));
    out_.enumerated = static_cast<int>(enumerated);

    TrainingJobConfig c = job_;
    int index = 0;
    pending_.reserve(1 << 16);
    if (!pins_.dp) c.parallelism.dp = 0;
    for (const int tp : tps) {
      if (prune_ && !tp_divides(tp)) continue;
      c.parallelism.tp = tp;
      for (const int cp : cps) {
        if (prune_ && cp > 1 && job_.model.seq_len % (2 * cp) != 0) continue;
        c.parallelism.cp = cp;
        for (const int pp : pps) {
          if (prune_ && (pp > job_.model.layers || gpus_ % (tp * cp * pp) != 0)) continue;
          const int dp = gpus_ / (tp * cp * pp);
          if (prune_ && pins_.dp && p.dp > 0 && dp != p.dp) continue;
          c.parallelism.pp = pp;
          std::vector<int> layers;
          if (prune_ && !split(c, layers)) continue;
          for (const int ep : eps) {
            if (prune_ && !ep_divides(ep, tp * cp * dp)) continue;
            c.parallelism.ep = ep;
            for (const int b : mbs) {
              if (prune_ && job_.global_batch_sequences % (b * dp) != 0) continue;
              c.micro_batch_size = b;
              const int m = prune_ ? job_.global_batch_sequences / (b * dp) : 0;
              for (const int v : vs) {
                if (prune_ && v > 1 && !interleaves(pp, v, m, layers)) continue;
                c.parallelism.virtual_stages = v;
                for (const Recompute rc : recomputes) {
                  c.recompute = rc;
                  for (const OptimizerChoice o : optimizers) {
                    c.parallelism.zero_stage = o.zero_stage;
                    c.parallelism.distributed_optimizer = o.distributed;
                    for (const CommChoice k : comms) {
                      c.parallelism.sequence_parallel = k.sequence_parallel;
                      c.parallelism.tp_comm_overlap = k.overlap;
                      consider(c, index++, layers, m);
                      if (tp == 1) break;  // sequence parallelism and its overlap need tp > 1
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    evaluate_best_first(c);
    out_.pruned_divisibility = out_.enumerated - out_.pruned_memory - out_.pruned_bound - out_.evaluated;
    if (!found_) throw sim::ConfigError("parallelism", no_plan_message());
    return out_;
  }

 private:
  bool tp_divides(int tp) const {
    const auto& md = job_.model;
    return hardware::group_fits_nvlink_domain(node_, tp) && md.heads % tp == 0 &&
           md.kv_heads % std::min(tp, md.kv_heads) == 0;
  }

  bool ep_divides(int ep, int stage_ranks) const {
    const int domain = node_.nvlink_domain_gpus > 0 ? node_.nvlink_domain_gpus : node_.gpus;
    return stage_ranks % ep == 0 && (ep <= domain || ep % domain == 0);
  }

  // The stage split of c's pipeline (a pinned first/last stage size may not fit this pp).
  static bool split(const TrainingJobConfig& c, std::vector<int>& layers) {
    try {
      layers = stage_layers(c.model, c.parallelism);
      return true;
    } catch (const sim::ConfigError&) {
      return false;
    }
  }

  // validate_interleaving's rules, without its exception.
  static bool interleaves(int pp, int v, int m, const std::vector<int>& layers) {
    if (pp <= 1 || m % pp != 0) return false;
    return std::all_of(layers.begin(), layers.end(), [v](int n) { return n >= v; });
  }

  // Brute force: c goes to the step model now. Pruning: c waits, with a lower bound on its step
  // time, for evaluate_best_first.
  void consider(const TrainingJobConfig& c, int index, const std::vector<int>& layers, int m) {
    if (!prune_) {
      evaluate(c, index);
      return;
    }
    const ParallelismPlan& p = c.parallelism;
    pending_.push_back(
        {step_lower_bound_s(c, layers, m), index, static_cast<std::uint16_t>(p.pp), static_cast<std::uint16_t>(p.ep),
         static_cast<std::uint8_t>(p.tp), static_cast<std::uint8_t>(p.cp), static_cast<std::uint8_t>(p.virtual_stages),
         static_cast<std::uint8_t>(c.micro_batch_size), static_cast<std::uint8_t>(p.zero_stage),
         c.recompute == Recompute::kFull, p.distributed_optimizer, p.sequence_parallel, p.tp_comm_overlap});
  }

  // c's exact memory (every stage, as the step model checks it): does it fit? Also keeps the
  // least any plan needs, for the message when none fits. O(pp).
  bool fits(const TrainingJobConfig& c) {
    StepPlan plan;
    try {
      plan = make_step_plan(c, node_);
    } catch (const sim::ConfigError&) {
      return false;  // counted as not dividing
    }
    double need = 0.0;
    for (int s = 0; s < plan.pp; ++s) {
      need = std::max(need, stage_memory(c, plan.data_shards, plan.m, plan.layers, s).total_bytes());
    }
    if (!least_memory_ || need < least_memory_bytes_) {
      least_memory_ = true;
      least_memory_bytes_ = need;
      least_memory_plan_ = c;
      least_memory_dp_ = plan.dp;
    }
    if (need > usable_) ++out_.pruned_memory;
    return need <= usable_;
  }

  // The step model's compute, bubble and optimizer step without communication, a lower bound on
  // its step time:
  //   step >= m max_s fb_s + (sum_s fb_s - max_s fb_s) / v + Adam over the largest shard
  // with fb_s = forward + backward of stage s (its layers, the LM head on the last): the slot is
  // at least the slowest stage's compute, and the bubble at least the compute the other stages
  // add (training_step.hpp, pipeline_schedule.hpp). The layer and head passes depend on tp, cp,
  // micro-batch, recompute and sequence parallelism only, the stages' parameters on tp and pp:
  // each is computed once per key. O(pp).
  double step_lower_bound_s(const TrainingJobConfig& c, const std::vector<int>& layers, int m) {
    // MoE layers (issue 41) are not the dense pass this bound adds up: no bound, every plan that
    // divides and fits is estimated.
    if (c.model.moe.enabled()) return 0.0;
    const ParallelismPlan& p = c.parallelism;
    const auto key = std::make_tuple(p.tp, p.cp, c.micro_batch_size, c.recompute, p.sequence_parallel);
    auto it = passes_.find(key);
    if (it == passes_.end()) {
      const LayerPass layer = layer_pass(c, cmod_), head = head_pass(c, cmod_);
      it = passes_.emplace(key, std::make_pair(layer.forward_s + layer.backward_s, head.forward_s + head.backward_s))
               .first;
    }
    auto params = trainable_.find({p.tp, p.pp});
    if (params == trainable_.end()) {
      double most = 0.0;
      for (int s = 0; s < p.pp; ++s) most = std::max(most, stage_trainable_parameters(c, layers, s));
      params = trainable_.emplace(std::make_pair(p.tp, p.pp), most).first;
    }
    const auto [per_layer, head] = it->second;
    double sum = 0.0, most = 0.0;
    for (int s = 0; s < p.pp; ++s) {
      const double fb = layers[static_cast<std::size_t>(s)] * per_layer + (s == p.pp - 1 ? head : 0.0);
      sum += fb;
      most = std::max(most, fb);
    }
    const int data_shards = gpus_ / (p.tp * p.pp);  // dp x cp
    const double shard = params->second / (p.shards_optimizer() ? data_shards : 1);
    return m * most + (sum - most) / p.virtual_stages + cmod_.memory_op(kAdamStepBytes * shard).time_s;
  }

  // The plans that divide, in order of their bound, checked for memory and then estimated; once a
  // bound exceeds the runner-up's step time (tokens per step are the global batch's for every
  // plan), no later plan can place.
  void evaluate_best_first(TrainingJobConfig& c) {
    // A heap: only the few plans before the stop leave it (O(n + k log n), not a full sort).
    const auto after = [](const Pending& a, const Pending& b) { return a.after(b); };
    std::make_heap(pending_.begin(), pending_.end(), after);
    while (!pending_.empty()) {
      std::pop_heap(pending_.begin(), pending_.end(), after);
      const Pending q = pending_.back();
      pending_.pop_back();
      if (options_.bound && out_.runner_up && q.bound_s > out_.runner_up->step.step_time_s * (1.0 + kBoundMargin)) {
        out_.pruned_bound += static_cast<int>(pending_.size()) + 1;
        return;
      }
      c.parallelism.tp = q.tp;
      c.parallelism.cp = q.cp;
      c.parallelism.pp = q.pp;
      c.parallelism.ep = q.ep;
      c.parallelism.virtual_stages = q.v;
      c.micro_batch_size = q.micro_batch;
      c.parallelism.zero_stage = q.zero_stage;
      c.recompute = q.full_recompute ? Recompute::kFull : Recompute::kSelective;
      c.parallelism.distributed_optimizer = q.distributed;
      c.parallelism.sequence_parallel = q.sequence_parallel;
      c.parallelism.tp_comm_overlap = q.overlap;
      if (fits(c)) evaluate(c, q.index);
    }
  }

  void evaluate(const TrainingJobConfig& c, int index) {
    ++out_.evaluated;
    PlanCandidate cand{c, {}};
    try {
      cand.step = estimate_training_step(c, node_, fabric_, collectives_, compute_config_, tuning_);
    } catch (const sim::ConfigError&) {
      ++out_.rejected;
      return;
    }
    if (!found_ || better(cand, index, out_.best, best_index_)) {
      if (found_) {
        out_.runner_up = std::move(out_.best);
        runner_up_index_ = best_index_;
      }
      out_.best = std::move(cand);
      best_index_ = index;
      found_ = true;
    } else if (!out_.runner_up || better(cand, index, *out_.runner_up, runner_up_index_)) {
      out_.runner_up = std::move(cand);
      runner_up_index_ = index;
    }
  }

  std::string no_plan_message() const {
    const std::string pinned = pins_.any() ? " with the pinned keys" : "";
    const std::string shape = std::to_string(gpus_) + " GPUs (" + std::to_string(job_.nodes) + " x " +
                              std::to_string(node_.gpus) + "), global_batch " +
                              std::to_string(job_.global_batch_sequences) + ", " + std::to_string(job_.model.layers) +
                              " layers, " + std::to_string(job_.model.heads) + " heads";
    if (!least_memory_) {
      return "no plan divides" + pinned + ": " + shape +
             "; a global batch with more powers of two, or nodes in a power of two, would help";
    }
    TrainingStepResult shown;
    shown.dp = least_memory_dp_;
    return "no plan fits" + pinned + ": " + shape + "; the least memory any plan needs is " + gb(least_memory_bytes_) +
           " per GPU (" + describe_plan(least_memory_plan_, shown) + ") but a " + node_.gpu.model + " has " +
           gb(usable_) +
           " usable; more nodes (more stages and shards to spread the weights and optimizer state over), GPUs "
           "with more memory" +
           (pins_.any() ? ", a shorter sequence or fewer pinned keys" : " or a shorter sequence") + " would help";
  }

  const TrainingJobConfig& job_;
  const hardware::NodeSpec& node_;
  const collective::FabricParams& fabric_;
  const collective::CollectiveRegistry& collectives_;
  const compute::ComputeModelConfig& compute_config_;
  const collective::CollectiveTuning& tuning_;
  const PlanSearchOptions& options_;
  const PlanSearchPins& pins_;
  const bool prune_ = options_.prune;
  const int gpus_;
  const double usable_;

  const compute::ComputeModel cmod_{node_.gpu, compute_config_};

  PlanSearchResult out_;
  std::vector<Pending> pending_;
  std::map<std::tuple<int, int, int, Recompute, bool>, std::pair<double, double>> passes_;
  std::map<std::pair<int, int>, double> trainable_;  // most trainable parameters of a stage, by (tp, pp)
  int best_index_ = 0, runner_up_index_ = 0;
  bool found_ = false;
  bool least_memory_ = false;
  double least_memory_bytes_ = 0.0;
  TrainingJobConfig least_memory_plan_;
  int least_memory_dp_ = 0;
};

}  // namespace

bool PlanSearchPins::any() const {
  return tp || pp || dp || cp || virtual_stages || zero_stage || distributed_optimizer || sequence_parallel ||
         tp_comm_overlap || micro_batch_size || recompute || ep;
}

PlanSearchResult search_training_plan(const TrainingJobConfig& job, const hardware::NodeSpec& node,
                                      const collective::FabricParams& fabric,
                                      const collective::CollectiveRegistry& collectives,
                                      const compute::ComputeModelConfig& compute_config,
                                      const collective::CollectiveTuning& tuning, const PlanSearchOptions& options) {
  return PlanSearch(job, node, fabric, collectives, compute_config, tuning, options).run();
}

PlanSearchOutcome outcome_of(const PlanSearchResult& result) {
  PlanSearchOutcome o;
  o.enumerated = result.enumerated;
  o.pruned = result.pruned_divisibility + result.pruned_memory + result.pruned_bound;
  o.evaluated = result.evaluated;
  o.plan = describe_plan(result.best.job, result.best.step);
  if (result.runner_up) {
    o.runner_up = describe_plan(result.runner_up->job, result.runner_up->step);
    o.runner_up_tokens_per_s = result.runner_up->step.tokens_per_s;
  }
  return o;
}

std::string describe_plan(const TrainingJobConfig& job, const TrainingStepResult& step) {
  const ParallelismPlan& p = job.parallelism;
  std::string s = "tp " + std::to_string(p.tp) + ", cp " + std::to_string(p.cp) + ", pp " + std::to_string(p.pp) +
                  ", dp " + std::to_string(step.dp) + ", virtual_stages " + std::to_string(p.virtual_stages) +
                  ", micro_batch_size " + std::to_string(job.micro_batch_size) + ", " +
                  (job.recompute == Recompute::kFull ? "full" : "selective") + " recompute, " +
                  (p.distributed_optimizer ? "distributed optimizer" : "zero_stage " + std::to_string(p.zero_stage));
  if (p.tp > 1) {
    s += p.sequence_parallel ? ", sequence parallel" : ", no sequence parallel";
    if (p.tp_comm_overlap) s += ", tp_comm_overlap";
  }
  if (job.model.moe.enabled()) s += ", ep " + std::to_string(p.ep);
  return s;
}

}  // namespace dcsim::models::workload
