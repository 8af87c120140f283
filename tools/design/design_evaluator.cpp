#include "tools/design/design_evaluator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/check/planned_summary.hpp"
#include "tools/output/summary_sink.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/did_you_mean.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/spec_path.hpp"
#include "tools/sweep/sweep_results.hpp"
#include "tools/sweep/sweep_validation.hpp"
#include "tools/version.hpp"

namespace dcsim::tools::design {

namespace {

using nlohmann::json;

// How a summary key may be decided before a run (see the header).
enum class Bound { kNone, kExact, kLowerBound };

Bound bound_of(const std::string& key) {
  if (key == "cost/capex_usd" || key.rfind("cost/capex/", 0) == 0) return Bound::kExact;
  static const char* const kRunningMaxima[] = {"power/peak_w", "power/peak_rack_w", "power/peak_node_w",
                                               "facility/peak_rack_w", "thermal/max_gpu_c"};
  for (const char* k : kRunningMaxima) {
    if (key == k) return Bound::kLowerBound;
  }
  if (key.rfind("thermal/zone/", 0) == 0 && key.size() > 10 && key.compare(key.size() - 10, 10, "/max_gpu_c") == 0) {
    return Bound::kLowerBound;
  }
  return Bound::kNone;
}

// Whether `value` under constraint `c` can be decided with a bound of kind `bound`.
bool decidable(const Constraint& c, Bound bound) {
  return bound == Bound::kExact || (bound == Bound::kLowerBound && c.max && !c.min);
}

const json* find_value(const std::vector<std::pair<std::string, json>>& scalars, const std::string& key) {
  for (const auto& [path, value] : scalars) {
    if (path == key) return &value;
  }
  return nullptr;
}

// The constraints `scalars` misses: the messages, and the summed relative violation.
std::pair<std::vector<std::string>, double> violations(const std::vector<const Constraint*>& constraints,
                                                       const std::vector<std::pair<std::string, json>>& scalars,
                                                       const char* how) {
  std::vector<std::string> missed;
  double violation = 0.0;
  for (const Constraint* c : constraints) {
    const json* v = find_value(scalars, c->key);
    if (v == nullptr || !v->is_number()) {
      missed.push_back(fmt::format("{} is not a number in this run ({})", c->key, v == nullptr ? "absent" : v->dump()));
      violation += 1.0;
      continue;
    }
    const double x = v->get<double>();
    const auto relative = [](double over, double limit) { return over / std::max(std::abs(limit), 1e-12); };
    if (c->max && x > *c->max) {
      missed.push_back(fmt::format("{} {:.6g} > max {:.6g} (by {:.3g}%){}", c->key, x, *c->max,
                                   100.0 * relative(x - *c->max, *c->max), how));
      violation += relative(x - *c->max, *c->max);
    }
    if (c->min && x < *c->min) {
      missed.push_back(fmt::format("{} {:.6g} < min {:.6g} (by {:.3g}%){}", c->key, x, *c->min,
                                   100.0 * relative(*c->min - x, *c->min), how));
      violation += relative(*c->min - x, *c->min);
    }
  }
  return {missed, violation};
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

json record_of(const Evaluation& e) {
  json values = json::object(), summary = json::object();
  for (const auto& [k, v] : e.values) values[k] = v;
  for (const auto& [k, v] : e.summary) summary[k] = v;
  return {{"id", e.id},
          {"fidelity", e.candidate.fidelity},
          {"point", e.candidate.point},
          {"overrides", e.overrides},
          {"values", values},
          {"status", status_name(e.status)},
          {"reason", e.reason},
          {"violation", e.violation},
          {"objectives", e.objectives},
          {"summary", summary},
          {"wall_s", e.wall_s},
          {"dcsim_version", std::string(version())},
          {"dcsim_build", std::string(build_id())}};
}

// A cached evaluation of the same candidate by this build, or none.
std::optional<Evaluation> read_cached(const std::filesystem::path& file, const Evaluation& fresh) {
  const json r = sweep::read_json_or_null(file);
  if (!r.is_object() || r.value("dcsim_build", "") != build_id() || r.value("dcsim_version", "") != version() ||
      r.value("overrides", json()) != json(fresh.overrides) || r.value("id", "") != fresh.id) {
    return std::nullopt;
  }
  Evaluation e = fresh;
  const std::string status = r.value("status", "");
  static const EvaluationStatus kAll[] = {EvaluationStatus::kFeasible, EvaluationStatus::kInfeasible,
                                          EvaluationStatus::kPruned, EvaluationStatus::kFailed};
  bool known = false;
  for (const auto s : kAll) {
    if (status == status_name(s)) e.status = s, known = true;
  }
  if (!known) return std::nullopt;
  e.reason = r.value("reason", "");
  e.violation = r.value("violation", 0.0);
  e.objectives = r.value("objectives", std::vector<double>());
  e.wall_s = r.value("wall_s", 0.0);
  const json summary = r.value("summary", json::object());
  for (const auto& [k, v] : summary.items()) e.summary.emplace_back(k, v);
  e.reused = true;
  return e;
}

std::vector<std::pair<std::string, json>> simulated_summary(const scenario::Scenario& scenario,
                                                            const models::ModelRegistries& registries) {
  output::SummarySink sink;
  run::simulate(scenario, registries, sink);
  output::RunMeta meta;
  meta.scenario_name = scenario.name;
  meta.seed = scenario.seed;
  return sweep::summary_scalars(output::summary_json(sink.summary(), meta));
}

// The summary of the run's first microsecond: the same events as the run's start (a prefix of a
// deterministic run), so its running maxima are lower bounds of the run's, and the capital cost,
// which no event changes, is the run's. Its cost: building the models and the events at t = 0.
std::vector<std::pair<std::string, json>> prefix_summary(const scenario::Scenario& given,
                                                         const models::ModelRegistries& registries) {
  scenario::Scenario prefix = given;
  prefix.duration = std::min(prefix.duration, sim::Time::from_us(1));
  // The economics refuse to price an empty span unless a horizon is asked for (as planned_summary).
  if (prefix.economics && prefix.economics->horizon.is_max()) prefix.economics->horizon = sim::Time::from_s(1);
  return simulated_summary(prefix, registries);
}

}  // namespace

const char* status_name(EvaluationStatus status) {
  switch (status) {
    case EvaluationStatus::kFeasible: return "feasible";
    case EvaluationStatus::kInfeasible: return "infeasible";
    case EvaluationStatus::kPruned: return "pruned";
    case EvaluationStatus::kFailed: return "failed";
  }
  return "?";
}

Outcome Evaluation::outcome(const Design& design) const {
  Outcome o;
  o.feasible = feasible();
  o.pruned = status == EvaluationStatus::kPruned;
  // A failed candidate (a plan that does not fit) is as far outside as one that misses by 100%.
  o.violation = status == EvaluationStatus::kFailed ? std::max(1.0, violation) : violation;
  if (o.feasible) {
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      o.objectives.push_back(design.objectives[i].maximize ? -objectives[i] : objectives[i]);
    }
  }
  return o;
}

std::uint64_t design_seed(const Design& design, const models::ModelRegistries& registries) {
  if (design.seed) return *design.seed;
  const auto seed = sweep::document_seed(design.scenario, design.sets, scenario::scenario_spec(registries));
  if (!seed) throw sim::InputError(design.source + ":/scenario: cannot read the seed of '" + design.scenario + "'");
  return *seed;
}

DesignEvaluator::DesignEvaluator(const Design& design, const models::ModelRegistries& registries,
                                 const scenario::ResourceLimits& limits, std::uint64_t seed,
                                 std::filesystem::path cache_dir)
    : design_(design), registries_(registries), limits_(limits), seed_(seed), cache_dir_(std::move(cache_dir)) {}

Evaluation DesignEvaluator::evaluate(const Candidate& candidate) const {
  const auto start = std::chrono::steady_clock::now();
  Evaluation e;
  e.candidate = candidate;
  try {
    e.values = design_values(design_, candidate.point);
    e.overrides = candidate_overrides(design_, candidate.point, candidate.fidelity, seed_);
  } catch (const sim::InputError& err) {
    e.reason = err.what();
    return e;
  }
  std::optional<scenario::Scenario> loaded;
  static sweep::FileHashCache file_hashes;
  try {
    const scenario::DataFileLog data_files;
    loaded.emplace(scenario::load_scenario_file(design_.scenario, e.overrides, std::nullopt, registries_, limits_));
    std::string inputs = loaded->given.dump();
    for (const auto& path : data_files.paths()) inputs += "\n" + path + "=" + file_hashes.of(path);
    e.id = sweep::text_hash(inputs + "\nfidelity=" + std::to_string(candidate.fidelity));
  } catch (const sim::InputError& err) {
    e.id = sweep::text_hash(join(e.overrides));
    e.reason = err.what();
    return e;
  }
  const auto cache_file = cache_dir_.empty() ? std::filesystem::path() : cache_dir_ / (e.id + ".json");
  if (!cache_file.empty()) {
    if (auto cached = read_cached(cache_file, e)) return *cached;
  }
  try {
    // Constraints a bound decides: from the models built and closed at time zero.
    std::vector<const Constraint*> early, late;
    for (const auto& c : design_.constraints) (decidable(c, bound_of(c.key)) ? early : late).push_back(&c);
    bool pruned = false;
    if (!early.empty()) {
      const auto [missed, violation] = violations(early, prefix_summary(*loaded, registries_), " before running");
      if (!missed.empty()) {
        e.status = EvaluationStatus::kPruned;
        e.reason = join(missed);
        e.violation = violation;
        pruned = true;
      }
    }
    if (!pruned) {
      e.summary = simulated_summary(*loaded, registries_);
      std::vector<const Constraint*> all;
      for (const auto& c : design_.constraints) all.push_back(&c);
      const auto [missed, violation] = violations(all, e.summary, "");
      std::vector<std::string> missing_objectives;
      for (const auto& o : design_.objectives) {
        const json* v = find_value(e.summary, o.key);
        if (v != nullptr && v->is_number() && std::isfinite(v->get<double>())) {
          e.objectives.push_back(v->get<double>());
        } else {
          missing_objectives.push_back(
              fmt::format("objective {} is not a number in this run ({})", o.key, v == nullptr ? "absent" : v->dump()));
        }
      }
      if (!missing_objectives.empty()) {
        e.status = EvaluationStatus::kFailed;
        e.reason = join(missing_objectives);
        e.objectives.clear();
      } else if (!missed.empty()) {
        e.status = EvaluationStatus::kInfeasible;
        e.reason = join(missed);
        e.violation = violation;
      } else {
        e.status = EvaluationStatus::kFeasible;
      }
    }
  } catch (const run::Interrupted&) {
    throw;
  } catch (const sim::InputError& err) {
    e.status = EvaluationStatus::kFailed;
    e.reason = err.what();
  }
  e.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!cache_file.empty()) sweep::write_json_atomically(cache_file, record_of(e));
  return e;
}

void DesignEvaluator::check(const std::vector<SearchPoint>& probe) const {
  std::vector<std::string> errors;
  const scenario::FieldSpec spec = scenario::scenario_spec(registries_);
  for (const auto& v : design_.variables) {
    const std::string why = scenario::path_problem(spec, v.path);
    if (!why.empty())
      errors.push_back(design_.source + ":" + v.pointer + "/path: '" + v.path + "' is not in the scenario: " + why);
  }
  for (const auto& c : design_.couplings) {
    const std::string why = scenario::path_problem(spec, c.path);
    if (!why.empty())
      errors.push_back(design_.source + ":" + c.pointer + "/path: '" + c.path + "' is not in the scenario: " + why);
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));

  // Every fidelity must load for some candidate, and report every key the design reads.
  for (std::size_t level = 0; level < design_.fidelities.size(); ++level) {
    std::optional<scenario::Scenario> loaded;
    std::string first_error;
    for (const auto& point : probe) {
      try {
        loaded.emplace(scenario::load_scenario_file(design_.scenario,
                                                    candidate_overrides(design_, point, static_cast<int>(level), seed_),
                                                    std::nullopt, registries_, limits_));
        break;
      } catch (const sim::InputError& err) {
        if (first_error.empty()) first_error = err.what();
      }
    }
    const std::string where = design_.fidelities.size() > 1 ? fmt::format("/fidelities/{}", level)
                                                            : std::string(design_.sets.empty() ? "/scenario" : "/set");
    if (!loaded) {
      throw sim::InputError(fmt::format("{}:{}: no candidate of {} tried loads at fidelity '{}'; the first said: {}",
                                        design_.source, where, probe.size(), design_.fidelities[level].name,
                                        first_error));
    }
    const check::PlannedSummary planned(*loaded, registries_);
    for (const auto& c : design_.constraints) {
      if (!planned.may_report(c.key))
        errors.push_back(design_.source + ":" + c.pointer + "/key: " + planned.why_not(c.key));
    }
    const auto at_start = sweep::summary_scalars(planned.at_start());
    const auto not_a_number = [&](const std::string& key, const std::string& pointer) {
      const json* v = find_value(at_start, key);
      // "none" and "never" stand for a number the run has not defined yet (cost per token before
      // any token; a break-even month not reached): such a key is a number when the run has one.
      const bool placeholder = v != nullptr && (*v == "none" || *v == "never");
      if (v != nullptr && !placeholder && (v->is_string() || v->is_boolean())) {
        errors.push_back(fmt::format("{}:{}/key: '{}' is {} ({}), not a number", design_.source, pointer, key,
                                     v->is_string() ? "text" : "a boolean", v->dump()));
      }
    };
    for (const auto& o : design_.objectives) {
      if (!planned.may_report(o.key))
        errors.push_back(design_.source + ":" + o.pointer + "/key: " + planned.why_not(o.key));
      not_a_number(o.key, o.pointer);
    }
    for (const auto& c : design_.constraints) not_a_number(c.key, c.pointer);
    if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  }
}

}  // namespace dcsim::tools::design
