#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "models/power/switch_power.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "scenario_test_support.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

using testing::with_facility;
using testing::load_doc;

TEST_CASE("facility network: switches without a fabric count as IT power", "[tools][scenario][facility]") {
  const auto none = load_doc(with_facility(json::object()));
  CHECK(none.facility->network_power_w == 0.0);
  const auto some = load_doc(with_facility({{"network", {{"switches", 2}, {"active_ports", 32}, {"port_speed", "400 Gb/s"}}}}));
  CHECK(some.facility->network_switches == 2);
  CHECK(some.facility->network_power_w == Approx(2 * models::power::switch_power_w({}, 32, 400e9)));
}

TEST_CASE("facility network: a fabric section's switches are counted from its topology",
          "[tools][scenario][facility]") {
  // k=4 fat-tree: 20 switches of 4 cabled 400G ports each (80 ports).
  json doc = json::parse(R"({"name": "f", "fabric": {"topology": "fat_tree", "k": 4,
                             "link_bandwidth_bps": "400 Gbps"}})");
  doc["cluster"] = {{"nodes", 16}, {"nodes_per_rack", 4}};
  doc["workload"] = {{"jobs", json::array({{{"name", "a"}, {"work", "1 h"}}})}};
  doc["facility"] = json::object();
  const auto s = load_doc(doc);
  REQUIRE(s.facility);
  CHECK(s.facility->network_switches == 20);
  CHECK(s.facility->network_active_ports == 80);
  CHECK(s.facility->network_power_w == Approx(20 * 400.0 + 80 * 11.0));
  doc["facility"] = {{"network", {{"switches", 3}}}};
  CHECK_THROWS_WITH(load_doc(doc), Catch::Contains("/facility/network/switches"));
}

TEST_CASE("facility network: a front-end network's switches add to the fabric's", "[tools][scenario][facility]") {
  // Backend: the k=4 fat-tree above (20 switches, 80 cabled 400G ports). Front-end: one leaf of
  // 16 hosts x 2 storage NICs at 400G, non-blocking: 32 uplinks to 2 named spines of 16 ports,
  // so 3 switches and 32 + 32 + 32 = 96 cabled ports.
  json doc = json::parse(R"({"name": "f", "fabric": {"topology": "fat_tree", "k": 4,
                             "link_bandwidth_bps": "400 Gbps"},
                             "frontend": {"topology": "leaf_spine", "leaves": 1, "hosts_per_leaf": 16, "spines": 2,
                             "link_bandwidth_bps": "400 Gbps"}})");
  doc["cluster"] = {{"nodes", 16}, {"nodes_per_rack", 4}};
  doc["workload"] = {{"jobs", json::array({{{"name", "a"}, {"work", "1 h"}}})}};
  doc["facility"] = json::object();
  const auto s = load_doc(doc);
  REQUIRE(s.facility);
  CHECK(s.facility->network_switches == 20 + 3);
  CHECK(s.facility->network_active_ports == 80 + 96);
  CHECK(s.facility->network_power_w == Approx(23 * 400.0 + 176 * 11.0));
}
