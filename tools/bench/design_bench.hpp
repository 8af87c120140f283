#pragma once
// `dcsim bench design`: the search strategies (tools/design) on a real design space.
//
// bayesian-vs-grid: Llama 3 70B pre-training on HGX H100 nodes, 4,320 designs (nodes x TP x PP x
// micro-batch x recompute x distributed optimizer x GPU power cap), each priced by the
// closed-form step model (models/workload/training_step.hpp) in USD per million tokens, under a
// deadline (1T tokens in 30 days). The grid evaluates all of them and knows the optimum; for 10
// seeds, the evaluations `bayesian` and `random` need to come within 1% of it, and their
// best-so-far gap at 1, 2, 5 and 10% of the grid's evaluations.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_design_bench();

}  // namespace dcsim::tools::bench
