#pragma once
// Which values a run's summary.json will hold, known before the run, so that `dcsim check` refuses
// a mistyped check path (exit 2, with a guess) instead of running for an hour and reporting it as
// a failed check (exit 3, a "regression").
//
// The models are built as `run` builds them and closed at time zero, which reports every value
// whose key does not depend on what happens (nearly all: the models report zeros rather than
// leave a key out). The few keys a model adds only when something happened (an interruption's
// cause, a cooling shortfall) are declared in planned_summary.cpp as patterns, each next to the
// model code that emits it; a test runs shipped scenarios and checks that every key they report
// is known beforehand.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::check {

class PlannedSummary {
 public:
  // Builds the scenario's models (as `dcsim validate` does) and closes them at time zero.
  // Throws sim::InputError for a config a model rejects, as `run` would.
  PlannedSummary(const scenario::Scenario& scenario, const models::ModelRegistries& registries);
  // From a summary.json as it is before the run (tests).
  explicit PlannedSummary(nlohmann::json summary_at_start);

  // Whether a run may report `path` (summary_path.hpp): one of the values at the start, or a
  // key that appears only when something happened.
  bool may_report(const std::string& path) const;
  // Why a path will not be in the summary, with the nearest known path when one is close:
  // "'network/fct_p99' is not a value this run reports; did you mean 'network/fct_p99_s'? ..."
  std::string why_not(const std::string& path) const;

  const nlohmann::json& at_start() const { return summary_; }

 private:
  nlohmann::json summary_;
  std::vector<std::string> paths_;  // leaf_paths(summary_)
};

// The keys some run reports only when something happened, as patterns: "*" is any one segment.
const std::vector<std::string>& conditional_summary_keys();

}  // namespace dcsim::tools::check
