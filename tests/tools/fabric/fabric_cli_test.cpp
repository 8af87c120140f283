// The dcsim binary on fabric scenarios: `topo` exports, and bad input exits 2 writing nothing.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
  // error; a --set of such a key is an error, fabric_scenario_test.cpp).
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
  // hand in fabric_run_test.cpp); the JSON carries the same totals as the run's summary.
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

TEST_CASE("dcsim topo never refuses a file for sections it does not read", "[tools][fabric][cli][bom]") {
  // A k=64 fat-tree (65,536 hosts) under the file's all-to-all traffic: 4.3 G flows, which the
  // run's memory guard refuses (3.4 TB). topo builds the fabric only, so it answers.
  const auto big = run_dcsim("topo " + kScenarios + "fat-tree-vs-mesh.json --set fabric.k=64 --bom");
  CHECK(big.code == 0);
  CHECK_THAT(big.out, Catch::Contains("total: 65536 hosts, 5120 switches"));
  // A job trace that is not there, a fault model and a duration no run could step through.
  const auto unused = run_dcsim("topo " + kScenarios +
                                "tco-bare-metal-vs-cloud.json --bom --set 'workload.traces=[{\"format\": \"swf\", "
                                "\"path\": \"/nonexistent.swf\"}]' --set reliability.faults=llama3_405b "
                                "--set 'duration=1000 d' --set 'outputs.telemetry_interval=1 us'");
  CHECK(unused.code == 0);
  CHECK_THAT(unused.out, Catch::Contains("total: 32 hosts, 40 switches"));
  // What it does read is still checked.
  const auto bad = run_dcsim("topo " + kScenarios + "tco-bare-metal-vs-cloud.json --bom --set fabric.nodes=-1");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.out, Catch::Contains("/fabric/nodes"));
}

TEST_CASE("dcsim topo --bom prices each line and gives the network's total and the site's capex, as `run` does",
          "[tools][fabric][cli][bom][economics]") {
  const std::string tco = "topo " + kScenarios + "tco-bare-metal-vs-cloud.json --bom";
  const auto table = run_dcsim(tco);
  REQUIRE(table.code == 0);
  CHECK_THAT(table.out, Catch::Contains("prices (fabric prices 'ethernet'):") &&
                            Catch::Contains("network: $") && Catch::Contains("site capex: $"));
  const auto json = run_dcsim(tco + " --json", false);
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.out);
  // The lines add up to the network's total, the categories to the site's.
  double lines = 0;
  for (const auto& line : j["prices"]["lines"]) lines += line["usd"].get<double>();
  CHECK(lines == Approx(j["prices"]["total_usd"].get<double>()).epsilon(1e-12));
  CHECK(j["prices"]["switches_usd"].get<double>() > 0);
  double categories = 0;
  for (const auto& [key, usd] : j["capex"].items()) {
    if (key != "total_usd") categories += usd.get<double>();
  }
  CHECK(categories == j["capex"]["total_usd"].get<double>());
  // The same capex as the run's summary, category by category.
  TempDir dir("topo-capex");
  REQUIRE(run_dcsim("run " + kScenarios + "tco-bare-metal-vs-cloud.json --set duration=1h -q -o " +
                    (dir.path / "run").string())
              .code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(dir.path / "run" / "summary.json"));
  CHECK(summary["cost"]["capex_usd"].get<double>() == Approx(j["capex"]["total_usd"].get<double>()).epsilon(1e-12));
  for (const auto& [key, usd] : summary["cost"]["capex"].items()) {
    INFO(key);
    CHECK(usd.get<double>() == Approx(j["capex"][key].get<double>()).epsilon(1e-12));
  }
  // The network's lines are the switch, cable and NIC categories of the site's capex (one network).
  CHECK(j["prices"]["total_usd"].get<double>() ==
        Approx(j["capex"]["switches_usd"].get<double>() + j["capex"]["cables_optics_usd"].get<double>() +
               j["capex"]["nics_usd"].get<double>())
            .epsilon(1e-12));
  // /economics for capex alone: no cloud option (refused before).
  const auto alone = run_dcsim(tco + " --set 'economics.cloud=[]'");
  CHECK(alone.code == 0);
  CHECK_THAT(alone.out, Catch::Contains("site capex: $"));
}
