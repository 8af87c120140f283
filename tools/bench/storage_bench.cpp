#include "tools/bench/storage_bench.hpp"

#include <string>

#include "tools/bench/scenario_case.hpp"

namespace dcsim::tools::bench {

namespace {

// Two steps with a checkpoint after the first: the run is the checkpoint plus two analytic
// steps. 2,048 nodes and 100 OSD hosts under 68 leaves of 32 ports.
constexpr const char* kCheckpoint = R"({
  "name": "checkpoint-16384-gpus", "seed": 5,
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2048, "nodes_per_rack": 4},
  "frontend": {"topology": "leaf_spine", "leaves": 68, "hosts_per_leaf": 32, "spines": 16,
               "link_bandwidth_bps": "400 Gbps"},
  "storage": {"hosts": 100, "drives_per_host": 8, "pools": [{"name": "rep3", "replicas": 3}]},
  "workload": {"training": [{"name": "llama3-405b", "model": "llama3-405b", "nodes": 2048,
    "parallelism": {"tp": 8, "pp": 16, "zero_stage": 1}, "micro_batch_size": 1, "global_batch": 2048,
    "recompute": "full", "steps": 2, "checkpoint": {"interval": 1, "target": "store"}}]}})";

}  // namespace

nlohmann::json run_storage_bench() {
  ScenarioCaseRun r;
  run_scenario_case(kCheckpoint, "checkpoint-16384-gpus", r);
  const double write_s = r.number("storage/checkpoint_write_s_max");
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back({{"name", "checkpoint-16384-gpus"},
                   {"gpus", 16384},
                   {"osd_hosts", 100},
                   {"wall_s", r.wall_s},
                   {"peak_rss_mb", r.peak_rss_mb},
                   {"events", r.stats.events},
                   {"flows", r.number("frontend/flows_completed")},
                   {"checkpoint_write_s", write_s},
                   {"client_write_bytes_per_s", write_s > 0 ? r.number("storage/client_write_bytes") / write_s : 0.0}});
  return cases;
}

}  // namespace dcsim::tools::bench
