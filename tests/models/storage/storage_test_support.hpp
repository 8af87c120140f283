#pragma once
// What the storage tests share (the object store, NVMe-oF): a front-end of six hosts whose
// links are far above any drive, and a run of a whole datacenter into a memory sink.

#include "models/datacenter/datacenter.hpp"
#include "models/network/fabric_run.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

namespace dcsim::tests {

// Two nodes (hosts 0-1) and four storage hosts (2-5) on a non-blocking front-end leaf-spine
// whose host links are 800 Gb/s (100 GB/s), far above the drives the tests give their stores,
// so the drives bind.
inline models::network::FabricRunConfig storage_frontend() {
  models::network::FabricRunConfig f;
  f.topology = "leaf_spine";
  f.topology_config.leaves = 3;
  f.topology_config.hosts_per_leaf = 2;
  f.topology_config.nics_per_node = 1;
  f.topology_config.links_per_node = 2;
  f.topology_config.bundle_parallel_links = true;
  f.topology_config.link_bandwidth_bps = 400e9;
  f.topology_config.nic_bandwidth_bps = 400e9;
  f.options.routing.mode = models::network::RoutingMode::kSpray;
  return f;
}

// Builds the datacenter, runs it to its end and finishes it, its outputs into `sink`.
inline void run_datacenter(models::datacenter::DatacenterConfig config, sim::MemoryTraceSink& sink) {
  sim::Simulator simulator;
  const auto registries = builtin();
  models::datacenter::Datacenter datacenter(std::move(config), registries, simulator, sink);
  datacenter.start();
  simulator.run();
  datacenter.finish();
}

}  // namespace dcsim::tests
