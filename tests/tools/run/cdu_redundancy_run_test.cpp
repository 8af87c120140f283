// scenarios/cdu-redundancy.json through the whole stack: the same CDU loss in an N+1 row and in
// a row without a spare (issue 15, item 13), and a shortfall that is one episode, not a flicker.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "tests/tools/run/run_test_support.hpp"

using dcsim::test::RunOutputs;
using dcsim::test::run_scenario_json;

TEST_CASE("cdu-redundancy: only the row without a spare heats, in one shortfall episode that names it",
          "[tools][run][facility]") {
  std::ifstream in(std::string(DCSIM_SOURCE_DIR) + "/scenarios/cdu-redundancy.json");
  const auto r = run_scenario_json(nlohmann::json::parse(in));
  // row-a: 2 racks' 2 kg/s from 1 kg/s CDUs plus a spare; row-b: the 2 it needs.
  CHECK(r->number("thermal/zone/row-a/cdus") == 3.0);
  CHECK(r->number("thermal/zone/row-b/cdus") == 2.0);
  // One CDU of each row out: row-a still gets its rated flow (the shipped D2C zone's 69.7 C),
  // row-b half of it, and its GPUs reach the max operating temperature and slow down.
  CHECK(r->number("thermal/zone/row-a/max_gpu_c") < 75.0);
  CHECK(r->number("thermal/zone/row-b/max_gpu_c") > 87.0);
  CHECK(r->number("thermal/throttled_gpu_s") > 0.0);
  // The dies throttling holds at 87 C dip below it every few seconds; the shortfall still is
  // one episode, from the first crossing to the repair at 3 h.
  int starts = 0;
  for (const auto& row : r->sink.table("facility").rows) {
    if (std::get<std::string>(row[1]) == "cooling_shortfall") ++starts;
  }
  CHECK(starts == 1);
  const auto warning = std::get<std::string>(r->sink.summary("facility/cooling_warning").value);
  CHECK_THAT(warning, Catch::Contains("zone row-b: 1 of 2 CDUs out of service"));
  CHECK_THAT(warning, !Catch::Contains("row-a"));
}

TEST_CASE("a plant fault's zone the facility lacks is reported at its /faults entry", "[tools][run][facility]") {
  // The model numbers plant faults among themselves; the entry in /faults is where the user fixes
  // it. A node fault first makes the two numberings differ: the plant fault is faults[0] to the
  // model, /faults/1 in the file.
  std::ifstream in(std::string(DCSIM_SOURCE_DIR) + "/scenarios/cdu-redundancy.json");
  auto doc = nlohmann::json::parse(in);
  doc["faults"][0]["zone"] = 5;
  doc["faults"].insert(doc["faults"].begin(),
                       nlohmann::json{{"kind", "node"}, {"node", 0}, {"at", "2 h"}, {"duration", "1 h"}});
  CHECK_THAT(dcsim::test::input_error_of(doc),
             Catch::StartsWith("<test>:/faults/1/zone: must name a zone") && Catch::Contains("got 5"));
}
