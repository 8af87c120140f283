// The cluster's check of NVLink domains (models/cluster/cluster_config.cpp): a domain is whole
// nodes and a cluster whole domains, so every domain-aligned TP group exists.

#include <catch2/catch.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/hardware/node_presets.hpp"
#include "sim/error.hpp"

using dcsim::models::cluster::ClusterConfig;

TEST_CASE("an NVL72 cluster is whole 18-tray domains of whole trays", "[models][cluster]") {
  ClusterConfig c;
  c.node = dcsim::models::hardware::gb200_nvl72_tray();
  c.nodes = 36;  // two racks
  CHECK_NOTHROW(validate(c));
  c.nodes = 20;  // a rack and 2 trays of another
  CHECK_THROWS_WITH(validate(c), Catch::Contains("whole NVLink domains of 18 nodes (72 GPUs), got 20"));
  c.nodes = 18;
  c.node.gpus = 16;  // 72 is not whole nodes of 16
  CHECK_THROWS_WITH(validate(c), Catch::Contains("multiple of the node's 16 GPUs"));
  // HGX: the domain is the node, so any node count is whole domains.
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = 3;
  CHECK_NOTHROW(validate(c));
}
