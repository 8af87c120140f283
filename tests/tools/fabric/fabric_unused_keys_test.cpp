// Keys the chosen topology does not read are never silently ignored (fabric_key_check.hpp): an
// error with pointer, value and readers when --set gave them.

#include <catch2/catch.hpp>

#include "fabric_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/fabric_key_check.hpp"

using namespace dcsim::tools;
using namespace dcsim::tools::fabric_testing;

namespace {
std::string override_errors(const std::string& text, const std::vector<std::string>& overrides) {
  try {
    load(text, "s.json", overrides);
  } catch (const dcsim::sim::InputErrors& e) {
    std::string out;
    for (const auto& m : e.messages()) out += m + "\n";
    return out;
  }
  return "";
}
}  // namespace

TEST_CASE("a --set of a key the topology does not read is an error at its pointer", "[tools][fabric][scenario][errors]") {
  const std::string fat_tree = R"({"name": "x", "fabric": {"topology": "fat_tree", "k": 4}})";
  // The issue's case: oversubscription on a fat-tree changed nothing and said nothing.
  CHECK(override_errors(fat_tree, {"fabric.oversubscription=4"}) ==
        "s.json:/fabric/oversubscription: fat_tree does not use oversubscription (got 4); it is read by "
        "leaf_spine, rail_optimized: drop the --set or choose one of those topologies\n");
  CHECK(override_errors(fat_tree, {"fabric.dims=[4,4]"}).find("s.json:/fabric/dims: fat_tree does not use dims "
                                                              "(got [4,4]); it is read by mesh, torus") == 0);
  // Direct topologies have no switches.
  CHECK(override_errors(R"({"name": "x", "fabric": {"topology": "torus"}})", {"fabric.switch_latency=\"1 us\""})
            .find("s.json:/fabric/switch_latency: torus does not use switch_latency") == 0);
  // A key the topology reads is fine.
  CHECK(override_errors(fat_tree, {"fabric.k=8"}).empty());
}

TEST_CASE("a key the file states for another topology is accepted, so --set can switch topology",
          "[tools][fabric][scenario]") {
  const std::string text = R"({"name": "x", "fabric": {"topology": "fat_tree", "k": 4, "dims": [4, 4]}})";
  CHECK(load(text).fabric->topology == "fat_tree");
  CHECK(load(text, "s.json", {"fabric.topology=torus"}).fabric->topology == "torus");
}

TEST_CASE("the key table says which topology reads which key", "[tools][fabric][scenario]") {
  const auto use = scenario::topology_key_use(registries().topologies);
  CHECK(use.at("oversubscription") == std::vector<std::string>{"leaf_spine", "rail_optimized"});
  CHECK(use.at("dims") == std::vector<std::string>{"mesh", "torus"});
  CHECK(use.at("nics_per_node").size() == 6);  // every builder wires NICs
  CHECK(use.at("switch_latency") == std::vector<std::string>{"fat_tree", "leaf_spine", "rail_optimized"});
}
