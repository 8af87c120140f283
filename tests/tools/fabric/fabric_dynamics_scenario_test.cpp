// Scenario keys for link-up rebalancing (routing.resilient_hashing), PFC congestion spreading
// (roce.pfc_spreading, pfc_spreading_hops) and the solver's max_min_precision: they map onto the
// network configs, act in a run, and the faults table counts the subflows each fault moved.

#include <catch2/catch.hpp>

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

// 2-tier k=4 fat-tree (links 0-15 are the 8 hosts' cables, link 16 is edge 0 -> spine 0), a ring
// of 100 MB flows sprayed over both spines: flow 1 -> 2 has one subflow on link 16, which fails at
// 1 ms and comes back at 2 ms.
std::string fail_and_restore(bool resilient) {
  return std::string(R"({"name": "flap", "seed": 5,
      "fabric": {"topology": "fat_tree", "k": 4, "tiers": 2,
                 "routing": {"mode": "spray", "resilient_hashing": )") +
         (resilient ? "true" : "false") + R"(}},
      "faults": [{"at": "1 ms", "kind": "link", "link": 16, "duration": "1 ms"}],
      "traffic": {"pattern": "ring", "size": {"kind": "fixed", "value": "100 MB"}}})";
}

}  // namespace

TEST_CASE("resilient hashing and PFC spreading map onto the network configs", "[tools][fabric][scenario]") {
  const auto plain = load(R"({"name": "m", "fabric": {"topology": "fat_tree", "k": 4}})");
  CHECK_FALSE(plain.fabric->options.routing.resilient_hashing);
  CHECK_FALSE(plain.fabric->options.roce.pfc_spreading);
  CHECK_FALSE(plain.fabric->options.roce.pfc);
  const auto s = load(R"({"name": "m", "fabric": {"topology": "fat_tree", "k": 4,
                          "routing": {"resilient_hashing": true},
                          "roce": {"pfc_spreading": true, "pfc_spreading_hops": 2}}})");
  CHECK(s.fabric->options.routing.resilient_hashing);
  CHECK(s.fabric->options.roce.pfc_spreading);
  CHECK(s.fabric->options.roce.pfc_spreading_hops == 2);
  CHECK(s.fabric->options.roce.pfc);      // spreading is a PFC effect: it switches PFC on
  CHECK(s.fabric->options.roce.enabled);  // and PFC switches RoCE on
  CHECK(load_errors(R"({"name": "m", "fabric": {"topology": "fat_tree", "k": 4,
                        "roce": {"pfc_spreading": true, "pfc_spreading_hops": 0}}})")
            .find("/fabric/roce/pfc_spreading_hops") != std::string::npos);
}

TEST_CASE("a restored link moves flows back unless hashing is resilient, and the faults table says so",
          "[tools][fabric][run]") {
  MemoryTraceSink standard, resilient;
  run::simulate(load(fail_and_restore(false)), registries(), standard);
  run::simulate(load(fail_and_restore(true)), registries(), resilient);
  const auto& moved_std = standard.table("network/faults").rows;
  const auto& moved_res = resilient.table("network/faults").rows;
  REQUIRE(moved_std.size() == 2);
  REQUIRE(moved_res.size() == 2);
  const auto down_std = std::get<std::int64_t>(moved_std[0][4]);
  const auto up_std = std::get<std::int64_t>(moved_std[1][4]);
  // The same flows leave the failed uplink in both runs; only standard ECMP brings them back.
  CHECK(down_std == 1);
  CHECK(std::get<std::int64_t>(moved_res[0][4]) == 1);
  CHECK(up_std == 1);
  CHECK(std::get<std::int64_t>(moved_res[1][4]) == 0);
  // Host 1's 100 Gb/s port bounds its two subflows either way: moving them costs no time here.
  CHECK(summary_number(resilient, "network/makespan_s") == Approx(summary_number(standard, "network/makespan_s")));
}

TEST_CASE("max_min_precision maps onto the fabric and is refused outside [1e-9, 1e-2]", "[tools][fabric][scenario]") {
  CHECK(load(R"({"name": "m", "fabric": {"topology": "fat_tree", "k": 4}})").fabric->options.max_min_precision == 1e-9);
  CHECK(load(R"({"name": "m", "fabric": {"topology": "fat_tree", "k": 4, "max_min_precision": 1e-3}})")
            .fabric->options.max_min_precision == 1e-3);
  const std::string error =
      load_errors(R"({"name": "m", "fabric": {"topology": "fat_tree", "k": 4, "max_min_precision": 0.5}})");
  CHECK(error.find("/fabric/max_min_precision") != std::string::npos);
  CHECK(error.find("0.5") != std::string::npos);
}
