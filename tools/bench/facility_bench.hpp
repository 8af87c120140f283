#pragma once
// `dcsim bench facility`: the facility model at scale, 128 HGX H100 nodes (1,024 GPUs, each with
// its own die/plate thermal state) in 32 racks, running back-to-back jobs for 30 simulated days
// with a 10 s thermal tick and telemetry, into a sink that counts points (the model's cost, not
// the file writer's). Target (issue 5): under 20 s wall time and under 1 GiB peak memory.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_facility_bench(int nodes, double days, double tick_s);

}  // namespace dcsim::tools::bench
