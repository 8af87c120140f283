#pragma once
// A store under test (object_store_test.cpp, aggregate_resolution_test.cpp): client hosts and
// OSD hosts under one switch, and runs of one operation to its end.

#include <memory>
#include <utility>
#include <vector>

#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "models/storage/object_store.hpp"
#include "sim/simulator.hpp"

namespace dcsim::tests {

// `clients` client hosts then `osd_hosts` OSD hosts under one switch, 100 Gb/s (12.5 GB/s)
// links, no latency.
struct StoreBench {
  sim::Simulator sim;
  std::unique_ptr<models::network::Fabric> fabric;
  std::unique_ptr<models::network::FabricSimulation> net;
  std::unique_ptr<models::storage::ObjectStore> store;

  StoreBench(int clients, int osd_hosts, models::storage::StoreConfig config) {
    models::network::TopologyConfig t;
    t.leaves = 1;
    t.hosts_per_leaf = clients + osd_hosts;
    t.link_bandwidth_bps = 100e9;
    t.link_latency_ns = 0;
    fabric = std::make_unique<models::network::Fabric>(models::network::build_leaf_spine(t),
                                                       models::network::FabricOptions{});
    net = std::make_unique<models::network::FabricSimulation>(sim, *fabric, nullptr);
    config.hosts.clear();
    for (int h = 0; h < osd_hosts; ++h) config.hosts.push_back(static_cast<std::uint32_t>(clients + h));
    store = std::make_unique<models::storage::ObjectStore>(sim, *net, config);
  }
  // Runs one operation to its end; returns its duration in seconds (negative when it failed).
  double run_write(std::vector<models::storage::ObjectStore::ClientShare> clients, int pool = 0) {
    const sim::Time start = sim.now();
    double took = 0.0;
    store->write(pool, std::move(clients), [&](bool ok) { took = ok ? (sim.now() - start).seconds() : -1.0; });
    sim.run();
    return took;
  }
  double run_read(std::vector<models::storage::ObjectStore::ClientShare> clients, int pool = 0) {
    const sim::Time start = sim.now();
    double took = 0.0;
    store->read(pool, std::move(clients), [&](bool ok) { took = ok ? (sim.now() - start).seconds() : -1.0; });
    sim.run();
    return took;
  }
  // Bytes the drives read, and how many hosts they came from.
  std::pair<double, int> drive_bytes_read() const {
    double sum = 0.0;
    int hosts = 0;
    for (std::size_t h = 0; h < store->config().hosts.size(); ++h) {
      const double read = fabric->resource_bytes(store->drive_read_resource(static_cast<int>(h)));
      sum += read;
      hosts += read > 0 ? 1 : 0;
    }
    return {sum, hosts};
  }
  double drive_bytes_written() const {
    double sum = 0.0;
    for (std::size_t h = 0; h < store->config().hosts.size(); ++h) {
      sum += fabric->resource_bytes(store->drive_write_resource(static_cast<int>(h)));
    }
    return sum;
  }
};

}  // namespace dcsim::tests
