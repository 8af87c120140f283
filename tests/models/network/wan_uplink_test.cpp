// The site's WAN uplink (models/network/wan_uplink.hpp): equal shares on one duplex link, FIFO
// queues, and the bytes it reports carried. Every expected value is solved by hand in its comment.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "models/network/wan_uplink.hpp"
#include "tests/models/network/uplink_recorder.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"

using dcsim::models::network::UplinkCarried;
using dcsim::models::network::UplinkDirection;
using dcsim::models::network::UplinkTransferDone;
using dcsim::models::network::WanUplink;
using dcsim::sim::Simulator;
using dcsim::sim::Time;

namespace {

constexpr double k100G = 100e9;
constexpr double kTol = 1e-12;

using Recorder = dcsim::tests::UplinkRecorder;

WanUplink make(Simulator& sim, Recorder& r, double capacity_bps = k100G) {
  return WanUplink(sim, capacity_bps, r.on_carried(), r.on_finished());
}

}  // namespace

TEST_CASE("one 100 Gb/s port moves 1.08e15 bytes a day: 2.16e15 bytes alone take exactly 48 h",
          "[models][network][uplink]") {
  // 100e9 bit/s / 8 = 12.5e9 B/s; x 86,400 s = 1.08e15 B a day; 2.16e15 B need 172,800 s = 48 h.
  Simulator sim;
  Recorder r;
  WanUplink uplink = make(sim, r);
  const auto q = uplink.add_queue(UplinkDirection::kOut);
  uplink.submit(q, 2.16e15);
  sim.run();
  REQUIRE(r.done.size() == 1);
  CHECK(r.done[0].finished == Time::from_ns(48LL * 3600 * 1'000'000'000));
  CHECK(r.bytes(UplinkDirection::kOut) == Approx(2.16e15).epsilon(kTol));
  CHECK(r.bytes(UplinkDirection::kIn) == 0.0);
}

TEST_CASE("two equal transfers in flight together each get half the port", "[models][network][uplink]") {
  // 1.08e15 B each, 12.5e9 B/s shared: 6.25e9 B/s each, both done at 172,800 s (48 h) instead of
  // 24 h alone; the total carried is both sizes.
  Simulator sim;
  Recorder r;
  WanUplink uplink = make(sim, r);
  const auto a = uplink.add_queue(UplinkDirection::kOut);
  const auto b = uplink.add_queue(UplinkDirection::kOut);
  uplink.submit(a, 1.08e15);
  uplink.submit(b, 1.08e15);
  CHECK(uplink.in_flight(UplinkDirection::kOut) == 2);
  sim.run();
  REQUIRE(r.done.size() == 2);
  for (const auto& d : r.done) CHECK(d.finished == Time::from_ns(48LL * 3600 * 1'000'000'000));
  CHECK(r.bytes(UplinkDirection::kOut) == Approx(2.16e15).epsilon(kTol));
}

TEST_CASE("a transfer that joins later slows the first from then on, and speeds up when it leaves",
          "[models][network][uplink]") {
  // A: 12.5e9 B (1 s alone at 12.5e9 B/s). B (2.5e9 B) joins at 0.5 s: each at 6.25e9 B/s. A has
  // 6.25e9 B left, B finishes first after 2.5e9 / 6.25e9 = 0.4 s (t = 0.9 s) and A has 3.75e9 B
  // left, alone again: 0.3 s more, done at 1.2 s.
  Simulator sim;
  Recorder r;
  WanUplink uplink = make(sim, r);
  const auto a = uplink.add_queue(UplinkDirection::kOut);
  const auto b = uplink.add_queue(UplinkDirection::kOut);
  uplink.submit(a, 12.5e9);
  sim.at(Time::from_ns(500'000'000), [&] { uplink.submit(b, 2.5e9); });
  sim.run();
  REQUIRE(r.done.size() == 2);
  CHECK(r.done[0].queue == b);
  CHECK(r.done[0].finished == Time::from_ns(900'000'000));
  CHECK(r.done[1].queue == a);
  CHECK(r.done[1].finished == Time::from_ns(1'200'000'000));
  CHECK(r.bytes(UplinkDirection::kOut) == Approx(15e9).epsilon(kTol));
}

TEST_CASE("a queue sends its transfers one after the other; the later one waits and the backlog shows it",
          "[models][network][uplink]") {
  // Two 12.5e9 B transfers submitted at 0 on one queue: the first 0-1 s, the second 1-2 s (it
  // waited 1 s). At 0.5 s the backlog is 6.25e9 in flight + 12.5e9 waiting.
  Simulator sim;
  Recorder r;
  WanUplink uplink = make(sim, r);
  const auto q = uplink.add_queue(UplinkDirection::kOut);
  uplink.submit(q, 12.5e9);
  uplink.submit(q, 12.5e9);
  CHECK(uplink.in_flight(UplinkDirection::kOut) == 1);
  double backlog_half = -1.0;
  sim.at(Time::from_ns(500'000'000), [&] { backlog_half = uplink.backlog_bytes(UplinkDirection::kOut); });
  sim.run();
  CHECK(backlog_half == Approx(18.75e9).epsilon(kTol));
  REQUIRE(r.done.size() == 2);
  CHECK(r.done[1].submitted == Time::zero());
  CHECK(r.done[1].started == Time::from_ns(1'000'000'000));
  CHECK(r.done[1].finished == Time::from_ns(2'000'000'000));
  CHECK_FALSE(uplink.busy(q));
  CHECK(uplink.backlog_bytes(UplinkDirection::kOut) == 0.0);
}

TEST_CASE("ingress has its own capacity: a full-duplex port does not slow egress for it", "[models][network][uplink]") {
  // 12.5e9 B out and 12.5e9 B in at once: each direction alone at 12.5e9 B/s, both done at 1 s.
  Simulator sim;
  Recorder r;
  WanUplink uplink = make(sim, r);
  const auto out = uplink.add_queue(UplinkDirection::kOut);
  const auto in = uplink.add_queue(UplinkDirection::kIn);
  uplink.submit(out, 12.5e9);
  uplink.submit(in, 12.5e9);
  sim.run();
  REQUIRE(r.done.size() == 2);
  for (const auto& d : r.done) CHECK(d.finished == Time::from_ns(1'000'000'000));
  CHECK(r.bytes(UplinkDirection::kOut) == Approx(12.5e9).epsilon(kTol));
  CHECK(r.bytes(UplinkDirection::kIn) == Approx(12.5e9).epsilon(kTol));
}

TEST_CASE("doubling the port speed halves a transfer's time", "[models][network][uplink]") {
  // 2.16e15 B: 48 h at 100 Gb/s, 24 h at 200 Gb/s (two 100 Gb/s ports).
  for (const double ports : {1.0, 2.0}) {
    Simulator sim;
    Recorder r;
    WanUplink uplink = make(sim, r, ports * k100G);
    uplink.submit(uplink.add_queue(UplinkDirection::kOut), 2.16e15);
    sim.run();
    REQUIRE(r.done.size() == 1);
    CHECK(r.done[0].finished == Time::from_ns(static_cast<std::int64_t>(48 / ports) * 3600 * 1'000'000'000));
  }
}

TEST_CASE("carried intervals tile the run: each is at most the capacity times its length, flush reports the rest",
          "[models][network][uplink]") {
  // 12.5e9 B in flight, flushed at 0.25 s: 3.125e9 B over [0, 0.25 s); the rest by the end.
  Simulator sim;
  Recorder r;
  WanUplink uplink = make(sim, r);
  uplink.submit(uplink.add_queue(UplinkDirection::kOut), 12.5e9);
  sim.at(Time::from_ns(250'000'000), [&] { uplink.flush(); });
  sim.run();
  REQUIRE(r.carried.size() == 2);
  CHECK(r.carried[0].from == Time::zero());
  CHECK(r.carried[0].to == Time::from_ns(250'000'000));
  CHECK(r.carried[0].bytes == Approx(3.125e9).epsilon(kTol));
  CHECK(r.carried[1].from == r.carried[0].to);
  for (const auto& c : r.carried) CHECK(c.bytes <= k100G / 8 * (c.to - c.from).seconds() * (1 + kTol));
}

TEST_CASE("a port of no speed is refused", "[models][network][uplink]") {
  Simulator sim;
  Recorder r;
  CHECK_THROWS_AS(make(sim, r, 0.0), dcsim::sim::ConfigError);
}
