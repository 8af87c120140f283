// Fabric scenarios run end to end: the flows table, the fault table and the summary metrics
// reach the sink, and the two shipped scenarios keep their headline numbers.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "fabric_test_support.hpp"
#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"

using namespace dcsim::tools;
using namespace dcsim::tools::fabric_testing;
using dcsim::sim::MemoryTraceSink;

namespace {

double summary_number(const MemoryTraceSink& sink, const std::string& path) {
  const auto& v = sink.summary(path).value;
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return static_cast<double>(std::get<std::int64_t>(v));
}

scenario::Scenario shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return scenario::load_scenario_file(std::string(DCSIM_SOURCE_DIR) + "/scenarios/" + name, overrides, std::nullopt,
                                      registries());
}

}  // namespace

TEST_CASE("a fabric-only scenario writes the flows table and the network summary", "[tools][fabric][run]") {
  // Ring on a 2-tier k=4 fat-tree (8 hosts), 1 MB per flow, 100 Gb/s, no latency: each flow has
  // its host's uplink alone, so every flow takes 1e6 B x 8 / 100e9 = 80 us, plus the route
  // latency (cables: 2 m at 5 ns/m per host hop, 20 m per switch hop).
  const auto s = load(R"({"name": "ring", "fabric": {"topology": "fat_tree", "k": 4, "tiers": 2},
                          "traffic": {"pattern": "ring", "size": {"kind": "fixed", "value": "1 MB"}}})");
  MemoryTraceSink sink;
  run::simulate(s, registries(), sink);
  const auto& flows = sink.table("network/flows");
  CHECK(flows.rows.size() == 8);
  CHECK(summary_number(sink, "network/flows_completed") == 8);
  CHECK(summary_number(sink, "network/flows_failed") == 0);
  CHECK(summary_number(sink, "network/bytes_delivered") == Approx(8e6));
  // Longest route: host -> leaf -> spine -> leaf -> host = 2 x 2 m + 2 x 20 m = 44 m = 220 ns.
  CHECK(summary_number(sink, "network/makespan_s") == Approx(80e-6 + 220e-9).epsilon(1e-9));
  CHECK(sink.table("network/faults").rows.empty());
}

TEST_CASE("scripted faults are applied, logged, and fail the flows they cut off", "[tools][fabric][run]") {
  // Host 1 has one NIC: taking its only port down cuts it off, so the flows to and from it fail
  // (the model takes both directions of the port's cable down: "no path ... after link 2/3 went down").
  const auto s = load(R"({"name": "cut", "fabric": {"topology": "fat_tree", "k": 4, "tiers": 2},
                          "faults": [{"at": "10 us", "kind": "nic_port", "host": 1}],
                          "traffic": {"pattern": "ring", "size": {"kind": "fixed", "value": "1 MB"}}})");
  MemoryTraceSink sink;
  run::simulate(s, registries(), sink);
  CHECK(sink.table("network/faults").rows.size() == 1);
  CHECK(summary_number(sink, "network/flows_failed") == 2);  // 0 -> 1 and 1 -> 2
  CHECK(summary_number(sink, "network/flows_completed") == 6);
}

TEST_CASE("run_to_directory writes the network summary into summary.json", "[tools][fabric][run]") {
  TempDir dir("run");
  const auto s = load(R"({"name": "p", "fabric": {"topology": "torus", "dims": [2, 2]},
                          "traffic": {"pattern": "permutation", "size": {"kind": "fixed", "value": "1 kB"}}})");
  const auto out = run::run_to_directory(s, registries(), dir.path / "out");
  CHECK(out.summary["network"]["flows_completed"] == 4);
  CHECK(std::filesystem::exists(out.trace_file));
}

TEST_CASE("a fabric run carries the bill of materials of its fabric", "[tools][fabric][run][bom]") {
  MemoryTraceSink sink;
  run::simulate(shipped("fat-tree-vs-mesh.json"), registries(), sink);
  // k=4, 3 tiers, counted by hand: k^3/4 = 16 hosts; k^2/2 = 8 edge + 8 aggregation + k^2/4 = 4
  // core switches = 20; 16 host cables + 16 edge-aggregation + 16 aggregation-core = 48 cables;
  // one single-port 400 Gb/s NIC per host = 16 NIC ports. Table rows: 3 switch tiers, 3 cable
  // groups (tier 0 DAC, tiers 1-2 AOC at the default 20 m), 1 NIC speed = 7.
  CHECK(summary_number(sink, "network/switches") == 20);
  CHECK(summary_number(sink, "network/cables") == 48);
  CHECK(summary_number(sink, "network/nic_ports") == 16);
  CHECK(summary_number(sink, "network/transceivers") == 0);  // no cable beyond AOC reach (30 m)
  CHECK(summary_number(sink, "network/switch_ports_used") == 80);  // 20 x radix 4, all wired
  CHECK(sink.table("network/bom").rows.size() == 7);

  // The torus of the same scenario: no switches; 16 hosts x 4 neighbours / 2 = 32 cables, and
  // every cable end is a host port: 64 NIC ports.
  MemoryTraceSink torus;
  run::simulate(shipped("fat-tree-vs-mesh.json", {"fabric.topology=torus"}), registries(), torus);
  CHECK(summary_number(torus, "network/switches") == 0);
  CHECK(summary_number(torus, "network/cables") == 32);
  CHECK(summary_number(torus, "network/nic_ports") == 64);
}

// Golden values of the shipped scenarios. Flow-level max-min with integer-ns completions makes
// them deterministic for a given seed; the tolerance (1e-6 relative) only absorbs a change in the
// order of floating-point sums, while a change in routing, sharing or traffic moves them by far
// more (a single ECMP collision changes the makespan by tens of percent).
constexpr double kGoldenTol = 1e-6;

TEST_CASE("golden: fat-tree-vs-mesh.json on the fat-tree and on the torus", "[tools][fabric][golden]") {
  MemoryTraceSink fat, torus;
  run::simulate(shipped("fat-tree-vs-mesh.json"), registries(), fat);
  run::simulate(shipped("fat-tree-vs-mesh.json", {"fabric.topology=torus"}), registries(), torus);
  CHECK(summary_number(fat, "network/flows_completed") == 240);
  CHECK(summary_number(torus, "network/flows_completed") == 240);
  CHECK(summary_number(fat, "network/makespan_s") == Approx(0.02432342).epsilon(kGoldenTol));
  CHECK(summary_number(torus, "network/makespan_s") == Approx(0.016640011).epsilon(kGoldenTol));
  CHECK(summary_number(fat, "network/fct_p50_s") == Approx(0.020161845).epsilon(kGoldenTol));
  CHECK(summary_number(torus, "network/fct_p50_s") == Approx(0.011448463).epsilon(kGoldenTol));
}

TEST_CASE("golden: link-failure.json", "[tools][fabric][golden]") {
  // Spraying: without faults every 256 MB flow takes 5.12 ms at 400 Gb/s. Link 32 (s1.0 -> s2.8)
  // fails at 1 ms, so h0 and h1 share s1.0's other uplink: 1 ms + 4.12 ms x 2 = 9.24 ms (plus route
  // latency); h5's flows fail at 3 ms.
  MemoryTraceSink sink;
  run::simulate(shipped("link-failure.json"), registries(), sink);
  CHECK(summary_number(sink, "network/flows_completed") == 14);
  CHECK(summary_number(sink, "network/flows_failed") == 2);  // the flows to and from h5
  CHECK(summary_number(sink, "network/makespan_s") == Approx(0.009245441).epsilon(kGoldenTol));
  CHECK(sink.table("network/faults").rows.size() == 4);
}
