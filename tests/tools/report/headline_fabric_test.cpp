// The headline's fabric lines: a fabric built for more hosts than the cluster has nodes is
// priced as built, and the headline says so under its bill of materials.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tools/report/headline.hpp"

using dcsim::tools::report::headline_facts_from_resolved;
using dcsim::tools::report::headline_lines;

namespace {

std::vector<std::string> fabric_texts(double cluster_nodes, double fabric_hosts) {
  nlohmann::json resolved = {{"name", "x"}, {"fabric", {{"topology", "fat_tree"}}}};
  if (cluster_nodes > 0) resolved["cluster"] = {{"nodes", cluster_nodes}};
  const auto facts = headline_facts_from_resolved(resolved, 1);
  const nlohmann::json summary = {{"network", {{"hosts", fabric_hosts}, {"switches", 96}, {"cables", 4096}}}};
  std::vector<std::string> out;
  bool in_fabric = false;
  for (const auto& line : headline_lines(facts, summary)) {
    if (line.label == "fabric") in_fabric = true;
    else if (!line.label.empty()) in_fabric = false;
    if (in_fabric) out.push_back(line.text);
  }
  return out;
}

}  // namespace

TEST_CASE("the headline says when the fabric has more hosts than the cluster has nodes", "[report][headline]") {
  // The full k=64 two-tier tree (256 HGX nodes' ports) for a 128-node cluster.
  const auto lines = fabric_texts(128, 256);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == "built for 256 hosts, 128 of them cluster nodes: the other 128 are priced as built");
  // Sized to the cluster, or a fabric-only run: nothing to say.
  CHECK(fabric_texts(128, 128).size() == 1);
  CHECK(fabric_texts(0, 256).size() == 1);
}
