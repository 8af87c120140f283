// How collective bandwidth ramps with message size (size_ramp.hpp): per-protocol latency and
// bandwidth by hand, NCCL's protocol choice, channels for small messages, the NVLS pipeline fill.
#include <catch2/catch.hpp>

#include "models/collective/collective_estimator.hpp"
#include "models/collective/size_ramp.hpp"
#include "models/hardware/node_presets.hpp"

using namespace dcsim::models::collective;
using dcsim::models::hardware::hgx_h100;

namespace {
constexpr double kMiB = 1024.0 * 1024.0;

CollectiveRegistry registry() {
  CollectiveRegistry r{"collective algorithm"};
  register_collective_algorithms(r);
  return r;
}

CollectiveEstimate with_protocol(const CollectiveRegistry& r, const char* algo, double bytes,
                                 const CollectiveSystem& s, Protocol p) {
  return *r.get(algo).factory()->estimate(CollectiveOp::kAllReduce, bytes, s, {}, p);
}
}  // namespace

TEST_CASE("ring all_reduce per protocol on 8 x H100 at 4 MiB, by hand", "[models][collective][ramp]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 1, {});
  const double bytes = 4 * kMiB;
  const double wire = 2.0 * 7 / 8 * bytes;  // 7,340,032 B per GPU and direction
  const double simple_bw = 450e9 * 370.0 / 450.0;  // 370 GB/s busBW (nccl-tests#212)
  // LL: 6.6 + 14 x 0.6 = 15 us; half of 370 = 185 GB/s, capped at llMaxBw 141 GB/s (Hopper,
  // one node). 4 MiB is above 24 channels x 512 threads x (8 x 8 ranks) B = 768 KiB: all channels.
  const auto ll = with_protocol(r, "ring", bytes, s, Protocol::kLL);
  CHECK(ll.latency_s == Approx(15.0e-6));
  CHECK(ll.bandwidth_s == Approx(wire / 141e9));  // 52.06 us
  // LL128: 14 + 14 x 1.9 = 40.6 us; 0.92 x 370 = 340.4 GB/s (under 24 x 36.7 = 880.8).
  const auto ll128 = with_protocol(r, "ring", bytes, s, Protocol::kLL128);
  CHECK(ll128.latency_s == Approx(40.6e-6));
  CHECK(ll128.bandwidth_s == Approx(wire / (0.92 * simple_bw)));  // 21.56 us
  // Simple: 8.4 + 14 x 3.4 = 56 us; 370 GB/s.
  const auto simple = with_protocol(r, "ring", bytes, s, Protocol::kSimple);
  CHECK(simple.latency_s == Approx(56.0e-6));
  CHECK(simple.bandwidth_s == Approx(wire / simple_bw));  // 19.84 us
  // At full channels the execution is NCCL's own model.
  for (const auto& e : {ll, ll128, simple}) CHECK(e.time_s == Approx(e.tuner_time_s));
  // 62.2 us < 67.1 us < 75.8 us: NCCL runs LL128 here.
  CHECK(estimate_collective(r, CollectiveOp::kAllReduce, bytes, s, {}, "ring").protocol ==
        Protocol::kLL128);
}

TEST_CASE("the protocol switches LL -> LL128 -> Simple as the size grows", "[models][collective][ramp]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 1, {});
  // Crossovers of the cost model above (wire = 1.75 S):
  //   LL = LL128:     15 + w / 141 GB/s = 40.6 + w / 340.4 GB/s  ->  S = 3.52 MB
  //   LL128 = Simple: 40.6 + w / 340.4 = 56 + w / 370 GB/s       ->  S = 37.4 MB
  const auto proto = [&](double bytes) {
    return estimate_collective(r, CollectiveOp::kAllReduce, bytes, s, {}, "ring").protocol;
  };
  CHECK(proto(64 * 1024) == Protocol::kLL);
  CHECK(proto(3.4e6) == Protocol::kLL);
  CHECK(proto(3.7e6) == Protocol::kLL128);
  CHECK(proto(36e6) == Protocol::kLL128);
  CHECK(proto(39e6) == Protocol::kSimple);
  CHECK(proto(1e9) == Protocol::kSimple);
}

TEST_CASE("a small message runs on fewer channels and gets less bandwidth", "[models][collective][ramp]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 1, {});
  // Simple: 64 KiB < 24 channels x 512 threads x 64 B = 768 KiB, so NCCL keeps 64 KiB /
  // (512 x 64 B) = 2 of 24 channels: 1/12 of 370 GB/s.
  const double bytes = 64 * 1024;
  CHECK(channel_fraction(bytes, 8, Protocol::kSimple, {}, true) == Approx(1.0 / 12));
  const auto simple = with_protocol(r, "ring", bytes, s, Protocol::kSimple);
  CHECK(simple.bandwidth_s == Approx(1.75 * bytes / (370e9 / 12)));  // 3.72 us
  CHECK(simple.tuner_time_s == Approx(56e-6 + 1.75 * bytes / 370e9));
  // Tiny messages bottom out at one channel of 3 warps: (1/24) x (96/512).
  CHECK(channel_fraction(8, 8, Protocol::kLL, {}, true) == Approx(96.0 / 512 / 24));
  // Off switch: NCCL's cost model unchanged.
  CollectiveTuning flat;
  flat.size_ramp = false;
  CHECK(channel_fraction(bytes, 8, Protocol::kSimple, flat, true) == 1.0);
}

TEST_CASE("NVLS ramps with its chunk pipeline", "[models][collective][ramp]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 1, {});
  const double wire_bw = 450e9 * 0.686;  // 308.7 GB/s on the wire, (1 + 1/8) S per GPU
  // 16 channels x 8 heads = 128 chunks in flight; chunk 32 KiB for 8-64 MiB, so one loop is
  // 4 MiB and the 3-stage pipeline adds 2 loops = 8 MiB.
  CHECK(nvls_chunk_bytes(16 * kMiB, 8, {}) == 32768);
  CHECK(nvls_chunk_bytes(1 * kMiB, 8, {}) == 16384);
  CHECK(nvls_chunk_bytes(128 * kMiB, 8, {}) == 65536);
  CHECK(nvls_chunk_bytes(2048 * kMiB, 8, {}) == 131072);
  const auto e = with_protocol(r, "nvls", 16 * kMiB, s, Protocol::kSimple);
  CHECK(e.time_s == Approx(25e-6 + (16 + 8) * kMiB * 1.125 / wire_bw));  // 116.7 us
  CHECK(e.tuner_time_s == Approx(25e-6 + 16 * kMiB * 1.125 / wire_bw));   // 86.1 us
  // busBW 1.75 x 16 MiB / 116.7 us = 251.6 GB/s, not the 478 GB/s asymptote.
  const auto row = collective_sweep(r, CollectiveOp::kAllReduce, {16 * kMiB}, s, {}, "nvls").rows[0];
  CHECK(row.busbw_GBps == Approx(1.75 * 16 * kMiB / (25e-6 + 24 * kMiB * 1.125 / wire_bw) * 1e-9));
  CHECK(row.busbw_GBps < 260);
  // A message below one loop (2 MiB at 16 KiB chunks) crosses the three stages in turn: 3 S.
  const auto small = with_protocol(r, "nvls", 1 * kMiB, s, Protocol::kSimple);
  CHECK(small.bandwidth_s == Approx(3 * kMiB * 1.125 / wire_bw));
}

TEST_CASE("8 x H100 all_reduce ramps to its asymptote, monotone in time", "[models][collective][ramp]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 1, {});
  const auto sweep = collective_sweep(r, CollectiveOp::kAllReduce, size_sweep(8, 8.0 * (1ull << 30)), s);
  for (std::size_t i = 1; i < sweep.rows.size(); ++i) {
    INFO(sweep.rows[i].bytes << " B");
    CHECK(sweep.rows[i].time_s >= sweep.rows[i - 1].time_s);
  }
  // 1 MiB: NCCL's model prefers ring LL (15 + 1.75 MiB / 141 GB/s = 28.01 us) to NVLS
  // (25 + 1.125 MiB / 308.7 GB/s = 28.82 us); busBW 1.75 MiB / 28.01 us = 65.5 GB/s, 14% of
  // the NVLS asymptote.
  const auto at = [&](double bytes) {
    for (const auto& row : sweep.rows) {
      if (row.bytes == bytes) return row;
    }
    FAIL("no row for " << bytes);
    return sweep.rows[0];
  };
  const auto one = at(kMiB);
  CHECK(one.algorithm == "ring");
  CHECK(one.protocol == Protocol::kLL);
  CHECK(one.busbw_GBps == Approx(1.75 * kMiB / (15e-6 + 1.75 * kMiB / 141e9) * 1e-9));
  CHECK(at(16 * kMiB).algorithm == "nvls");
  CHECK(at(16 * kMiB).busbw_GBps < 0.6 * 478);
  CHECK(at(8192 * kMiB).busbw_GBps == Approx(478).epsilon(0.05));
}
