#pragma once
// `dcsim check`'s expectations file: which scenarios to run and what their summaries must show.
// A CI job gates a design on it (docs/cli.md, "CI gates"). The file:
//   { "name": "...",
//     "runs": [ { "name": "fat-tree", "scenario": "../fat-tree-vs-mesh.json", "set": ["fabric.k=4"],
//                 "checks": [ { "path": "network/fct_p99_s", "max": 0.03 },
//                             { "path": "network/link_utilisation_mean", "min": 0.6 },
//                             { "path": "network/makespan_s", "baseline": "baseline.json", "rel_tol": 0.05 },
//                             { "path": "jobs/llama/step_time_s", "baseline": "baseline.json",
//                               "max_increase": "2%" },
//                             { "path": "network/switches", "equals": 20 },
//                             { "fingerprint": "a0ed4e9d378e35b1" },
//                             { "no_failed_flows": true }, { "no_unfinished_jobs": true } ] } ] }
// Its keys and the forms of a check are declared in expectations_format.hpp (the schema and the
// key table in docs/cli.md come from there). Paths to scenarios and baselines are relative to the
// expectations file; a value's `path` is its summary key (summary_path.hpp). Every problem is a
// sim::InputError naming the file and JSON pointer, all reported together.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::check {

struct Check {
  enum class Kind { kBounds, kEquals, kBaseline, kFingerprint, kNoFailedFlows, kNoUnfinishedJobs };
  Kind kind = Kind::kBounds;
  std::string path;                 // summary key (bounds, equals, baseline)
  std::optional<double> min, max;   // bounds: at least one
  nlohmann::json equals;            // equals: a number or a string
  double baseline_value = 0.0;      // baseline: the value at `path` in the baseline summary
  std::string baseline_file;
  // Baseline: why the baseline summary has no number at `path` (empty when it has one). Reported
  // by `dcsim check` only once `path` is known to be one the run reports: a mistyped path gets
  // the run's did-you-mean, not "the baseline has no number there".
  std::string baseline_problem;
  std::optional<double> rel_tol, abs_tol;  // baseline, two-sided: the larger allowance holds
  // Baseline, one-sided: how far the value may rise above or fall below the baseline's.
  struct Allowance {
    double amount = 0.0;
    bool percent = false;  // amount in percent of |baseline|, else in the value's unit
    double of(double baseline) const;  // the allowance for this baseline, in the value's unit
  };
  std::optional<Allowance> max_increase, max_decrease;
  std::string fingerprint;
  std::string pointer;              // where the check is in the expectations file
};

struct RunExpectation {
  std::string name;
  std::string scenario;             // resolved against the expectations file's folder
  std::vector<std::string> sets;    // --set overrides
  std::vector<Check> checks;
};

struct Expectations {
  std::string name;
  std::vector<RunExpectation> runs;
};

Expectations load_expectations(const std::string& path);
// `source` names the document in messages; relative paths resolve against `base_dir`.
Expectations parse_expectations(const nlohmann::json& doc, const std::string& source, const std::string& base_dir);

}  // namespace dcsim::tools::check
