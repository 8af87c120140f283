// NVMe over Fabrics (models/storage/nvmeof_targets.hpp): each mechanism binds in its own case,
// solved by hand in its comment. Two leaves of two hosts under one spine, 100 Gb/s links
// (12.5e9 B/s), no latency: hosts 0, 1 on leaf 0, hosts 2, 3 on leaf 1; host 3 is the target.

#include <catch2/catch.hpp>

#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "models/storage/nvmeof_targets.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"

using namespace dcsim::models;
using dcsim::sim::Simulator;

namespace {

network::Topology two_leaves() {
  network::TopologyConfig c;
  c.leaves = 2;
  c.hosts_per_leaf = 2;
  c.link_bandwidth_bps = 100e9;
  c.link_latency_ns = 0;
  return network::build_leaf_spine(c);
}

// One target (host 3) of one drive; the drive, the queue and the cores far from binding unless a
// case lowers them.
storage::NvmeofConfig base() {
  storage::NvmeofConfig c;
  c.targets = {3};
  c.drives_per_target = 1;
  c.drive.write_bytes_per_s = 1e12;
  c.drive.read_bytes_per_s = 1e12;
  c.queue_depth = 4096;
  return c;
}

struct Run {
  Simulator sim;
  network::Fabric fabric{two_leaves(), network::FabricOptions{}};
  network::FabricSimulation driver{sim, fabric, nullptr};
  storage::NvmeofTargets targets;
  double done_s = -1.0;
  bool ok = false;
  explicit Run(storage::NvmeofConfig c) : targets(driver, std::move(c)) {}
  void go(bool write, std::vector<int> nodes, double bytes) {
    auto done = [this](bool k) {
      ok = k;
      done_s = sim.now().seconds();
    };
    if (write) targets.write(nodes, bytes, done);
    else targets.read(nodes, bytes, done);
    sim.run();
  }
};

}  // namespace

TEST_CASE("nvmeof: a node writes at its link's rate when nothing else binds", "[models][storage][nvmeof]") {
  Run r(base());
  r.go(true, {0}, 10e9);  // 10e9 B / 12.5e9 B/s
  CHECK(r.ok);
  CHECK(r.done_s == Approx(0.8).epsilon(1e-9));
  CHECK(r.targets.counters().bytes_written == Approx(10e9));
  CHECK(r.targets.counters().host_core_s == 0.0);  // RDMA: no CPU in the data path
}

TEST_CASE("nvmeof: the added latency acts through the namespace's queue (Little's law)", "[models][storage][nvmeof]") {
  // One 128 KiB I/O in flight: 131,072 B per (20 us device + added) write.
  storage::NvmeofConfig c = base();
  c.queue_depth = 1;
  c.added_latency_s = 15e-6;  // RDMA: 131072 / 35e-6 = 3.745e9 B/s, 10e9 B in 2.670 s
  Run rdma(c);
  rdma.go(true, {0}, 10e9);
  CHECK(rdma.done_s == Approx(10e9 / (131072.0 / 35e-6)).epsilon(1e-9));
  c.added_latency_s = 30e-6;  // TCP's: 131072 / 50e-6 = 2.621e9 B/s, 3.815 s
  Run tcp(c);
  tcp.go(true, {0}, 10e9);
  CHECK(tcp.done_s == Approx(10e9 / (131072.0 / 50e-6)).epsilon(1e-9));
  // Reads wait for NAND (80 us): 131072 / 110e-6 = 1.19e9 B/s.
  Run read(c);
  read.go(false, {0}, 10e9);
  CHECK(read.done_s == Approx(10e9 / (131072.0 / 110e-6)).epsilon(1e-9));
}

TEST_CASE("nvmeof: a drive latency of 0 leaves the added latency to bound the queue", "[models][storage][nvmeof]") {
  // One 128 KiB I/O in flight, drive latency 0, 30 us added: 131072 / 30e-6 = 4.369e9 B/s.
  storage::NvmeofConfig c = base();
  c.queue_depth = 1;
  c.drive.write_latency_s = 0.0;
  c.added_latency_s = 30e-6;
  Run run(c);
  run.go(true, {0}, 10e9);
  CHECK(run.done_s == Approx(10e9 / (131072.0 / 30e-6)).epsilon(1e-9));
  // With nothing added either, a queue would move data at an unbounded rate: refused, by the
  // drive's key.
  c.added_latency_s = 0.0;
  CHECK_THROWS_WITH(Run(c), Catch::StartsWith("drive.write_latency: expected a latency above 0 with added_latency 0"));
}

TEST_CASE("nvmeof: the target's drives are shared by every namespace on it", "[models][storage][nvmeof]") {
  storage::NvmeofConfig c = base();
  c.drive.write_bytes_per_s = 1e9;
  c.drive.read_bytes_per_s = 2e9;
  Run w(c);
  w.go(true, {0, 1}, 5e9);  // 10e9 B through one 1e9 B/s drive: 10 s
  CHECK(w.done_s == Approx(10.0).epsilon(1e-9));
  Run r(c);
  r.go(false, {0, 1}, 5e9);  // back through its reads, 2e9 B/s: 5 s
  CHECK(r.done_s == Approx(5.0).epsilon(1e-9));
}

TEST_CASE("nvmeof over TCP: the node's and the target's cores bound it and count their time",
          "[models][storage][nvmeof]") {
  storage::NvmeofConfig c = base();
  c.transport = storage::NvmeofTransport::kTcp;
  c.host_cores = 2;  // 2 x 1.3e9 = 2.6e9 B/s: 10e9 B in 3.846 s
  c.target_cores = 64;
  Run host(c);
  host.go(true, {0}, 10e9);
  CHECK(host.done_s == Approx(10e9 / 2.6e9).epsilon(1e-9));
  // Every byte costs 1 / 1.3e9 core-seconds on each end.
  CHECK(host.targets.counters().host_core_s == Approx(10e9 / 1.3e9));
  CHECK(host.targets.counters().target_core_s == Approx(10e9 / 1.3e9));
  c.data_digest = true;  // CRC32C: 53/84 of the rate, 1.640e9 B/s
  Run digest(c);
  digest.go(true, {0}, 10e9);
  CHECK(digest.done_s == Approx(10e9 / (2.6e9 * 53.0 / 84.0)).epsilon(1e-9));
  c.data_digest = false;
  c.host_cores = 64;
  c.target_cores = 1;  // three nodes' 7.5e9 B through one target core, 1.3e9 B/s: 5.769 s
  Run target(c);
  target.go(true, {0, 1, 2}, 2.5e9);
  CHECK(target.done_s == Approx(7.5e9 / 1.3e9).epsilon(1e-9));
}

TEST_CASE("nvmeof: nodes spread over the targets by index, and a bad config names its field",
          "[models][storage][nvmeof]") {
  storage::NvmeofConfig c = base();
  c.targets = {2, 3};
  Simulator sim;
  network::Fabric fabric(two_leaves(), network::FabricOptions{});
  network::FabricSimulation driver(sim, fabric, nullptr);
  storage::NvmeofTargets t(driver, c);
  CHECK(t.target_of(0) == 2);
  CHECK(t.target_of(1) == 3);
  CHECK(t.target_of(4) == 2);
  const auto field_of = [&](storage::NvmeofConfig bad) {
    try {
      storage::NvmeofTargets x(driver, std::move(bad));
    } catch (const dcsim::sim::ConfigError& e) {
      return e.field();
    }
    return std::string();
  };
  storage::NvmeofConfig bad = c;
  bad.targets = {9};
  CHECK(field_of(bad) == "targets");
  bad = c;
  bad.queue_depth = 0;
  CHECK(field_of(bad) == "queue_depth");
  bad = c;
  bad.drive.write_bytes_per_s = 0;
  CHECK(field_of(bad) == "drive.write_bandwidth");
}
