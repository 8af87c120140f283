// A misspelt key gets the key it most likely meant, and only when one is close: the edit distance
// counts each inserted, deleted, replaced or swapped letter.
#include <catch2/catch.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/did_you_mean.hpp"
#include "tools/scenario/input_reader.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

TEST_CASE("edit distance counts insertions, deletions, replacements and swaps", "[tools][scenario][did_you_mean]") {
  CHECK(edit_distance("nodes", "nodes") == 0);
  CHECK(edit_distance("nodez", "nodes") == 1);  // one replaced
  CHECK(edit_distance("node", "nodes") == 1);   // one missing
  CHECK(edit_distance("ndoes", "nodes") == 1);  // two neighbours swapped: one slip, not two
  CHECK(edit_distance("Nodes", "nodes") == 0);  // case is no distance
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);  // k->s, e->i, +g
}

TEST_CASE("a guess only when one candidate is close and nearest", "[tools][scenario][did_you_mean]") {
  const std::vector<std::string> keys = {"node", "nodes", "nodes_per_rack", "gpu_phase_power", "cloud_pool"};
  CHECK(did_you_mean("nodez", keys) == " did you mean 'nodes'?");
  CHECK(did_you_mean("nodes_per_rak", keys) == " did you mean 'nodes_per_rack'?");
  CHECK(did_you_mean("gpu_phse_powr", keys) == " did you mean 'gpu_phase_power'?");  // 2 edits in 13 letters
  CHECK(did_you_mean("racks", keys).empty());   // 5 letters, nothing within 1 edit
  CHECK(did_you_mean("nodds", {"nodes", "nodss"}).empty());  // two as near: no guess
  CHECK(did_you_mean("k", {"j", "tp"}).empty());  // a one-letter key: every edit is another word
  CHECK(did_you_mean("K", {"k"}) == " did you mean 'k'?");
  CHECK_FALSE(closest_name("nodes", {"nodes"}));  // valid already
}

TEST_CASE("unknown keys and names in a scenario get a guess", "[tools][scenario][did_you_mean]") {
  const auto registries = testing::make_registries();
  const auto errors_of = [&](const json& doc) {
    try {
      load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
    } catch (const sim::InputErrors& e) {
      return e.messages();
    }
    return std::vector<std::string>{};
  };
  const auto messages = errors_of(json::parse(R"({"name": "t", "cluster": {"nodez": 2, "gpux": 1},
      "policies": {"scheduler": "fifoo"}})"));
  for (const auto& m : messages) UNSCOPED_INFO(m);
  REQUIRE(messages.size() == 4);  // and /cluster/nodes is missing
  CHECK_THAT(messages[0], Catch::StartsWith("t.json:/cluster/gpux: unknown key; valid keys here: "));  // none close
  CHECK_THAT(messages[1], Catch::StartsWith("t.json:/cluster/nodez: unknown key; did you mean 'nodes'? valid keys "
                                            "here: cloud_pool, gpu_phase_power, node, nodes, nodes_per_rack"));
  CHECK_THAT(messages[3], Catch::StartsWith("t.json:/policies/scheduler: unknown scheduler 'fifoo'; did you mean "
                                            "'fifo'? valid: "));
}

TEST_CASE("unknown keys of sweep and expectations files get a guess", "[tools][scenario][did_you_mean]") {
  InputReader r("e.json", ".");
  r.only_keys(json::parse(R"({"nmae": 1, "runs": 2})"), "", {"name", "runs"});
  CHECK_THROWS_WITH(r.flush(), "e.json:/nmae: unknown key; did you mean 'name'? valid keys here: name, runs");
}
