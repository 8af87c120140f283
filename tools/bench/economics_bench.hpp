#pragma once
// `dcsim bench economics`: what pricing a run costs in wall time. The same 30-day scenario on
// 1,024 GPUs (128 HGX H100 nodes: a generated job stream, two training jobs, D2C + rear-door
// facility at a 5-minute tick, every Llama 3 fault class) runs without and with /economics, each
// through the same path as `dcsim run` into a sink that keeps nothing, alternately `repeats`
// times; the best wall time of each is compared (the best, not the mean: noise on a shared
// machine only ever adds time). Target (issue 13): economics on within 10% of off, and the same
// event count (pricing adds no event).
// Returns {"cases": [{"name", "wall_s", "events"} x 2], "ratio": on / off}.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_economics_bench(int repeats = 3);

}  // namespace dcsim::tools::bench
