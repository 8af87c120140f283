#pragma once
// `dcsim bench site`: how wall time per simulated day grows with the site (issue 38). The same
// mix at each size: scenarios/site/site-year-131k.json's parts scaled to the site (Llama 3 405B
// trainings on three quarters of the nodes checkpointing into an EC 8+3 store, a stream of
// smaller jobs under easy_backfill on the rest, a diurnal 70B chat fleet under HPA at auto
// resolution, Llama 3 faults with checkpoint_restart, D2C + rear doors in halls at one thermal
// path per node, economics; site_bench.cpp says how each part scales). Sizes are multiples of
// 1,024 GPUs. Each size runs `days` in memory (no file written); the case
// reports wall time, events, peak RSS and seconds per simulated day, and the bench the exponent
// k of wall-per-day ~ GPUs^k fitted by least squares on the logs (1: cost per event independent
// of the site; the issue measured ~1.9 before the facility's crossing index).
// Not in the suite (minutes at 131,072 GPUs): a benchmark to run on a quiet machine.
// Returns {"cases": [{"name", "gpus", "nodes", "days", "wall_s", "s_per_day", "events",
// "peak_rss_mb"}], "exponent"}.

#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_site_bench(const std::vector<int>& gpus, double days);

// A site scenario file as `dcsim run` runs it (site-131k-gpus-1-year: scenarios/site/
// site-year-131k.json), written into `output_dir` as it goes: trace.h5 and summary.json, so a year
// is not held in memory. `days` > 0 replaces its duration. Returns {"name", "days", "wall_s",
// "s_per_day", "events", "peak_rss_mb", "trace_mb"}; the name is the file's stem.
nlohmann::json run_site_scenario_file(const std::string& path, double days, const std::string& output_dir);

}  // namespace dcsim::tools::bench
