#include <catch2/catch.hpp>

#include "models/network/bill_of_materials.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim::models::network;

TEST_CASE("bill of materials of a k=4 fat-tree, counted by hand", "[models][network][bom]") {
  TopologyConfig c;
  c.k = 4;  // defaults: 100 Gb/s, host cables 2 m, switch cables 20 m
  const BillOfMaterials bom = bill_of_materials(build_fat_tree(c));
  // k^3/4 = 16 hosts; k^2/2 = 8 edge, 8 aggregation, k^2/4 = 4 core switches, all radix k = 4
  // and fully wired (a fat-tree uses every port): 20 x 4 = 80 ports.
  CHECK(bom.hosts == 16);
  REQUIRE(bom.switches.size() == 3);
  for (int tier = 1; tier <= 3; ++tier) {
    const SwitchBomLine& s = bom.switches[static_cast<std::size_t>(tier - 1)];
    CHECK(s.tier == tier);
    CHECK(s.radix == 4);
    CHECK(s.count == (tier == 3 ? 4 : 8));
    CHECK(s.ports_used == s.ports_total);
  }
  CHECK(bom.switch_count == 20);
  CHECK(bom.switch_ports_used == 80);
  CHECK(bom.switch_ports_total == 80);
  // 16 host cables (2 m: DAC) + 16 edge-aggregation + 16 aggregation-core (20 m: AOC) = 48;
  // 80 switch ports + 16 host ports = 96 cable ends = 2 x 48, as it must.
  CHECK(bom.cable_count == 48);
  REQUIRE(bom.cables.size() == 3);
  CHECK(bom.cables[0].tier == 0);
  CHECK(bom.cables[0].media == "DAC");
  CHECK(bom.cables[0].count == 16);
  CHECK(bom.cables[0].total_length_m == Approx(32.0));
  CHECK(bom.cables[1].media == "AOC");
  CHECK(bom.cables[1].count == 16);
  CHECK(bom.cables[2].count == 16);
  CHECK(bom.cable_length_m == Approx(16 * 2.0 + 32 * 20.0));
  CHECK(bom.transceiver_count == 0);  // nothing beyond 30 m
  REQUIRE(bom.nics.size() == 1);
  CHECK(bom.nics[0].speed_bps == 100e9);
  CHECK(bom.nic_ports == 16);  // one single-port NIC per host
}

TEST_CASE("bill of materials: long cables are optics with two transceivers each", "[models][network][bom]") {
  TopologyConfig c;
  c.k = 4;
  c.switch_cable_m = 50.0;  // beyond AOC reach
  const BillOfMaterials bom = bill_of_materials(build_fat_tree(c));
  // The 32 switch-to-switch cables become optics: 64 transceivers; host cables stay DAC.
  CHECK(bom.transceiver_count == 64);
  CHECK(bom.cables[1].media == "optics");
}

TEST_CASE("bill of materials of a torus: no switches, neighbour ports only", "[models][network][bom]") {
  TopologyConfig c;
  c.dims = {4, 6};
  c.links_per_node = 2;  // two cables per neighbour, bundled into one 200 Gb/s link
  const BillOfMaterials bom = bill_of_materials(build_torus(c));
  // 24 nodes, 4 neighbours each: 24 x 4 / 2 = 48 neighbour pairs, 2 cables each = 96 cables;
  // each node has 4 x 2 = 8 ports of 100 Gb/s (the bundle is counted per cable, not as one
  // 200 Gb/s port): 192 NIC ports = 2 x 96 cable ends.
  CHECK(bom.switch_count == 0);
  CHECK(bom.switches.empty());
  CHECK(bom.cable_count == 96);
  REQUIRE(bom.nics.size() == 1);
  CHECK(bom.nics[0].speed_bps == 100e9);
  CHECK(bom.nic_ports == 192);
  REQUIRE(bom.cables.size() == 1);
  CHECK(bom.cables[0].media == "DAC");  // 2 m host cables
}

TEST_CASE("bill of materials is emitted as a table and summary scalars", "[models][network][bom]") {
  TopologyConfig c;
  c.k = 4;
  dcsim::sim::MemoryTraceSink sink;
  emit_bill_of_materials(bill_of_materials(build_fat_tree(c)), sink);
  // 3 switch lines + 3 cable lines + 1 NIC line.
  CHECK(sink.table("network/bom").rows.size() == 7);
  CHECK(std::get<std::int64_t>(sink.summary("network/switches").value) == 20);
  CHECK(std::get<std::int64_t>(sink.summary("network/cables").value) == 48);
  CHECK(std::get<std::int64_t>(sink.summary("network/nic_ports").value) == 16);
}
