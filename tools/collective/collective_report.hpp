#pragma once
// nccl-tests-style output of an analytic collective sweep (models/collective/
// collective_estimator.hpp): the familiar text table and the JSON rows of `--json`.
//
// The CLI parses `--sizes 1K:8G` into min/max and calls models::collective::size_sweep(), builds
// the CollectiveSystem with make_collective_system(node, nodes, fabric, gpus), runs
// collective_sweep() and prints one of these.

#include <string>

#include <nlohmann/json.hpp>

#include "models/collective/collective_estimator.hpp"

namespace dcsim::tools::collective {

// What the header lines say about the run (free text, e.g. the scenario name).
struct ReportContext {
  std::string title;      // e.g. "scenarios/hgx-h100-16-nodes.json"
  std::string algorithm;  // as requested: "auto" or a name
  int nodes = 1;
  int gpus_per_node = 1;
  std::string model = "analytic model";  // or "flow mode on the scenario's /fabric"
};

// nccl-tests layout: size (B), count (float elements), type, redop, root, time (us), algbw and
// busbw (GB/s), plus the algorithm and protocol the model used; then "# Avg bus bandwidth".
std::string format_collective_table(const models::collective::CollectiveSweep& sweep,
                                    const ReportContext& context);

// [{"bytes", "time_s", "algbw_GBps", "busbw_GBps", "algorithm", "protocol"}, ...]
nlohmann::json collective_rows_json(const models::collective::CollectiveSweep& sweep);

}  // namespace dcsim::tools::collective
