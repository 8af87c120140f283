#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "models/model_registries.hpp"
#include "models/network/fabric_run.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace net = dcsim::models::network;
using dcsim::sim::Time;

namespace {

// Six flows of 1 GB between the four hosts of a two-leaf leaf-spine (/fabric's flow_table key).
struct TableRun {
  dcsim::sim::MemoryTraceSink sink;
  net::FabricSummary summary;
};

void run_flows(bool flow_table, TableRun& out) {
  dcsim::models::ModelRegistries reg;
  dcsim::models::register_builtin_models(reg);
  std::vector<net::FlowRecord> flows;
  for (int i = 0; i < 6; ++i) {
    flows.push_back(
        {static_cast<net::NodeId>(i % 4), static_cast<net::NodeId>((i + 1) % 4), 1e9, Time::from_seconds(0.001 * i)});
  }
  net::FabricRunConfig c;
  c.topology = "leaf_spine";
  c.topology_config.leaves = 2;
  c.topology_config.hosts_per_leaf = 2;
  c.flows = flows;
  c.flow_table = flow_table;
  dcsim::sim::Simulator sim;
  net::FabricRun run(c, reg.topologies, sim, out.sink);
  run.start();
  sim.run();
  out.summary = run.finish();
}

bool has_table(const dcsim::sim::MemoryTraceSink& sink, const std::string& name) {
  const auto& tables = sink.tables();
  return std::any_of(tables.begin(), tables.end(), [&](const auto& t) { return t.path == name; });
}

}  // namespace

TEST_CASE("fabric: without the flow table every flow is still counted, summed and timed", "[models][network][fabric]") {
  TableRun with, without;
  run_flows(true, with);
  run_flows(false, without);
  REQUIRE(has_table(with.sink, "network/flows"));
  CHECK(with.sink.table("network/flows").rows.size() == 6);  // one row per flow
  CHECK_FALSE(has_table(without.sink, "network/flows"));
  // The same simulation: the table is an output, not a mechanism.
  CHECK(without.summary.flows_completed == 6);
  CHECK(without.summary.bytes_delivered == with.summary.bytes_delivered);
  CHECK(without.summary.makespan == with.summary.makespan);
  CHECK(without.summary.fct_p99 == with.summary.fct_p99);
}
