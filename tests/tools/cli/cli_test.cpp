// The dcsim executable as a user meets it: exit codes, messages, files.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

namespace {

using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::temp_path;

const std::string kSource = DCSIM_SOURCE_DIR;

}  // namespace

TEST_CASE("run writes trace.h5 and summary.json and prints the headline", "[cli]") {
  const auto out = temp_path("run");
  fs::remove_all(out);
  const auto r = run_dcsim("run " + kSource + "/scenarios/quickstart.json -o " + out.string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("IT energy"));
  CHECK(fs::exists(out / "trace.h5"));
  CHECK(fs::exists(out / "summary.json"));
  fs::remove_all(out);
}

TEST_CASE("the headline says what the store cost the jobs and what silent corruption did", "[cli]") {
  const auto out = temp_path("run-storage-headline");
  fs::remove_all(out);
  // osd-failure-restart: 3 saves on 12 hosts, one degraded restart read, one host lost.
  const auto r = run_dcsim("run " + kSource + "/scenarios/osd-failure-restart.json -o " + out.string() + " 2>/dev/null");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("storage     12 OSD hosts; 3 saves (p50 12.126 s, max 12.126 s), 1 restart "
                                       "reads; jobs waited"));
  CHECK_THAT(r.output, Catch::Contains("1 host failures, 0 OSD failures"));
  CHECK_THAT(r.output, !Catch::Contains("integrity"));  // nothing there can corrupt
  fs::remove_all(out);
  // One drive of host 5 instead of the whole host: counted as an OSD failure.
  const auto osd = run_dcsim("run " + kSource + "/scenarios/osd-failure-restart.json -o " + out.string() +
                             " --set 'faults=[{\"kind\": \"job_crash\", \"node\": 17, \"at\": \"31 min\"}, "
                             "{\"kind\": \"osd\", \"host\": 5, \"drive\": 3, \"at\": \"40 min\"}]' 2>/dev/null");
  REQUIRE(osd.exit_code == 0);
  CHECK_THAT(osd.output, Catch::Contains("0 host failures, 1 OSD failures"));
  fs::remove_all(out);
  const auto v = run_dcsim("run " + kSource + "/scenarios/sdc-verification.json -o " + out.string() +
                           " --set reliability.sdc_detection.probability=0 2>/dev/null");
  REQUIRE(v.exit_code == 0);
  CHECK_THAT(v.output, Catch::Contains("integrity   2 GPU corruptions reached 1 jobs: 0 caught, 1 missed"));
  CHECK_THAT(v.output, Catch::Contains("0 jobs ended on wrong state, 1 still on it"));
  fs::remove_all(out);
}

TEST_CASE("the headline gives each training job's speed and says plainly what did not finish", "[cli]") {
  const auto out = temp_path("run-training-headline");
  fs::remove_all(out);
  // The Llama 3 70B job needs 58 min; cut at 10 min it is still running: 600 s / 17.503 s = 34.3,
  // 34 whole steps done. (17.503 s: the NCCL size ramp and the LM head on the last stage only.)
  const auto cut = run_dcsim("run " + kSource + "/scenarios/llama3-70b-256-gpus.json -o " + out.string() +
                             " --set 'duration=\"10 min\"'");
  CHECK(cut.exit_code == 0);
  CHECK_THAT(cut.output, Catch::Contains("jobs        0 of 1 completed; mean wait 0.0 min; none completed"));
  CHECK_THAT(cut.output, Catch::Contains("not done    1 job still waiting or running when the run ended"));
  CHECK_THAT(cut.output, Catch::Contains("no job completed, so no makespan"));
  CHECK_THAT(cut.output, Catch::Contains("training    llama3-70b: step 17.503 s, 239.6k tokens/s") &&
                             Catch::Contains("MFU 45.5%; running (34 whole steps done)"));
  CHECK_THAT(cut.output, !Catch::Contains("makespan 0.0"));
  fs::remove_all(out);
  const auto whole = run_dcsim("run " + kSource + "/scenarios/llama3-70b-256-gpus.json -o " + out.string());
  CHECK(whole.exit_code == 0);
  CHECK_THAT(whole.output, Catch::Contains("MFU 45.5%; done, 200 steps"));
  CHECK_THAT(whole.output, !Catch::Contains("not done"));
  fs::remove_all(out);
}

TEST_CASE("export --csv writes a run's trace as CSV files - a file that is not a trace exits 2", "[cli]") {
  const auto out = temp_path("export-run");
  const auto csv = temp_path("export-csv");
  fs::remove_all(out);
  fs::remove_all(csv);
  REQUIRE(run_dcsim("run " + kSource + "/scenarios/quickstart.json -o " + out.string()).exit_code == 0);
  const auto r = run_dcsim("export " + (out / "trace.h5").string() + " --csv " + csv.string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("CSV files in"));
  CHECK(fs::exists(csv / "series" / "power" / "cluster_w.csv"));
  CHECK(fs::exists(csv / "events" / "jobs.csv"));
  CHECK(fs::exists(csv / "summary.csv"));
  const auto bad = run_dcsim("export " + kSource + "/scenarios/quickstart.json --csv " + csv.string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("cannot open trace"));
  CHECK(run_dcsim("export " + (out / "trace.h5").string()).exit_code == 2);  // --csv is required
  fs::remove_all(out);
  fs::remove_all(csv);
}

TEST_CASE("summary.json records the --set and --seed overrides that made the run", "[cli]") {
  const auto out = temp_path("run-overrides");
  fs::remove_all(out);
  const auto r = run_dcsim("run " + kSource + "/scenarios/quickstart.json -o " + out.string() +
                           " --set cluster.nodes=9 --seed 5 -q");
  REQUIRE(r.exit_code == 0);
  std::ifstream in(out / "summary.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("\"overrides\": [\n    \"cluster.nodes=9\",\n    \"seed=5\"\n  ]"));
  CHECK_THAT(text, Catch::Contains("\"seed\": 5"));
  fs::remove_all(out);
}

TEST_CASE("validate exits 2 and names the JSON pointer of a bad key", "[cli]") {
  const auto file = temp_path("bad.json");
  std::ofstream(file) << R"({"name": "x", "cluster": {"nodes": 2, "nodez": 3}})";
  const auto r = run_dcsim("validate " + file.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains(file.string() + ":/cluster/nodez: unknown key"));
  fs::remove(file);
}

TEST_CASE("run with a bad scenario exits 2 and writes nothing", "[cli]") {
  const auto out = temp_path("bad-run");
  fs::remove_all(out);
  const auto r = run_dcsim("run " + kSource + "/scenarios/quickstart.json -o " + out.string() +
                       " --set cluster.nodes=-2");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("/cluster/nodes: expected a positive integer, got -2"));
  CHECK(!fs::exists(out / "summary.json"));
  CHECK(!fs::exists(out / "trace.h5"));
  fs::remove_all(out);
}

TEST_CASE("usage errors exit 2 - --help and --version exit 0", "[cli]") {
  CHECK(run_dcsim("").exit_code == 2);
  CHECK(run_dcsim("frobnicate").exit_code == 2);
  CHECK(run_dcsim("run").exit_code == 2);
  CHECK(run_dcsim("run --help").exit_code == 0);
  const auto v = run_dcsim("--version");
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.output, Catch::StartsWith("dcsim "));
  CHECK(run_dcsim("validate /nonexistent/scenario.json").exit_code == 2);
}

TEST_CASE("list shows every registry with descriptions - unknown kinds are errors", "[cli]") {
  const auto r = run_dcsim("list");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("fifo") && Catch::Contains("hgx-h100"));
  CHECK(run_dcsim("list scheduler --json").exit_code == 0);
  const auto bad = run_dcsim("list gizmo");
  CHECK(bad.exit_code == 2);
  // Every registry (this case never ran under ctest while its name held a ';', and missed three).
  CHECK_THAT(bad.output, Catch::Contains("valid: node preset, gpu preset, scheduler, failover policy, topology, switch "
                                         "preset, collective algorithm, training model, cooling control, inference "
                                         "router, autoscaler, power capping, cloud offer, egress tariff, node price, "
                                         "fabric prices, site prices"));
}

TEST_CASE("bench fabric takes a max-min precision and refuses one out of range", "[cli]") {
  const auto r = run_dcsim("bench fabric --case fattree16-random-1000 --precision 1e-2 --json");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("\"max_min_precision\": 0.01"));
  CHECK_THAT(r.output, Catch::Contains("\"mean_fct_s\""));
  const auto bad = run_dcsim("bench fabric --case fattree16-random-1000 --precision 0.5");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("--precision: expected a number from 1e-9 to 1e-2, got 0.5"));
}

TEST_CASE("bench fabric runs random flows on a fat-tree of any even k and names what is wrong", "[cli]") {
  const auto r = run_dcsim("bench fabric --case fattree8-random-300 --json");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("\"hosts\": 128") && Catch::Contains("\"flows\": 300") &&
                           Catch::Contains("\"setup_s\""));
  const auto odd = run_dcsim("bench fabric --case fattree7-random-300");
  CHECK(odd.exit_code == 2);
  CHECK_THAT(odd.output, Catch::Contains("fattree7-random-300': fat-tree k must be even, 4 to 128"));
  const auto none = run_dcsim("bench fabric --case fattree8-random-0");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.output, Catch::Contains("flows must be 1 to 10,000,000"));
  const auto typo = run_dcsim("bench fabric --case fattree8-random-30x");
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.output, Catch::Contains("or fattreeK-random-F"));
}

TEST_CASE("bench engine prints the documented JSON fields", "[cli]") {
  const auto r = run_dcsim("bench engine --pending 1000 --events 20000 --json");
  CHECK(r.exit_code == 0);
  for (const char* key : {"\"pending\"", "\"events\"", "\"engine_events_per_s\"", "\"heap_events_per_s\"", "\"ratio\""}) {
    CHECK_THAT(r.output, Catch::Contains(key));
  }
}

TEST_CASE("bench storage writes one 16384-GPU checkpoint no faster than the store's drives allow", "[cli]") {
  const auto r = run_dcsim("bench storage --json 2>/dev/null");
  REQUIRE(r.exit_code == 0);
  const auto cases = nlohmann::json::parse(r.output);
  REQUIRE(cases.size() == 1);
  const auto& c = cases[0];
  CHECK(c["name"] == "checkpoint-16384-gpus");
  CHECK(c["flows"].get<double>() > 2048.0 * 100);  // a flow per (client, primary host), plus the forwards
  // 405e9 parameters x 14 B over 800 drives x 3.5 GB/s / 3 replicas: 6.08 s is the drives' bound;
  // placement imbalance (the busiest drive sets the pace) makes it somewhat longer, never shorter.
  const double bound_s = 405e9 * 14 / (800 * 3.5e9 / 3);
  CHECK(c["checkpoint_write_s"].get<double>() >= bound_s * 0.99);
  CHECK(c["checkpoint_write_s"].get<double>() < bound_s * 1.4);
}

TEST_CASE("export --csv: the facility events' value column says its unit, row by row", "[cli]") {
  // events/facility.csv had `value` without a unit, while it holds powers, temperatures and
  // fractions by kind: each row now carries its value's unit.
  const auto out = temp_path("export-facility");
  const auto csv = temp_path("export-facility-csv");
  fs::remove_all(out);
  fs::remove_all(csv);
  REQUIRE(run_dcsim("run " + kSource + "/scenarios/cooling-failure.json -q -o " + out.string()).exit_code == 0);
  REQUIRE(run_dcsim("export " + (out / "trace.h5").string() + " --csv " + csv.string()).exit_code == 0);
  std::ifstream in(csv / "events" / "facility.csv");
  std::string header;
  std::getline(in, header);
  CHECK(header == "time_s [s],kind,zone,rack,node,value [see unit],unit,detail");
  std::map<std::string, std::string> unit_of;  // kind -> unit
  for (std::string line; std::getline(in, line);) {
    const auto kind_end = line.find(',', line.find(',') + 1);
    const std::string kind = line.substr(line.find(',') + 1, kind_end - line.find(',') - 1);
    std::size_t at = kind_end;
    for (int i = 0; i < 4; ++i) at = line.find(',', at + 1);  // past zone, rack, node, value
    unit_of[kind] = line.substr(at + 1, line.find(',', at + 1) - at - 1);
  }
  CHECK(unit_of.at("power_spike") == "W");
  CHECK(unit_of.at("cdu_pump_failure") == "fraction");
  CHECK(unit_of.at("thermal_slowdown") == "C");
  fs::remove_all(out);
  fs::remove_all(csv);
}

// Issue 37 item 2: validate and run resolve the same automatic plan, and show it where users look.
TEST_CASE("validate prints an automatic plan and the run's summary records the same one", "[cli][plan]") {
  const auto file = temp_path("auto-plan.json");
  std::ofstream(file) << R"({"name": "auto", "cluster": {"nodes": 4},
    "workload": {"training": [{"name": "llama", "model": "llama3-8b", "nodes": 4, "global_batch": 64,
                               "steps": 2, "parallelism": {"auto": true}}]}})";
  const auto v = run_dcsim("validate " + file.string());
  REQUIRE(v.exit_code == 0);
  const auto at = v.output.find("  training llama: auto plan ");
  REQUIRE(at != std::string::npos);
  const auto start = at + std::string("  training llama: auto plan ").size();
  const std::string plan = v.output.substr(start, v.output.find(" (", start) - start);
  const auto out = temp_path("auto-plan-run");
  fs::remove_all(out);
  REQUIRE(run_dcsim("run " + file.string() + " -o " + out.string() + " -q").exit_code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  const auto& p = summary.at("training").at("plans").at("llama");
  CHECK(p.at("plan") == plan);
  CHECK(p.at("plans_evaluated").get<int>() > 1);
  CHECK(p.at("plans_enumerated").get<int>() > p.at("plans_evaluated").get<int>());
  fs::remove_all(out);
  fs::remove(file);
}
