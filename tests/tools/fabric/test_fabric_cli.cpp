// The dcsim binary on fabric scenarios: `topo` exports, and bad input exits 2 writing nothing.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "fabric_test_support.hpp"

using dcsim::tools::fabric_testing::TempDir;

namespace {

struct Result {
  int code = -1;
  std::string out;
};

// Runs the dcsim binary with `args` (shell words), stdout captured, stderr folded in (or dropped,
// where the test reads stdout as a file format: notes go to stderr).
Result run_dcsim(const std::string& args, bool fold_stderr = true) {
  Result r;
  FILE* pipe = ::popen((std::string(DCSIM_BINARY) + " " + args + (fold_stderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf{};
  while (const std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) r.out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const std::string kScenarios = std::string(DCSIM_SOURCE_DIR) + "/scenarios/";

}  // namespace

TEST_CASE("dcsim topo --links lists every directed link", "[tools][fabric][cli]") {
  const auto r = run_dcsim("topo " + kScenarios + "link-failure.json --links");
  REQUIRE(r.code == 0);
  // Header + 96 links of the k=4 fat-tree; link 32 is the edge s1.0 -> aggregation s2.8 uplink
  // that the scenario fails.
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 97);
  CHECK(r.out.find("\n32,s1.0,s2.8,400000000000,") != std::string::npos);
}

TEST_CASE("a topology key written in the file that the topology does not read is noted, never silently ignored",
          "[tools][fabric][cli]") {
  // fat-tree-vs-mesh.json states the mesh's dims so that --set fabric.topology=mesh switches it;
  // on its fat-tree they change nothing, and validate and run say so (exit 0: a note, not an
  // error; a --set of such a key is an error, test_fabric_scenario.cpp).
  const auto r = run_dcsim("validate " + kScenarios + "fat-tree-vs-mesh.json");
  CHECK(r.code == 0);
  CHECK(r.out.find("note: " + kScenarios + "fat-tree-vs-mesh.json:/fabric/dims: fat_tree does not use dims (got [4,4]): "
                   "it changes nothing in this run (read by mesh, torus)") != std::string::npos);
  const auto mesh = run_dcsim("validate " + kScenarios + "fat-tree-vs-mesh.json --set fabric.topology=mesh");
  CHECK(mesh.code == 0);
  CHECK(mesh.out.find("/fabric/dims") == std::string::npos);
}

TEST_CASE("switches with more ports than any real part are noted and a switch preset removes the note",
          "[tools][fabric][cli][bom]") {
  // 2,048 nodes on one rail group: without a preset each of the 8 rail switches takes all 2,048
  // hosts' NIC r and as many uplinks (1:1), 4,096 ports, far beyond the 128 400G ports of the
  // largest preset (SN5600, the first of the 51.2T parts).
  const std::string big = "topo " + kScenarios +
                          "hgx-h100-16-nodes.json --set cluster.nodes=2048 --set fabric.nodes=2048 --set "
                          "workload.training=[] --bom";
  const auto ideal = run_dcsim(big);
  CHECK(ideal.code == 0);
  CHECK_THAT(ideal.out, Catch::Contains("/fabric: 8 switch(es) have more ports than any switch preset offers at "
                                        "400 Gb/s (up to 4096, against 128 on nvidia_sn5600)") &&
                            Catch::Contains("/fabric/switch (dcsim list \"switch preset\")"));
  const auto real = run_dcsim(big + " --set fabric.switch=nvidia_sn5600");
  CHECK(real.code == 0);
  CHECK_THAT(real.out, !Catch::Contains("more ports than any switch preset"));
  // The presets are listed like every registered kind.
  const auto list = run_dcsim("list \"switch preset\"");
  CHECK(list.code == 0);
  CHECK_THAT(list.out, Catch::Contains("nvidia_sn5600") && Catch::Contains("64x800G, 128x400G, 256x200G"));
}

TEST_CASE("dcsim topo -o writes dot, and refuses a scenario without a fabric", "[tools][fabric][cli]") {
  TempDir dir("topo");
  const auto file = (dir.path / "ft.dot").string();
  REQUIRE(run_dcsim("topo " + kScenarios + "fat-tree-vs-mesh.json --set fabric.topology=torus -o " + file).code == 0);
  const std::string dot = run_dcsim("topo " + kScenarios + "fat-tree-vs-mesh.json --set fabric.topology=torus", false).out;
  std::size_t edges = 0;
  for (auto pos = dot.find("--"); pos != std::string::npos; pos = dot.find("--", pos + 2)) ++edges;
  CHECK(edges == 32);  // 4x4 torus: 16 hosts x 4 neighbours / 2
  CHECK(std::filesystem::file_size(file) == dot.size());
  const auto none = run_dcsim("topo " + kScenarios + "quickstart.json");
  CHECK(none.code == 2);
  CHECK(none.out.find("has no /fabric section") != std::string::npos);
}

TEST_CASE("dcsim topo --bom prints the bill of materials, as a table or JSON", "[tools][fabric][cli][bom]") {
  // The k=4 fat-tree of fat-tree-vs-mesh.json: 20 switches, 48 cables, 16 NIC ports (counted by
  // hand in test_fabric_run.cpp); the JSON carries the same totals as the run's summary.
  const auto table = run_dcsim("topo " + kScenarios + "fat-tree-vs-mesh.json --bom");
  REQUIRE(table.code == 0);
  CHECK(table.out.find("total: 16 hosts, 20 switches (80/80 ports used), 48 cables") != std::string::npos);
  const auto json = run_dcsim("topo " + kScenarios + "fat-tree-vs-mesh.json --bom --json", false);
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["switches"] == 20);
  CHECK(j["cables"] == 48);
  CHECK(j["nic_ports"] == 16);
  CHECK(j["lines"].size() == 7);  // 3 switch tiers, 3 cable groups, 1 NIC speed
  // --json alone would silently print dot: refused instead.
  CHECK(run_dcsim("topo " + kScenarios + "fat-tree-vs-mesh.json --json").code != 0);
}

TEST_CASE("a flow trace naming a missing host exits 2 and writes nothing", "[tools][fabric][cli]") {
  TempDir dir("cli");
  dir.write("flows.csv", "src,dst,bytes,start_s\nh0,h1,100,0\nh0,h99,5,0\n");
  const auto scenario = dir.write(
      "s.json", R"({"name": "r", "fabric": {"topology": "fat_tree", "k": 4},
                    "traffic": {"pattern": "replay", "file": "flows.csv"}})");
  const auto r = run_dcsim("run " + scenario + " -o " + (dir.path / "out").string());
  CHECK(r.code == 2);
  CHECK(r.out.find((dir.path / "flows.csv").string() + ":3: unknown host 'h99'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path / "out"));
}
