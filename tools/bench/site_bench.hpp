#pragma once
// `dcsim bench site`: how wall time per simulated day grows with the site (issue 38). The same
// mix at each size: HGX H100 nodes with 1/16 spares (Meta's 24K-GPU cluster ran 2,176 nodes for
// 2,048), Llama 3 405B-shaped training jobs of up to 2,048 nodes (TP 8 x PP 16, checkpoints to
// NVMe), every Llama 3 fault class with checkpoint_restart, D2C + rear doors at a 60 s tick with
// its plant, telemetry hourly. Sizes are multiples of 1,024 GPUs; every node but the spares
// trains (jobs of 2,048 nodes and one of the remainder). Each size runs `days` in memory (no file written); the case
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
