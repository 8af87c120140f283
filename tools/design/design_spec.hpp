#pragma once
// `dcsim design`'s design file: a base scenario, the variables to search, the couplings that keep
// every candidate a consistent scenario, the constraints and objectives on its summary, the
// fidelity ladder and the search strategy (docs/design-search.md):
//   { "name": "power-cap-at-fixed-site", "description": "...",
//     "scenario": "../llama3-70b-256-gpus.json",   // relative to the design file
//     "set": ["duration=1 d"],                      // fixed overrides, optional
//     "seed": 42,                                   // optional: the scenario's /seed
//     "variables": [
//       { "path": "fabric.topology", "values": ["fat_tree", "leaf_spine"] },           // choice
//       { "path": "cluster.nodes", "range": { "low": 16, "high": 128, "step": 16 } },  // integer
//       { "path": "cluster.node.gpu_power_limit",                                     // continuous
//         "range": { "low": 400, "high": 700, "unit": "W", "grid_points": 7 } } ],
//     "couplings": [
//       { "path": "workload.training.0.nodes", "from": "cluster.nodes" },
//       { "path": "cluster.nodes_per_rack", "from": "cluster.node.gpu_power_limit",
//         "scale": -0.01, "offset": 12, "round": "down", "min": 1 },
//       { "path": "fabric.k", "from": "fabric.topology", "map": { "fat_tree": 64, "leaf_spine": 32 } } ],
//     "constraints": [ { "key": "power/peak_w", "max": 4e6 } ],
//     "objectives": [ { "key": "cost/owned/usd_per_million_tokens", "goal": "minimize" } ],
//     "fidelities": [ { "name": "analytic", "set": ["reliability.faults=none"] }, { "name": "full" } ],
//     "strategy": { "name": "grid", "params": { "batch": 64 } } }
// A coupling is `path = round(scale x from + offset)` clamped to [min, max] (a number), or a
// choice's value looked up in `map`; `from` names a variable or an earlier coupling. Every
// problem is a sim::InputError naming the design file and the JSON pointer, all together.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/params.hpp"
#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::design {

struct DesignVariable {
  std::string path;     // a --set path
  std::string pointer;  // "/variables/0"
  SearchVariable::Kind kind = SearchVariable::Kind::kChoice;
  std::vector<nlohmann::json> choices;  // kChoice
  double low = 0.0, high = 0.0, step = 1.0;
  bool log_scale = false;
  std::size_t grid_points = 0;  // kContinuous
  std::string unit;             // appended to numbers: 400 -> "400 W"
};

struct Coupling {
  enum class Round { kNone, kDown, kUp, kNearest };
  std::string path;
  std::string pointer;  // "/couplings/0"
  std::string from;     // a variable's or an earlier coupling's path
  // Linear: round(scale x from + offset), clamped.
  double scale = 1.0, offset = 0.0;
  Round round = Round::kNone;
  std::optional<double> min, max;
  std::string unit;
  // Lookup: the value for each choice of `from` (its JSON text as the key).
  std::optional<nlohmann::json> map;
};

struct Constraint {
  std::string key;      // a summary path, "power/peak_w" or "jobs/<name>/<column>"
  std::string pointer;  // "/constraints/0"
  std::optional<double> min, max;
};

struct Objective {
  std::string key;
  std::string pointer;
  bool maximize = false;
};

struct Fidelity {
  std::string name;
  std::vector<std::string> sets;
};

struct Design {
  std::string name;
  std::string description;  // what the search asks, for whoever reads the file
  std::string source;       // the design file, as named on the command line
  std::string scenario;     // resolved against the design file's folder
  std::vector<std::string> sets;
  std::optional<std::uint64_t> seed;
  std::vector<DesignVariable> variables;
  std::vector<Coupling> couplings;
  std::vector<Constraint> constraints;
  std::vector<Objective> objectives;
  std::vector<Fidelity> fidelities;  // cheapest first; at least one ("full", no sets)
  std::string strategy = "grid";
  nlohmann::json strategy_params = nlohmann::json::object();
};

Design load_design(const std::string& path);
// `source` names the document in messages; relative paths resolve against `base_dir`.
Design parse_design(const nlohmann::json& doc, const std::string& source, const std::string& base_dir);

// The strategies' view of the variables.
SearchSpace search_space(const Design& design);

// The value of each variable at `point`, then each coupling's, as (path, JSON value) in file
// order; a coupling whose map lacks the value of its `from` is an InputError at its pointer.
std::vector<std::pair<std::string, nlohmann::json>> design_values(const Design& design, const SearchPoint& point);

// What a candidate's scenario is loaded with: the design's `set`, the fidelity's `set`, one
// "path=VALUE" per value (VALUE as JSON) and "seed=N".
std::vector<std::string> candidate_overrides(const Design& design, const SearchPoint& point, int fidelity,
                                             std::uint64_t seed);

}  // namespace dcsim::tools::design
