#include <catch2/catch.hpp>

#include "models/reliability/fault_class.hpp"
#include "models/reliability/inventory.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::reliability;

TEST_CASE("component paths are built from the instance index", "[models][reliability][inventory]") {
  Inventory inv;
  inv.nodes = 16;
  inv.gpus_per_node = 8;
  inv.nics_per_node = 4;
  inv.links = 1000;
  inv.switches = 10;
  inv.zones = 2;
  // GPU 12 * 8 + 3 = 99 is node 12's GPU 3.
  CHECK(inv.path(ComponentKind::kGpu, 12 * 8 + 3) == "node/12/gpu/3");
  CHECK(inv.node_of(ComponentKind::kGpu, 12 * 8 + 3) == 12);
  // NIC 12 * 4 + 1 = 49 is node 12's NIC 1 (4 NICs per node here).
  CHECK(inv.path(ComponentKind::kNic, 49) == "node/12/nic/1");
  CHECK(inv.node_of(ComponentKind::kNic, 49) == 12);
  CHECK(inv.path(ComponentKind::kNode, 15) == "node/15");
  CHECK(inv.path(ComponentKind::kLink, 881) == "fabric/link/881");
  CHECK(inv.path(ComponentKind::kSwitch, 5) == "fabric/switch/5");
  CHECK(inv.path(ComponentKind::kZone, 0) == "facility/zone/0");
  CHECK(inv.node_of(ComponentKind::kLink, 881) == -1);
  CHECK(inv.node_of(ComponentKind::kZone, 0) == -1);
  CHECK(inv.count(ComponentKind::kGpu) == 128);
  CHECK(inv.count(ComponentKind::kNic) == 64);
  CHECK_THROWS_AS(inv.path(ComponentKind::kGpu, 128), dcsim::sim::InternalError);
}

TEST_CASE("a 131,072-GPU inventory names its last GPU without storing any path",
          "[models][reliability][inventory]") {
  Inventory inv;
  inv.nodes = 16384;
  CHECK(inv.count(ComponentKind::kGpu) == 131072);
  CHECK(inv.path(ComponentKind::kGpu, 131071) == "node/16383/gpu/7");
}

TEST_CASE("component and effect names round-trip, and effects apply only to their components",
          "[models][reliability][inventory]") {
  for (const auto& n : component_names()) CHECK(std::string(component_name(*parse_component(n))) == n);
  for (const auto& n : effect_names()) CHECK(std::string(effect_name(*parse_effect(n))) == n);
  CHECK_FALSE(parse_component("rack").has_value());
  CHECK_FALSE(parse_effect("explode").has_value());
  CHECK(effect_applies_to(FaultEffect::kNodeDown, ComponentKind::kGpu));
  CHECK(effect_applies_to(FaultEffect::kJobCrash, ComponentKind::kNode));
  CHECK_FALSE(effect_applies_to(FaultEffect::kLinkDown, ComponentKind::kGpu));
  CHECK_FALSE(effect_applies_to(FaultEffect::kNodeDown, ComponentKind::kSwitch));
  CHECK(effect_applies_to(FaultEffect::kZoneCoolingLoss, ComponentKind::kZone));
}
