#pragma once
// report.html of a design search, written with its other outputs (design_outputs.hpp), as one
// self-contained page (tools/report/html_page.hpp):
//   - the search: strategy, evaluations by status, the best design or the size of the front;
//   - a chart: one objective, the best feasible value found after each evaluation; two or more,
//     the Pareto front of the first two;
//   - the best design beside the base scenario, variable by variable;
//   - the runners-up and why each lost: the next-best feasible designs and how far behind, and
//     the best-scoring candidates that missed a constraint, failed or were pruned, with the reason.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/design/design_runner.hpp"
#include "tools/design/design_spec.hpp"

namespace dcsim::tools::design {

// `base_values`: each variable's and coupling's path with its value in the base scenario after
// the design's `set` (null: not given there, the scenario's default).
std::string design_report_html(const Design& design, const SearchResult& result,
                               const std::vector<std::pair<std::string, nlohmann::json>>& base_values);

// The base scenario's value at each variable's and coupling's path (see above).
std::vector<std::pair<std::string, nlohmann::json>> base_values(const Design& design);

}  // namespace dcsim::tools::design
