// `dcsim collective` and training scenarios through the command line, as users run them.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/collective/size_range.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Result {
  int exit_code;
  std::string out;  // stdout
  std::string all;  // stdout and stderr
};

Result run_dcsim(const std::string& args) {
  const auto err = fs::temp_directory_path() / ("dcsim-ct-err-" + std::to_string(::getpid()));
  const std::string command = std::string(DCSIM_BINARY) + " " + args + " 2>" + err.string();
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe) != nullptr) out += buf.data();
  const int status = pclose(pipe);
  std::string errors;
  if (FILE* f = std::fopen(err.c_str(), "r")) {
    while (std::fgets(buf.data(), buf.size(), f) != nullptr) errors += buf.data();
    std::fclose(f);
  }
  fs::remove(err);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, out + errors};
}

const std::string kScenarios = std::string(DCSIM_SOURCE_DIR) + "/scenarios/";

// Within 5% of the measured asymptote: the acceptance bound.
constexpr double kAsymptoteTol = 0.05;

json rows(const std::string& args) {
  const auto r = run_dcsim("collective " + args + " --json");
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

json job_summary(const std::string& args) {
  const auto out = fs::temp_directory_path() / ("dcsim-ct-run-" + std::to_string(::getpid()));
  const auto r = run_dcsim("run " + args + " -o " + out.string() + " --json");
  fs::remove_all(out);
  REQUIRE(r.exit_code == 0);
  const json summary = json::parse(r.out);
  REQUIRE(summary.at("jobs").size() == 1);
  return summary.at("jobs")[0];
}

}  // namespace

TEST_CASE("size ranges parse as nccl-tests does (binary suffixes)", "[tools][collective]") {
  using dcsim::tools::collective::parse_size_range;
  CHECK(parse_size_range("1K:8G").min_bytes == 1024.0);
  CHECK(parse_size_range("1K:8G").max_bytes == 8.0 * 1024 * 1024 * 1024);
  CHECK(parse_size_range("256M").min_bytes == 256.0 * 1024 * 1024);
  CHECK(parse_size_range("8").max_bytes == 8.0);
  CHECK_THROWS_WITH(parse_size_range("0:8G"), Catch::Contains("sizes must be positive, got \"0:8G\""));
  CHECK_THROWS_WITH(parse_size_range("8G:1K"), Catch::Contains("MAX must not be below MIN"));
  CHECK_THROWS_WITH(parse_size_range("1X"), Catch::Contains("unknown suffix 'X'"));
  CHECK_THROWS(parse_size_range(""));
}

TEST_CASE("collective --json rows: one per doubling size, with the nccl-tests fields", "[tools][collective][cli]") {
  const json r = rows(kScenarios + "hgx-h100-node.json --op all_reduce --sizes 1K:8G");
  REQUIRE(r.size() == 24);  // 2^10 .. 2^33
  CHECK(r[0]["bytes"] == 1024.0);
  CHECK(r[23]["bytes"] == 8589934592.0);
  for (const auto& row : r) {
    CHECK(row["algbw_GBps"].get<double>() ==
          Approx(row["bytes"].get<double>() / row["time_s"].get<double>() / 1e9));
    // all_reduce busBW = algBW x 2(n-1)/n with n = 8 (nccl-tests PERFORMANCE.md)
    CHECK(row["busbw_GBps"].get<double>() == Approx(row["algbw_GBps"].get<double>() * 2 * 7 / 8));
  }
  // A latency floor: 1 KiB takes microseconds, not bytes / bandwidth (~2 ns).
  CHECK(r[0]["time_s"].get<double>() > 5e-6);
}

TEST_CASE("collective busBW asymptotes match the measured NCCL figures within 5%", "[tools][collective][cli]") {
  // NVLS inside one H100 node: 476-480 GB/s at 256 MB and above (nccl-tests#212, #290); auto
  // picks NVLS for large all_reduce as NCCL does.
  const json nvls = rows(kScenarios + "hgx-h100-node.json --sizes 8G");
  CHECK(nvls[0]["algorithm"] == "nvls");
  CHECK(nvls[0]["busbw_GBps"].get<double>() == Approx(478.0).epsilon(kAsymptoteTol));
  // Ring over NVLink: about 370 GB/s (nccl-tests#212).
  const json ring = rows(kScenarios + "hgx-h100-node.json --sizes 8G --algo ring");
  CHECK(ring[0]["busbw_GBps"].get<double>() == Approx(370.0).epsilon(kAsymptoteTol));
  // Across nodes: 46-48 GB/s per 400G NIC, 8 NICs: 368-384 GB/s (nccl-tests#290).
  const json net = rows(kScenarios + "hgx-h100-16-nodes.json --sizes 8G --algo ring");
  CHECK(net[0]["busbw_GBps"].get<double>() == Approx(8 * 47.0).epsilon(kAsymptoteTol));
  // Two nodes through --gpus.
  const json two = rows(kScenarios + "hgx-h100-16-nodes.json --sizes 8G --algo ring --gpus 16");
  CHECK(two[0]["busbw_GBps"].get<double>() == Approx(8 * 47.0).epsilon(kAsymptoteTol));
}

TEST_CASE("collective rejects a zero size, an unknown algorithm and a bad --gpus with exit 2", "[tools][collective][cli]") {
  auto r = run_dcsim("collective " + kScenarios + "hgx-h100-node.json --sizes 0:8G");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.all, Catch::Contains("--sizes: expected MIN:MAX or SIZE with sizes such as 1K, 256M or "
                                    "8G (binary: 1K = 1024 bytes), sizes must be positive, got \"0:8G\""));
  r = run_dcsim("collective " + kScenarios + "hgx-h100-node.json --algo butterfly");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.all, Catch::Contains("--algo: unknown collective algorithm 'butterfly'; valid: auto, "
                                    "hierarchical, nvls, ring, tree"));
  r = run_dcsim("collective " + kScenarios + "hgx-h100-16-nodes.json --gpus 12");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.all, Catch::Contains("--gpus: "));
  r = run_dcsim("collective " + kScenarios + "hgx-h100-node.json --op all_sum");
  CHECK(r.exit_code == 2);
}

// Golden values of the shipped training scenarios. They pin the analytic step model's output;
// a change in the compute or collective calibration moves them on purpose, so the tolerance is
// tight (0.5%) and the comment says what each value means.
constexpr double kGoldenTol = 0.005;

TEST_CASE("golden: BERT-Large on 3 nodes loses about 13% with 2 instead of 4 NICs at micro-batch 8", "[golden][cli]") {
  const std::string base = kScenarios + "bert-large-links.json";
  const json four = job_summary(base);
  const json two = job_summary(base + " --set cluster.node.compute_nics=2");
  const double penalty = 1.0 - two["tokens_per_s"].get<double>() / four["tokens_per_s"].get<double>();
  CHECK(penalty == Approx(0.131).epsilon(0.05));
  // The whole penalty is exposed gradient all-reduce: compute does not change.
  CHECK(two["compute_s"].get<double>() == Approx(four["compute_s"].get<double>()));
  CHECK(two["exposed_comm_s"].get<double>() > four["exposed_comm_s"].get<double>());
  // At micro-batch 32 the backward pass hides nearly all of it: under 1%.
  const json four32 = job_summary(base + " --set workload.training.0.micro_batch_size=32");
  const json two32 = job_summary(base + " --set workload.training.0.micro_batch_size=32 --set cluster.node.compute_nics=2");
  CHECK(1.0 - two32["tokens_per_s"].get<double>() / four32["tokens_per_s"].get<double>() < 0.01);
}

TEST_CASE("golden: llama3-70b on 256 GPUs (TP8 PP4 DP8)", "[golden][cli]") {
  const json j = job_summary(kScenarios + "llama3-70b-256-gpus.json");
  CHECK(j["state"] == "done");
  CHECK(j["step_time_s"].get<double>() == Approx(17.503).epsilon(kGoldenTol));  // NCCL size ramp + LM head on the last stage only
  CHECK(j["mfu"].get<double>() == Approx(0.4555).epsilon(kGoldenTol));  // Llama 3 paper: 38-43% at 16K GPUs
  CHECK(j["bubble_s"].get<double>() > 0.0);                              // 1F1B with 4 stages
  // 3 checkpoints (steps 50, 100, 150) of 70.6e9 parameters x 14 B.
  CHECK(j["checkpoints"].get<double>() == 3.0);
  CHECK(j["checkpoint_bytes"].get<double>() == Approx(3 * 987.7e9).epsilon(0.01));
}

TEST_CASE("golden: llama3-8b on 16 nodes", "[golden][cli]") {
  // Flow mode on the scenario's rail-optimised fabric: every step as its graph. The closed form
  // says 3.4505 s and MFU 0.5559; the graph's 8 coalesced DP chunks overlap a little less (1.3%).
  const json j = job_summary(kScenarios + "hgx-h100-16-nodes.json");
  CHECK(j["step_time_s"].get<double>() == Approx(3.4969).epsilon(kGoldenTol));
  CHECK(j["step_time_s"].get<double>() == Approx(3.4505).epsilon(0.02));
  CHECK(j["mfu"].get<double>() == Approx(0.5485).epsilon(kGoldenTol));
  CHECK(j["checkpoints"].get<double>() == 1.0);
}

namespace {
// 4 HGX H100 nodes on a two-leaf fabric: each node's 8 x 400G NICs as one sprayed bundle.
std::string write_fabric_scenario(double oversubscription) {
  const auto path = fs::temp_directory_path() /
                    ("dcsim-ct-flow-" + std::to_string(::getpid()) + "-" +
                     std::to_string(static_cast<int>(oversubscription)) + ".json");
  json doc = {{"name", "4 HGX H100 nodes, leaf-spine"},
              {"cluster", {{"node", {{"preset", "hgx-h100"}}}, {"nodes", 4}}},
              {"fabric",
               {{"topology", "leaf_spine"}, {"leaves", 2}, {"hosts_per_leaf", 2},
                {"nics_per_node", 1}, {"links_per_node", 8}, {"bundle_parallel_links", true},
                {"link_bandwidth_bps", "400 Gbps"}, {"nic_bandwidth_bps", "400 Gbps"},
                {"oversubscription", oversubscription}, {"routing", {{"mode", "spray"}}}}}};
  FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f != nullptr);
  const std::string text = doc.dump(2);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path.string();
}
}  // namespace

TEST_CASE("dcsim collective --mode flow runs on the scenario's fabric and agrees with analytic",
          "[cli][collective][flow]") {
  const std::string ideal = write_fabric_scenario(1.0);
  const std::string over = write_fabric_scenario(4.0);
  for (const char* op : {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all"}) {
    INFO(op);
    const std::string common = std::string(" --op ") + op + " --sizes 1G --algo ring";
    const auto a = rows(ideal + common + " --mode analytic");
    const auto f = rows(ideal + common + " --mode flow");
    const auto o = rows(over + common + " --mode flow");
    REQUIRE(a.size() == 1);
    REQUIRE(f.size() == 1);
    CHECK(f[0]["time_s"].get<double>() == Approx(a[0]["time_s"].get<double>()).epsilon(0.02));
    CHECK(o[0]["time_s"].get<double>() > 1.3 * f[0]["time_s"].get<double>());
  }
  const auto h = rows(ideal + " --op all_reduce --sizes 1G --algo hierarchical --mode flow");
  const auto ha = rows(ideal + " --op all_reduce --sizes 1G --algo hierarchical");
  CHECK(h[0]["time_s"].get<double>() == Approx(ha[0]["time_s"].get<double>()).epsilon(0.02));

  // Flow mode needs /fabric; an unsupported algorithm and an unknown mode are input errors.
  const auto nofabric = run_dcsim("collective " + kScenarios + "hgx-h100-node.json --mode flow");
  CHECK(nofabric.exit_code == 2);
  CHECK(nofabric.all.find("--mode flow needs the scenario's /fabric section") != std::string::npos);
  const auto nvls = run_dcsim("collective " + ideal + " --algo nvls --mode flow");
  CHECK(nvls.exit_code == 2);
  CHECK_THAT(nvls.all, Catch::Contains("--algo: nvls cannot run all_reduce on 4 node(s) x 8 GPUs: "
                                       "NVLS reduces inside one NVSwitch domain"));
  const auto tree_bcast = run_dcsim("collective " + ideal + " --op broadcast --algo tree --mode flow");
  CHECK(tree_bcast.exit_code == 2);
  CHECK_THAT(tree_bcast.all, Catch::Contains("--algo: flow mode does not run broadcast with 'tree'; "
                                             "flow mode runs ring (all_reduce, all_gather, "
                                             "reduce_scatter, broadcast, all_to_all, "
                                             "point_to_point), tree (all_reduce)"));
  const auto bad = run_dcsim("collective " + ideal + " --mode packet");
  CHECK(bad.exit_code == 2);
  CHECK(bad.all.find("--mode: unknown mode 'packet'") != std::string::npos);
  fs::remove(ideal);
  fs::remove(over);
}

TEST_CASE("dcsim collective --mode flow runs tree, nvls, point_to_point and hierarchical as the "
          "closed forms do on 16 rail-optimised HGX H100 nodes",
          "[cli][collective][flow]") {
  // The shipped 16-node scenario with a non-blocking rail-optimised fabric (NIC r of every node on
  // rail switch r), sprayed so that no ECMP collision congests it.
  const std::string scenario =
      kScenarios + "hgx-h100-16-nodes.json --set 'fabric={\"topology\":\"rail_optimized\","
                   "\"nodes\":16,\"nics_per_node\":8,\"link_bandwidth_bps\":\"400 Gbps\","
                   "\"routing\":{\"mode\":\"spray\"}}'";
  struct Case {
    const char* args;
    const char* algorithm;
  };
  for (const Case c : {Case{" --op all_reduce --algo tree", "tree"},
                       Case{" --op all_reduce --algo nvls --gpus 8", "nvls"},
                       Case{" --op point_to_point --algo ring", "ring"},
                       Case{" --op sendrecv --algo hierarchical", "hierarchical"},
                       Case{" --op all_gather --algo hierarchical", "hierarchical"},
                       Case{" --op reduce_scatter --algo hierarchical", "hierarchical"},
                       Case{" --op all_reduce --gpus 8", "nvls"}}) {  // auto: NCCL's pick
    INFO(c.args);
    const auto a = rows(scenario + c.args + " --sizes 1G:1G --mode analytic");
    const auto f = rows(scenario + c.args + " --sizes 1G:1G --mode flow");
    REQUIRE(f.size() == 1);
    CHECK(f[0]["algorithm"] == c.algorithm);
    CHECK(f[0]["time_s"].get<double>() == Approx(a[0]["time_s"].get<double>()).epsilon(0.02));
  }
  // The text table says which mode produced it.
  const auto table = run_dcsim("collective " + scenario + " --algo tree --mode flow --sizes 1M");
  CHECK(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("flow mode on the scenario's /fabric"));
}

TEST_CASE("dcsim collective --mode flow: 4:1 oversubscription slows tree all_reduce, which the "
          "closed form cannot see",
          "[cli][collective][flow]") {
  const std::string ideal = write_fabric_scenario(1.0);
  const std::string over = write_fabric_scenario(4.0);
  const std::string common = " --op all_reduce --algo tree --sizes 1G";
  const auto a = rows(over + common + " --mode analytic");
  const auto f = rows(ideal + common + " --mode flow");
  const auto o = rows(over + common + " --mode flow");
  CHECK(f[0]["time_s"].get<double>() == Approx(a[0]["time_s"].get<double>()).epsilon(0.02));
  // Spine-bound at 200 GB/s per leaf instead of NVLink-bound: about 1.95x
  // (tests/models/collective/flow_mode_algorithms_test.cpp computes it by hand).
  CHECK(o[0]["time_s"].get<double>() > 1.9 * f[0]["time_s"].get<double>());
  fs::remove(ideal);
  fs::remove(over);
}
