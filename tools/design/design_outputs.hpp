#pragma once
// What `dcsim design` writes into its folder, each file complete or not at all (docs/design-search.md):
//   evaluations.csv   every evaluation in the order it was proposed: evaluation, fidelity (its
//                     name), status (feasible, infeasible, pruned: decided before running, failed),
//                     each variable's and coupling's value, each constraint's and objective's key,
//                     reason (the constraints missed and by how much, or the error), then every
//                     other scalar summary value the runs reported (sorted by path)
//   pareto.csv        the non-dominated feasible designs at the highest fidelity reached (one
//                     objective: the best), with their values and objectives
//   best-scenario.json  the best design (one objective) as a scenario file `dcsim run` takes:
//                     the base with the design's overrides, data files named by absolute path
//   sensitivity.csv   around the best design, each variable moved one step either way (one
//                     grid step; each other choice) with the rest held: the objective, its
//                     change, and the status
//   report.html       the search as one page (design_report.hpp): the chart, the best design
//                     beside the base, why the runners-up lost
//   design.json       the design file, as given

#include <filesystem>
#include <vector>

#include "models/model_registries.hpp"
#include "tools/design/design_evaluator.hpp"
#include "tools/design/design_runner.hpp"
#include "tools/design/design_spec.hpp"

namespace dcsim::tools::design {

inline constexpr const char* kEvaluationsCsv = "evaluations.csv";
inline constexpr const char* kParetoCsv = "pareto.csv";
inline constexpr const char* kBestScenario = "best-scenario.json";
inline constexpr const char* kSensitivityCsv = "sensitivity.csv";
inline constexpr const char* kDesignReport = "report.html";

// The neighbours of `point` that sensitivity.csv evaluates, each with the variable it moves.
std::vector<std::pair<std::size_t, SearchPoint>> neighbours(const SearchSpace& space, const SearchPoint& point);

// Writes every file above (sensitivity.csv only when `sensitivity` is not empty) into `dir`.
void write_design_outputs(const Design& design, const SearchResult& result, const std::vector<Evaluation>& sensitivity,
                          const models::ModelRegistries& registries, const std::filesystem::path& dir);

}  // namespace dcsim::tools::design
