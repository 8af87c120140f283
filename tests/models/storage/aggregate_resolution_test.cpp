// The object store's aggregate resolution (store_config.hpp, object_store.hpp): one flow per OSD
// host carrying its drives' bytes, under the clients' NICs together.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/storage/object_store.hpp"
#include "tests/models/storage/object_store_bench.hpp"

using namespace dcsim::models::storage;
using dcsim::sim::Time;
using dcsim::tests::StoreBench;

namespace {

StoreConfig aggregated(StoreConfig c) {
  c.resolution = StoreResolution::kAggregate;
  return c;
}

StoreConfig ec(int k, int m, int drives_per_host) {
  StoreConfig c;
  c.drives_per_host = drives_per_host;
  c.pools[0].ec_k = k;
  c.pools[0].ec_m = m;
  return c;
}

}  // namespace

TEST_CASE("an aggregate write to three hosts of a size-3 pool takes its drives' time", "[models][storage][aggregate]") {
  // Every PG lives on all three hosts, so each host's drive takes every client byte once: 7 GB
  // at 3.5 GB/s is 2 s, plus the 20 us write latency, as at flow level (object_store_test). The
  // clients' capacity, 12.5 GB/s x 3 (the pieces carry drive bytes), does not bind: 3 x 3.5 GB/s.
  StoreConfig c;
  c.drives_per_host = 1;
  c.drive.write_bytes_per_s = 3.5e9;
  StoreBench b(1, 3, aggregated(c));
  CHECK(b.run_write({{0, 7e9}}) == Approx(2.0 + 20e-6).epsilon(1e-9));
  CHECK(b.drive_bytes_written() == Approx(3 * 7e9).epsilon(1e-9));
  CHECK(b.store->counters().back_bytes == Approx(2 * 7e9).epsilon(1e-9));  // two replicas forwarded
}

TEST_CASE("an aggregate write is bound by its clients' NICs together", "[models][storage][aggregate]") {
  // Twelve hosts with drives of 40 GB/s, size 3: a host takes about a quarter of the client
  // bytes on its drive and through its 12.5 GB/s NIC, far more than one 100 Gb/s (12.5 GB/s)
  // client NIC sends: 25 GB take 25 / 12.5 = 2 s. Two clients, 12.5 GB apiece: 1 s. Both a
  // little more: the clients' capacity is shared per piece and the placement gives hosts unequal
  // pieces, so the largest pieces end alone, at their host's NIC rate (up to 3% here).
  StoreConfig c;
  c.drives_per_host = 1;
  c.drive.write_bytes_per_s = 40e9;
  c.drive.write_iops = 1e9;
  {
    StoreBench b(1, 12, aggregated(c));
    const double took_s = b.run_write({{0, 25e9}});
    CHECK(took_s >= 2.0 + 20e-6);
    CHECK(took_s <= 2.0 * 1.03);
  }
  {
    StoreBench b(2, 12, aggregated(c));
    const double took_s = b.run_write({{0, 12.5e9}, {1, 12.5e9}});
    CHECK(took_s >= 1.0 + 20e-6);
    CHECK(took_s <= 1.0 * 1.03);
  }
}

TEST_CASE("an aggregate write puts exactly what flows put on each drive, and ends with the most loaded",
          "[models][storage][aggregate]") {
  // EC 4+2 over 8 hosts of 2 drives: the placement is uneven, so a host's drives take
  // total x (its primary share / k + its member shares / k): bytes in = bytes out host by host,
  // and the write ends when the host with the most bytes per second of drive has written them.
  const StoreConfig c = ec(4, 2, 2);
  StoreBench flows(4, 8, c);
  StoreBench aggregate(4, 8, aggregated(c));
  const std::vector<ObjectStore::ClientShare> clients{{0, 6e9}, {1, 6e9}, {2, 6e9}, {3, 6e9}};
  const double flows_s = flows.run_write(clients);
  const double aggregate_s = aggregate.run_write(clients);
  double slowest_s = 0.0;
  for (int h = 0; h < 8; ++h) {
    const double by_flows = flows.fabric->resource_bytes(flows.store->drive_write_resource(h));
    const double by_aggregate = aggregate.fabric->resource_bytes(aggregate.store->drive_write_resource(h));
    CHECK(by_aggregate == Approx(by_flows).epsilon(1e-9));
    const double rate_bytes_per_s =
        aggregate.net->resource_capacity_bps(aggregate.store->drive_write_resource(h)) / 8.0;
    slowest_s = std::max(slowest_s, by_aggregate / rate_bytes_per_s);
  }
  CHECK(aggregate.drive_bytes_written() == Approx(1.5 * 24e9).epsilon(1e-9));
  CHECK(aggregate.store->counters().back_bytes == Approx(flows.store->counters().back_bytes).epsilon(1e-9));
  CHECK(aggregate_s == Approx(slowest_s + 20e-6).epsilon(1e-9));
  // Flows add the NICs and the primaries' forwarding to the same drives: never faster.
  CHECK(flows_s >= aggregate_s * (1 - 1e-9));
  CHECK(flows_s <= aggregate_s * 1.25);
}

TEST_CASE("an aggregate read takes each host's read share off its drives", "[models][storage][aggregate]") {
  // EC 4+2, one PG: its four data chunks are on four hosts, 2 GB each of an 8 GB object, read at
  // 6.5 GB/s: 2 / 6.5 s plus the 80 us read latency; the client NIC (12.5 GB/s for 8 GB: 0.64 s)
  // binds first.
  StoreConfig c = ec(4, 2, 1);
  c.pools[0].pg_count = 1;
  StoreBench b(1, 8, aggregated(c));
  REQUIRE(b.run_write({{0, 8e9}}) > 0);
  CHECK(b.run_read({{0, 8e9}}) == Approx(8e9 / 12.5e9 + 80e-6).epsilon(1e-9));
  const auto [read, hosts] = b.drive_bytes_read();
  CHECK(hosts == 4);
  CHECK(read == Approx(8e9).epsilon(1e-9));
  CHECK(b.store->counters().client_bytes_read == Approx(8e9));
}

TEST_CASE("a host failing under an aggregate operation: the write completes degraded, the read from the rest",
          "[models][storage][aggregate]") {
  StoreConfig c;
  c.drives_per_host = 1;
  StoreBench b(1, 6, aggregated(c));
  bool ok = false, done = false;
  b.store->write(0, {{0, 20e9}}, [&](bool saved) {
    ok = saved;
    done = true;
  });
  b.sim.at(Time::from_seconds(1.0), [&] { b.store->set_host_down(2); });
  b.sim.run_until(Time::from_seconds(100.0));
  REQUIRE(done);
  CHECK(ok);
  CHECK(b.store->counters().client_bytes_written == Approx(20e9).epsilon(1e-9));
  CHECK(b.drive_bytes_written() < 3 * 20e9);  // host 2's copies after 1 s were not written

  done = false;
  const Time read_start = b.sim.now();
  b.store->read(0, {{0, 20e9}}, [&](bool read) {
    ok = read;
    done = true;
  });
  b.sim.at(read_start + Time::from_seconds(0.2), [&] { b.store->set_host_down(4); });
  b.sim.run_until(read_start + Time::from_seconds(100.0));
  REQUIRE(done);
  CHECK(ok);
  CHECK(b.drive_bytes_read().first == Approx(20e9).epsilon(1e-6));  // what host 4 had left came off the others
}

TEST_CASE("auto aggregates an operation from aggregate_from flows, and ended ops' capacities are reused",
          "[models][storage][aggregate]") {
  // 2 clients x 4 hosts + 4^2 = 24 flows at flow level.
  StoreConfig c;
  c.drives_per_host = 1;
  c.resolution = StoreResolution::kAuto;
  c.aggregate_from_flows = 25;
  StoreBench below(2, 4, c);
  const std::size_t resources = below.fabric->resource_count();
  REQUIRE(below.run_write({{0, 1e9}, {1, 1e9}}) > 0);
  CHECK(below.fabric->resource_count() == resources);  // flows: no aggregate resources
  CHECK_FALSE(below.store->aggregate_write_resource(0));

  c.aggregate_from_flows = 24;
  StoreBench at(2, 4, c);
  REQUIRE(at.run_write({{0, 1e9}, {1, 1e9}}) > 0);
  REQUIRE(at.store->aggregate_write_resource(0));
  const std::size_t after_write = at.fabric->resource_count();
  // the pool's counter, the op's clients, 4 hosts' NICs in, their one leaf's uplinks
  CHECK(after_write == resources + 2 + 4 + 1);
  REQUIRE(at.run_write({{0, 1e9}, {1, 1e9}}) > 0);
  CHECK(at.fabric->resource_count() == after_write);
  REQUIRE(at.run_read({{0, 1e9}, {1, 1e9}}) > 0);
  CHECK(at.fabric->resource_count() == after_write + 4 + 1);  // the NICs and leaf out; clients reused
  REQUIRE(at.run_read({{0, 1e9}, {1, 1e9}}) > 0);
  CHECK(at.fabric->resource_count() == after_write + 4 + 1);
}

TEST_CASE("an aggregate write is bound by the OSD hosts' NICs as flows are", "[models][storage][aggregate]") {
  // Size 3 on three hosts with 40 GB/s drives and 12.5 GB/s NICs: each host receives every
  // client byte once (its primary third from the clients, the other two thirds forwarded), so
  // its NIC takes 12.5 GB/s of client bytes: three clients' 25 GB in 2 s, a bound (the clients
  // together could send 37.5 GB/s). Flows take 2.34 s: the clients' bytes and the forwards
  // share each NIC per flow, not in the proportion that would finish them together.
  StoreConfig c;
  c.drives_per_host = 1;
  c.drive.write_bytes_per_s = 40e9;
  c.drive.write_iops = 1e9;
  const std::vector<ObjectStore::ClientShare> clients{{0, 25e9 / 3}, {1, 25e9 / 3}, {2, 25e9 / 3}};
  StoreBench aggregate(3, 3, aggregated(c));
  const double aggregate_s = aggregate.run_write(clients);
  CHECK(aggregate_s == Approx(2.0 + 20e-6).epsilon(1e-9));
  StoreBench flows(3, 3, c);
  const double flows_s = flows.run_write(clients);
  CHECK(flows_s >= aggregate_s);
  CHECK(flows_s <= aggregate_s * 1.2);
}
