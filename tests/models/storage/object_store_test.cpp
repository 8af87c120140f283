#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <numeric>
#include <set>

#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "models/storage/object_store.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "tests/models/storage/object_store_bench.hpp"

using namespace dcsim::models;
using namespace dcsim::models::storage;
using dcsim::sim::Time;
using Bench = dcsim::tests::StoreBench;

namespace {

StoreConfig one_drive_per_host(double write_bytes_per_s) {
  StoreConfig c;
  c.drives_per_host = 1;
  c.drive.write_bytes_per_s = write_bytes_per_s;
  return c;
}

}  // namespace

TEST_CASE("a write to an idle replicated pool runs at its slowest stage: the drives", "[models][storage]") {
  // Three OSD hosts, size 3: every PG lives on all three, so each host's drive takes every byte
  // once (as primary or replica). Drive 3.5 GB/s < NIC 12.5 GB/s: 7 GB take 7e9 / 3.5e9 = 2 s,
  // and the last I/O commits the drive's 20 us write latency later.
  Bench b(1, 3, one_drive_per_host(3.5e9));
  CHECK(b.run_write({{0, 7e9}}) == Approx(2.0 + 20e-6).epsilon(1e-9));
}

TEST_CASE("a write to an idle replicated pool runs at its slowest stage: the primary's forwarding", "[models][storage]") {
  // One PG: every byte goes client -> primary (12.5 GB/s NIC) and the primary sends it on to
  // two replicas over its one 12.5 GB/s uplink, so it forwards at 6.25 GB/s: with 50 GB/s
  // drives, 25 GB take 2 x 25e9 / 12.5e9 = 4 s (the client's own NIC would need 2 s), plus the
  // drive's 20 us write latency.
  StoreConfig c = one_drive_per_host(50e9);
  c.pools[0].pg_count = 1;
  Bench b(1, 3, c);
  CHECK(b.run_write({{0, 25e9}}) == Approx(4.0 + 20e-6).epsilon(1e-9));
}

TEST_CASE("a write to an idle replicated pool runs at its slowest stage: the client NIC", "[models][storage]") {
  // One client writing over many PGs to 12 hosts: each OSD host's NIC takes a twelfth of the
  // bytes from the client and the forwards, but the client's 12.5 GB/s NIC carries them all:
  // 25 GB take at least 2 s, and the primaries' forwards (each host sends 2/12 of the bytes)
  // finish with them.
  Bench b(1, 12, one_drive_per_host(50e9));
  CHECK(b.run_write({{0, 25e9}}) == Approx(2.0).epsilon(0.05));
}

TEST_CASE("replication 3 puts 3x the client bytes on drives and 2x on the back links", "[models][storage]") {
  StoreConfig c;
  c.drives_per_host = 2;
  Bench b(2, 6, c);
  REQUIRE(b.run_write({{0, 4e9}, {1, 2e9}}) > 0);
  CHECK(b.drive_bytes_written() == Approx(3 * 6e9).epsilon(1e-9));
  CHECK(b.store->counters().back_bytes == Approx(2 * 6e9).epsilon(1e-9));
  CHECK(b.store->counters().client_bytes_written == Approx(6e9));
  CHECK(b.store->stored_bytes(0) == Approx(6e9));
}

TEST_CASE("erasure coding 4+2 puts 1.5x on drives and a read touches 4 OSDs", "[models][storage]") {
  StoreConfig c;
  c.drives_per_host = 1;
  c.pools[0].ec_k = 4;
  c.pools[0].ec_m = 2;
  c.pools[0].pg_count = 1;  // one PG: its k data chunks are on exactly 4 hosts
  Bench b(1, 8, c);
  REQUIRE(b.run_write({{0, 8e9}}) > 0);
  CHECK(b.drive_bytes_written() == Approx(1.5 * 8e9).epsilon(1e-9));
  // The primary sends one chunk (2 GB) to each of the 5 other members.
  CHECK(b.store->counters().back_bytes == Approx(5 * 2e9).epsilon(1e-9));
  REQUIRE(b.run_read({{0, 8e9}}) > 0);
  int touched = 0;
  double read = 0.0;
  for (int h = 0; h < 8; ++h) {
    const double r = b.fabric->resource_bytes(b.store->drive_read_resource(h));
    touched += r > 0 ? 1 : 0;
    read += r;
  }
  CHECK(touched == 4);
  CHECK(read == Approx(8e9).epsilon(1e-9));
}

TEST_CASE("placement is deterministic and balanced within 30% of the mean", "[models][storage]") {
  PoolConfig pool;  // size 3, host failure domain, default PG count
  CrushPlacement a(20, 4, 1, pool, 0, 7);
  CrushPlacement same(20, 4, 1, pool, 0, 7);
  CrushPlacement other(20, 4, 1, pool, 0, 8);
  // 100 x 80 OSDs / 3 = 2667, rounded up to 4096 PGs.
  REQUIRE(a.pg_count() == 4096);
  bool differs = false;
  for (int pg = 0; pg < a.pg_count(); ++pg) {
    const auto m = a.members(pg);
    REQUIRE(m.size() == 3);
    CHECK(std::equal(m.begin(), m.end(), same.members(pg).begin()));
    differs = differs || !std::equal(m.begin(), m.end(), other.members(pg).begin());
    std::set<int> hosts;
    for (int osd : m) hosts.insert(a.host_of(osd));
    REQUIRE(hosts.size() == 3);  // no two members on one host
  }
  CHECK(differs);
  // 4096 x 3 slots over 80 OSDs: mean 153.6; binomial spread sqrt(153) ~ 12, so the fullest of
  // 80 sits ~2.5 sigma up (~185, +20%) and the emptiest as far down.
  const std::vector<int> slots = a.slots_per_osd();
  const double mean = 4096.0 * 3 / 80;
  CHECK(*std::max_element(slots.begin(), slots.end()) < 1.3 * mean);
  CHECK(*std::min_element(slots.begin(), slots.end()) > 0.7 * mean);
}

TEST_CASE("a rack failure domain never puts two members of a PG in one rack", "[models][storage]") {
  PoolConfig pool;
  pool.failure_domain = FailureDomain::kRack;
  CrushPlacement p(12, 2, 3, pool, 0, 1);  // 4 racks of 3 hosts
  for (int pg = 0; pg < p.pg_count(); ++pg) {
    std::set<int> racks;
    for (int osd : p.members(pg)) racks.insert(p.host_of(osd) / 3);
    REQUIRE(racks.size() == 3);
  }
  pool.size = 5;  // 5 members need 5 racks: there are 4
  CHECK_THROWS_AS(CrushPlacement(12, 2, 3, pool, 0, 1), dcsim::sim::ConfigError);
}

TEST_CASE("marking a failed host out recovers exactly the bytes its OSDs held", "[models][storage]") {
  StoreConfig c;
  c.drives_per_host = 2;
  c.down_out_interval = Time::from_seconds(60.0);
  Bench b(1, 8, c);
  REQUIRE(b.run_write({{0, 10e9}}) > 0);
  double held = 0.0;  // host 3's OSDs are 6 and 7
  for (int osd : {6, 7}) held += b.store->osd_bytes(0, osd);
  REQUIRE(held > 0);
  b.store->set_host_down(3);
  b.sim.run();
  const StoreCounters s = b.store->counters();
  CHECK(s.host_failures == 1);
  // Each PG that had host 3 gets exactly one new member, filled from a survivor.
  CHECK(s.recovery_bytes == Approx(held).epsilon(1e-9));
  CHECK(s.recovery_read_bytes == Approx(held).epsilon(1e-9));
  // Degraded from the failure through the 60 s wait to the end of backfill.
  CHECK(s.degraded_s > 60.0);
  CHECK_FALSE(b.store->recovering());
  // The data is whole again on the 7 hosts left: reads succeed.
  CHECK(b.run_read({{0, 10e9}}) > 0);
}

TEST_CASE("the recovery throttle slows backfill to its rate", "[models][storage]") {
  StoreConfig c;
  c.drives_per_host = 2;
  c.down_out_interval = Time::from_seconds(1.0);
  c.recovery_bytes_per_s = 0.1e9;
  Bench b(1, 8, c);
  REQUIRE(b.run_write({{0, 10e9}}) > 0);
  const Time failed = b.sim.now();
  b.store->set_host_down(3);
  b.sim.run();
  const StoreCounters s = b.store->counters();
  // Backfill moves recovery_bytes at 0.1 GB/s after the 1 s wait.
  CHECK(s.degraded_s == Approx(1.0 + s.recovery_bytes / 0.1e9).epsilon(1e-6));
  CHECK((b.sim.now() - failed).seconds() == Approx(s.degraded_s).epsilon(1e-6));
}

TEST_CASE("a host failing mid-write leaves the write complete on the members left", "[models][storage]") {
  StoreConfig c;
  c.drives_per_host = 1;
  Bench b(1, 6, c);
  bool ok = false;
  bool done = false;
  b.store->write(0, {{0, 20e9}}, [&](bool saved) {
    ok = saved;
    done = true;
  });
  b.sim.at(Time::from_seconds(1.0), [&] { b.store->set_host_down(2); });
  b.sim.run_until(Time::from_seconds(100.0));
  REQUIRE(done);
  CHECK(ok);
  // Client bytes are counted once, re-sent pieces included.
  CHECK(b.store->counters().client_bytes_written == Approx(20e9).epsilon(1e-9));
}

TEST_CASE("a write that would fill an OSD past the full ratio is refused", "[models][storage]") {
  StoreConfig c;
  c.drives_per_host = 1;
  c.drive.capacity_bytes = 10e9;
  Bench b(1, 3, c);
  // Size 3 on 3 hosts: every OSD holds every byte; 0.95 x 10 GB = 9.5 GB fit, 11 GB do not.
  CHECK(b.run_write({{0, 11e9}}) < 0);
  CHECK(b.store->counters().writes_refused == 1);
  CHECK(b.run_write({{0, 9e9}}) > 0);
}

TEST_CASE("drive IOPS limit a store doing small operations", "[models][storage]") {
  // 64 KiB operations at 2e5 write IOPS: 13.1 GB/s > 3.5 GB/s, bandwidth-bound; at 4 KiB:
  // 0.82 GB/s, IOPS-bound, so the same write takes 3.5 / 0.82 = 4.3x longer.
  StoreConfig big = one_drive_per_host(3.5e9);
  big.io_bytes = 65536;
  StoreConfig small = big;
  small.io_bytes = 4096;
  Bench a(1, 3, big);
  Bench b(1, 3, small);
  const double t_big = a.run_write({{0, 3.5e9}});
  const double t_small = b.run_write({{0, 3.5e9}});
  CHECK(t_big == Approx(1.0 + 20e-6).epsilon(1e-9));  // plus the last I/O's write latency
  CHECK(t_small == Approx(3.5e9 / (2e5 * 4096) + 20e-6).epsilon(1e-9));
}

TEST_CASE("an operation ends one drive latency after its last bytes: writes 20 us and reads 80 us by default",
          "[models][storage]") {
  // Drive 3.5 GB/s write, 6.5 GB/s read, three hosts of one drive, size 3: 7 GB written in 2 s
  // (every drive takes every byte) plus the write latency; read back from the primaries, each
  // host's drive serving its primaries' share, plus the read latency. Latencies set to 1 ms and
  // 3 ms act by exactly that much.
  StoreConfig fast = one_drive_per_host(3.5e9);
  StoreConfig slow = fast;
  slow.drive.write_latency_s = 1e-3;
  slow.drive.read_latency_s = 3e-3;
  Bench a(1, 3, fast);
  Bench b(1, 3, slow);
  const double write_fast = a.run_write({{0, 7e9}});
  const double write_slow = b.run_write({{0, 7e9}});
  CHECK(write_slow - write_fast == Approx(1e-3 - 20e-6).epsilon(1e-6));
  const double read_fast = a.run_read({{0, 7e9}});
  const double read_slow = b.run_read({{0, 7e9}});
  CHECK(read_slow - read_fast == Approx(3e-3 - 80e-6).epsilon(1e-6));
}

TEST_CASE("an OSD marked out moves exactly its PGs, to another OSD of the same host", "[models][storage][osd]") {
  PoolConfig pool;  // replication 3, host failure domain
  CrushPlacement p(6, 4, 1, pool, 0, 7);
  std::vector<std::vector<int>> before;
  for (int pg = 0; pg < p.pg_count(); ++pg) before.emplace_back(p.members(pg).begin(), p.members(pg).end());
  const int out = 9;  // drive 1 of host 2
  p.set_osd_in(out, false);
  int moved = 0, held = 0;
  for (int pg = 0; pg < p.pg_count(); ++pg) {
    const std::vector<int> now(p.members(pg).begin(), p.members(pg).end());
    const bool had = std::find(before[pg].begin(), before[pg].end(), out) != before[pg].end();
    held += had;
    if (!had) {
      CHECK(now == before[pg]);  // every other PG keeps its members, in order
      continue;
    }
    for (std::size_t i = 0; i < now.size(); ++i) {
      if (before[pg][i] == out) {
        ++moved;
        // The local retry: the same host (2), another drive of it.
        CHECK(p.host_of(now[i]) == 2);
        CHECK(now[i] != out);
      } else {
        CHECK(now[i] == before[pg][i]);
      }
    }
  }
  CHECK(held > 0);
  CHECK(moved == held);
  // All four drives of host 2 out: the host leaves the placement, each of its PGs takes another host.
  for (int osd : {8, 10, 11}) p.set_osd_in(osd, false);
  for (int pg = 0; pg < p.pg_count(); ++pg) {
    for (int osd : p.members(pg)) CHECK(p.host_of(osd) != 2);
  }
}

TEST_CASE("a failed OSD is backfilled with exactly the bytes it held, and its host loses one drive of bandwidth",
          "[models][storage][osd]") {
  StoreConfig c;
  c.drives_per_host = 2;
  c.drive.write_bytes_per_s = 1e9;  // 8 Gb/s: the drives, not the 100 Gb/s links, bind
  c.down_out_interval = Time::from_seconds(60.0);
  Bench b(1, 8, c);
  REQUIRE(b.run_write({{0, 10e9}}) > 0);
  const int host = 3, drive = 1, osd = host * 2 + drive;
  const double held = b.store->osd_bytes(0, osd);
  REQUIRE(held > 0);
  const double capacity_before = b.fabric->resource_capacity_bps(b.store->drive_write_resource(host));
  b.store->set_osd_down(host, drive);
  // One of the host's two drives is down: the host writes at its other drive's 8 Gb/s (one drive
  // is balanced with itself). Before, two drives at most 16 Gb/s, less by their PG imbalance.
  const double capacity_down = b.fabric->resource_capacity_bps(b.store->drive_write_resource(host));
  CHECK(capacity_down == Approx(8e9));
  CHECK(capacity_before > 8e9);
  CHECK(capacity_before <= 16e9 + 1.0);
  b.sim.run();
  const StoreCounters s = b.store->counters();
  CHECK(s.osd_failures == 1);
  CHECK(s.host_failures == 0);
  // Each PG that had the OSD gets exactly one new member, filled from a survivor: its bytes.
  CHECK(s.recovery_bytes == Approx(held).epsilon(1e-9));
  CHECK(s.recovery_read_bytes == Approx(held).epsilon(1e-9));
  CHECK(s.degraded_s > 60.0);
  CHECK(b.store->osd_bytes(0, osd) == 0.0);  // out: it holds nothing
  CHECK(b.run_read({{0, 10e9}}) > 0);
}

TEST_CASE("an OSD back before it is marked out moves nothing", "[models][storage][osd]") {
  StoreConfig c;
  c.drives_per_host = 2;
  c.down_out_interval = Time::from_seconds(600.0);
  Bench b(1, 8, c);
  REQUIRE(b.run_write({{0, 10e9}}) > 0);
  b.store->set_osd_down(3, 0);
  b.sim.at(b.sim.now() + Time::from_seconds(30.0), [&] { b.store->set_osd_up(3, 0); });
  b.sim.run();
  const StoreCounters s = b.store->counters();
  CHECK(s.recovery_bytes == 0.0);
  CHECK(s.degraded_s == Approx(30.0));
  CHECK_THROWS_AS(b.store->set_osd_down(3, 2), dcsim::sim::ConfigError);  // two drives per host
}

TEST_CASE("an OSD failing mid-write leaves the write complete on the OSDs left", "[models][storage][osd]") {
  StoreConfig c;
  c.drives_per_host = 2;
  Bench b(1, 6, c);
  bool ok = false, done = false;
  b.store->write(0, {{0, 20e9}}, [&](bool saved) {
    ok = saved;
    done = true;
  });
  b.sim.at(Time::from_seconds(1.0), [&] { b.store->set_osd_down(2, 1); });
  b.sim.run_until(Time::from_seconds(100.0));
  REQUIRE(done);
  CHECK(ok);
  CHECK(b.store->counters().client_bytes_written == Approx(20e9).epsilon(1e-9));
}
