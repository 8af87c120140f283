#pragma once
// Evaluates one candidate of a design: its scenario (the base with the candidate's overrides at
// its fidelity) is loaded and checked against the constraints a cheap bound decides before any
// simulation, then simulated in memory (no trace.h5: only the summary is kept), and its summary
// is checked against every constraint and gives the objectives.
//
// Decided before running (`pruned`), from the models built and closed at time zero (as `dcsim
// check` plans a summary, tools/check/planned_summary.hpp):
//   - keys that no run changes: the capital cost (cost/capex_usd, cost/capex/*), exact;
//   - running maxima (power/peak_*, facility/peak_rack_w, thermal/max_gpu_c and per zone) under a
//     `max`: their value at the start is a lower bound of the run's, so one already above the
//     limit can only end above it.
// A candidate whose scenario a model refuses (a plan that does not fit, a fabric too small for
// its nodes) is `failed`, with the reason: the search goes on, as a sweep's does.
//
// Each evaluation is kept as <cache>/<id>.json (id: a hash of the candidate's scenario after its
// overrides and of the data files it reads, and its fidelity), written atomically after the run:
// a search run again into the same folder reuses it, as a resumed sweep reuses its variants.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "tools/design/design_spec.hpp"
#include "tools/scenario/resource_guard.hpp"

namespace dcsim::tools::design {

enum class EvaluationStatus { kFeasible, kInfeasible, kPruned, kFailed };
const char* status_name(EvaluationStatus status);

struct Evaluation {
  Candidate candidate;
  std::string id;
  std::vector<std::string> overrides;
  std::vector<std::pair<std::string, nlohmann::json>> values;  // variables, then couplings
  EvaluationStatus status = EvaluationStatus::kFailed;
  std::string reason;  // the constraints missed and by how much, or the error
  double violation = 0.0;
  std::vector<double> objectives;  // as reported (a maximised one is not negated)
  // The run's scalar summary values by path (sweep_results.hpp's summary_scalars).
  std::vector<std::pair<std::string, nlohmann::json>> summary;
  bool reused = false;  // read back from the cache, not run now
  double wall_s = 0.0;

  bool feasible() const { return status == EvaluationStatus::kFeasible; }
  // What a strategy sees: every objective minimised.
  Outcome outcome(const Design& design) const;
};

class DesignEvaluator {
 public:
  // `cache_dir` empty: nothing is kept (tests, benchmarks).
  DesignEvaluator(const Design& design, const models::ModelRegistries& registries,
                  const scenario::ResourceLimits& limits, std::uint64_t seed, std::filesystem::path cache_dir);

  // Thread-safe; throws only for an interruption or an internal error.
  Evaluation evaluate(const Candidate& candidate) const;

  // Checks, before anything runs, that the design's paths are scenario keys and its summary keys
  // are values a run reports: the candidates of `probe` (grid points spread over the space) are
  // loaded at every fidelity until one loads, and its planned summary must hold every constraint
  // and objective key. InputErrors at the design file's pointers, with a guess for a mistyped key.
  void check(const std::vector<SearchPoint>& probe) const;

  std::uint64_t seed() const { return seed_; }

 private:
  const Design& design_;
  const models::ModelRegistries& registries_;
  scenario::ResourceLimits limits_;
  std::uint64_t seed_;
  std::filesystem::path cache_dir_;
};

// The base seed of a design: its "seed", or the base scenario's /seed after the design's `set`.
std::uint64_t design_seed(const Design& design, const models::ModelRegistries& registries);

}  // namespace dcsim::tools::design
