// The /faults section: every scripted fault in one list, whatever part it hits; the format
// before it (/fabric/faults, /facility/faults) still loads, with a notice.

#include <catch2/catch.hpp>

#include <string>

#include "sim/error.hpp"
#include "sim/trace_sink.hpp"
#include "tests/table_test_support.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

using dcsim::tools::scenario::load_scenario_json;
using dcsim::tools::scenario::Scenario;

namespace {

const dcsim::models::ModelRegistries& registries() {
  static const auto r = [] {
    dcsim::models::ModelRegistries x;
    dcsim::models::register_builtin_models(x);
    return x;
  }();
  return r;
}

Scenario load(const std::string& text) {
  return load_scenario_json(nlohmann::json::parse(text), "f.json", {}, std::nullopt, registries());
}

std::string load_errors(const std::string& text) {
  try {
    load(text);
  } catch (const dcsim::sim::InputErrors& e) {
    std::string all;
    for (const auto& m : e.messages()) all += m + "\n";
    return all;
  } catch (const dcsim::sim::InputError& e) {
    return std::string(e.what()) + "\n";
  }
  return "";
}

// Two 1-GPU nodes at P(u) = 150 + 500 u W (cluster_test_support.hpp's node), one 1-node job of
// 2 h of work arriving at 0 (it starts on node 0, the lowest free id).
const std::string kTwoNodes = R"(
  "cluster": {"nodes": 2, "nodes_per_rack": 1,
              "node": {"preset": "hgx-h100", "gpus": 1, "gpu_idle_power": "100 W", "gpu_max_power": "500 W",
                       "other_idle_power": "50 W", "other_max_power": "150 W"}},
  "workload": {"jobs": [{"name": "j", "nodes": 1, "work": "2 h"}]},)";

}  // namespace

TEST_CASE("a scripted node fault interrupts the job on the node, which comes back after its duration",
          "[scenario][faults]") {
  // Node 0 fails at 1 h for 30 min. requeue: the job starts over at once on node 1 (idle) after
  // its relaunch overhead (set to 0 here), so it ends at 1 h + 2 h = 3 h; node 0 is back at 1.5 h.
  const auto s = load(R"({"name": "n", "duration": "4 h",)" + kTwoNodes + R"(
    "policies": {"failover": "requeue", "failover_params": {"relaunch_overhead": "0 s"}},
    "faults": [{"at": "1 h", "kind": "node", "node": 0, "duration": "30 min"}]})");
  REQUIRE(s.node_faults.size() == 2);
  CHECK(s.node_faults[1].at == dcsim::sim::Time::from_s(5400));
  dcsim::sim::MemoryTraceSink sink;
  dcsim::tools::run::simulate(s, registries(), sink);
  const auto& faults = sink.table("node_faults");
  REQUIRE(faults.rows.size() == 2);
  CHECK(std::get<std::string>(faults.rows[0][1]) == "node_down");
  CHECK(std::get<double>(faults.rows[1][0]) == Approx(5400));
  CHECK(std::get<std::string>(faults.rows[1][1]) == "node_up");
  const auto& states = sink.table("job_states");
  bool interrupted = false;
  for (const auto& row : states.rows) {
    if (std::get<std::string>(row[3]) == "interrupted") {
      interrupted = true;
      CHECK(std::get<double>(row[0]) == Approx(3600));
      CHECK(std::get<std::string>(row[4]) == "scripted node fault");
    }
  }
  CHECK(interrupted);
  CHECK(std::get<double>(dcsim::tests::row_cell(sink, "summary/jobs", "j", "finish_s")) == Approx(3 * 3600));
}

TEST_CASE("a scripted job crash interrupts the node's job and leaves the node up", "[scenario][faults]") {
  const auto s = load(R"({"name": "c", "duration": "4 h",)" + kTwoNodes + R"(
    "policies": {"failover": "requeue", "failover_params": {"relaunch_overhead": "0 s"}},
    "faults": [{"at": "30 min", "kind": "job_crash", "node": 0}]})");
  dcsim::sim::MemoryTraceSink sink;
  dcsim::tools::run::simulate(s, registries(), sink);
  // Starts over at 30 min on node 0 (up, and the lowest free id): ends at 2.5 h.
  CHECK(std::get<double>(dcsim::tests::row_cell(sink, "summary/jobs", "j", "finish_s")) == Approx(2.5 * 3600));
  CHECK(sink.table("node_faults").rows.size() == 1);
}

TEST_CASE("the format before /faults loads: its entries move to /faults with a notice", "[scenario][faults]") {
  const auto s = load(R"({"name": "m", "duration": "1 h",)" + kTwoNodes + R"(
    "facility": {"faults": [{"kind": "cdu_pump_failure", "at": "10 min", "duration": "5 min"}]},
    "faults": [{"at": "1 min", "kind": "job_crash", "node": 1}]})");
  REQUIRE(s.notices.size() == 1);
  CHECK(s.notices[0] == "f.json: /facility/faults is the format before /faults: its entry is /faults/1 now "
                        "(move them there to silence this)");
  REQUIRE(s.facility);
  REQUIRE(s.facility->faults.size() == 1);
  CHECK(s.facility->faults[0].at == dcsim::sim::Time::from_s(600));
  CHECK(s.node_faults.size() == 1);
  CHECK_FALSE(s.given["facility"].contains("faults"));
}

TEST_CASE("a fault's keys must fit its kind, and its part must be in the scenario", "[scenario][faults][errors]") {
  CHECK(load_errors(R"({"name": "x",)" + kTwoNodes + R"( "faults": [{"at": "1 s", "kind": "job_crash", "node": 0,
                                                                     "duration": "1 min"}]})") ==
        "f.json:/faults/0/duration: a job_crash fault does not use `duration` (remove it)\n");
  CHECK(load_errors(R"({"name": "x",)" + kTwoNodes + R"( "faults": [{"at": "1 s", "kind": "node", "link": 3}]})") ==
        "f.json:/faults/0/link: a node fault does not use `link` (remove it)\n"
        "f.json:/faults/0/node: missing required key for a node fault\n");
  CHECK(load_errors(R"({"name": "x",)" + kTwoNodes + R"( "faults": [{"at": "1 s", "kind": "link", "link": 3}]})") ==
        "f.json:/faults/0/kind: a link fault needs the scenario's /fabric section, which is absent\n");
  CHECK(load_errors(R"({"name": "x",)" + kTwoNodes + R"( "faults": [{"at": "1 s", "kind": "node", "node": 0,
                                                                     "state": "up", "duration": "1 s"}]})") ==
        "f.json:/faults/0/duration: only a fault that goes down lasts a duration; this one has state \"up\"\n");
  CHECK(load_errors(R"({"name": "x",)" + kTwoNodes + R"( "faults": [{"at": "1 s", "kind": "node", "node": 2}]})") ==
        "f.json:/faults/0/node: expected a node below 2 (/cluster/nodes), got 2\n");
  CHECK(load_errors(R"({"name": "x",)" + kTwoNodes + R"( "faults": [{"at": "1 s", "kind": "meteor"}]})").find(
            "f.json:/faults/0/kind: unknown fault kind 'meteor'; valid: cdu_failure, cdu_pump_failure, chilled_water_rise, "
            "job_crash, link, nic_port, node, osd, osd_host, rdhx_fan_failure, silent_data_corruption, switch, "
            "zone_cooling_loss") == 0);
}
