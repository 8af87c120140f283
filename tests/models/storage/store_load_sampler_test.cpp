// The store's load over time (store_load_sampler.hpp): samples only while the store works, bytes
// in = bytes out over the samples, utilisation 1 where the drives bind, nothing left pending.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <variant>

#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "models/storage/object_store.hpp"
#include "models/storage/store_load_sampler.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim::models;
using dcsim::sim::Time;

namespace {

// One client and 4 OSD hosts of one drive under one switch, 100 Gb/s links, no latency; drives
// write 1 GB/s (8 Gb/s): a replicated write is bound by the drives.
struct Rig {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  std::unique_ptr<network::Fabric> fabric;
  std::unique_ptr<network::FabricSimulation> net;
  std::unique_ptr<storage::ObjectStore> store;
  std::unique_ptr<storage::StoreLoadSampler> sampler;
  explicit Rig(Time interval) {
    network::TopologyConfig t;
    t.leaves = 1;
    t.hosts_per_leaf = 5;
    t.link_bandwidth_bps = 100e9;
    t.link_latency_ns = 0;
    fabric = std::make_unique<network::Fabric>(network::build_leaf_spine(t), network::FabricOptions{});
    net = std::make_unique<network::FabricSimulation>(sim, *fabric, nullptr);
    storage::StoreConfig c;
    c.drives_per_host = 1;
    c.drive.write_bytes_per_s = 1e9;
    for (std::uint32_t h = 1; h <= 4; ++h) c.hosts.push_back(h);
    store = std::make_unique<storage::ObjectStore>(sim, *net, c);
    sampler = std::make_unique<storage::StoreLoadSampler>(*store, *net, interval, sim, sink);
    store->set_on_busy([this](bool busy) { sampler->on_busy(busy); });
  }
  double column_sum_times_dt(const std::string& table, std::size_t column) const {
    // Each row's mean rate x its interval (t_s minus the previous sample's), summed, in bytes.
    const auto& rows = sink.table(table).rows;
    double bytes = 0.0, previous = 0.0, last_t = -1.0;
    for (const auto& row : rows) {
      const double t = std::get<double>(row[0]);
      if (t != last_t) {  // the hosts' (pools') rows of one sample share its t_s
        previous = last_t < 0 ? start_s : last_t;
        last_t = t;
      }
      bytes += std::get<double>(row[column]) / 8.0 * (t - previous);
    }
    return bytes;
  }
  double start_s = 0.0;
};

}  // namespace

TEST_CASE("the store's load samples carry exactly the bytes the drives and the pool moved",
          "[models][datacenter][storage][series]") {
  Rig r(Time::from_seconds(1.0));
  // 10 GB into a 3-replica pool: 30 GB on the drives; the busiest drive sets the pace.
  bool done = false;
  r.store->write(0, {{0, 10e9}}, [&](bool ok) { done = ok; });
  r.sim.run();
  REQUIRE(done);
  const double end_s = r.sim.now().seconds();
  // Nothing outlives the write: the run ends when it does, on the last (shorter) sample.
  const auto& hosts = r.sink.table("storage/osd_host_load").rows;
  REQUIRE_FALSE(hosts.empty());
  CHECK(std::get<double>(hosts.back()[0]) == Approx(end_s));
  CHECK(static_cast<double>(hosts.size()) == 4 * std::ceil(end_s));  // a row per host per sample
  // Bytes in = bytes out: the samples' write bytes sum to the drives' 30 GB, the pool's to 10 GB.
  CHECK(r.column_sum_times_dt("storage/osd_host_load", 2) == Approx(30e9).epsilon(1e-9));
  CHECK(r.column_sum_times_dt("storage/pool_load", 2) == Approx(10e9).epsilon(1e-9));
  CHECK(r.column_sum_times_dt("storage/pool_load", 3) == 0.0);
  // The drives bind: some host's drives run at their capacity in the first full second.
  double first_peak = 0.0;
  for (const auto& row : hosts) {
    if (std::get<double>(row[0]) == 1.0) first_peak = std::max(first_peak, std::get<double>(row[4]));
  }
  CHECK(first_peak == Approx(1.0).epsilon(1e-9));
  r.sampler->finish();
  CHECK(std::get<double>(r.sink.summary().at("storage/drive_utilisation_peak").value) == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("an idle store takes no samples, and sampling starts again with the next operation",
          "[models][datacenter][storage][series]") {
  Rig r(Time::from_seconds(1.0));
  r.sim.run();
  CHECK(r.sink.table("storage/osd_host_load").rows.empty());
  CHECK(r.sim.now() == Time::zero());
  // A write at 100 s after an idle start: its samples begin at 100 s.
  r.sim.at(Time::from_seconds(100.0), [&] { r.store->write(0, {{0, 1e9}}, [](bool) {}); });
  r.start_s = 100.0;
  r.sim.run();
  const auto& rows = r.sink.table("storage/osd_host_load").rows;
  REQUIRE_FALSE(rows.empty());
  CHECK(std::get<double>(rows.front()[0]) > 100.0);
  CHECK(r.column_sum_times_dt("storage/osd_host_load", 2) == Approx(3e9).epsilon(1e-9));
}
