#pragma once
// `dcsim bench design`, case grid-1000-designs-training: `dcsim design`'s whole path (each
// candidate loaded, pruned or simulated in memory, its constraints checked) over 1,000 designs
// of a 1,024-GPU Llama 3 70B training site at analytic fidelity: the job's steps from the
// closed-form step model (no fabric), an hour of the site with its facility and economics. The
// space: GPU power cap (5) x nodes per rack (5) x cooling (air, D2C 60%, D2C 80%, D2C 80% + rear
// doors) x global batch (5) x electricity price (2); objective USD per million tokens, under a
// 60 kW rack limit (decided before the run) and an 85 C GPU limit. With an automatic plan
// ("parallelism": {"auto": true}) each candidate also searches its training plan. Target: under
// 2 minutes on the 2-core development machine. Also the same first 100 designs on 1 and on 2
// threads: the parallel efficiency.

#include <cstddef>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"

namespace dcsim::tools::bench {

nlohmann::json run_design_grid_bench(const models::ModelRegistries& registries, std::size_t jobs);

}  // namespace dcsim::tools::bench
