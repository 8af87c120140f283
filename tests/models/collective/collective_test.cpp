#include <catch2/catch.hpp>

#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_presets.hpp"
#include "sim/error.hpp"

using namespace dcsim::models::collective;
using dcsim::models::hardware::hgx_h100;

namespace {
// The acceptance band for large-message asymptotes.
constexpr double kAsymptoteTol = 0.05;
constexpr double kExact = 1e-12;
constexpr double kLarge = 8.0 * (1ull << 30);  // 8 GiB: latency terms are negligible

CollectiveRegistry registry() {
  CollectiveRegistry r{"collective algorithm"};
  register_collective_algorithms(r);
  return r;
}

double busbw(const CollectiveRegistry& r, CollectiveOp op, const CollectiveSystem& s,
             const char* algo, double bytes = kLarge) {
  auto sweep = collective_sweep(r, op, {bytes}, s, {}, algo);
  return sweep.rows.at(0).busbw_GBps;
}
}  // namespace

TEST_CASE("ring all_reduce is exactly the alpha-beta closed form on an ideal fabric",
          "[models][collective]") {
  const auto r = registry();
  CollectiveSystem s;
  s.nodes = 1;
  s.gpus_per_node = 8;
  s.nvlink_bandwidth_bytes_per_s = 100e9;
  const double alpha_us = 2.0;
  const auto tuning = CollectiveTuning::ideal(alpha_us);
  for (double bytes : {8.0, 1e6, 1e9}) {
    const double n = 8, B = 100e9, alpha = alpha_us * 1e-6;
    const double expected = 2 * (n - 1) / n * bytes / B + 2 * (n - 1) * alpha;
    CHECK(estimate_collective(r, CollectiveOp::kAllReduce, bytes, s, tuning, "ring").time_s ==
          Approx(expected).epsilon(kExact));
  }
  // Across 4 nodes with one 800 Gb/s NIC each (100 GB/s, the same as NVLink here), the ring is
  // the same formula over all 32 ranks.
  s.nodes = 4;
  s.nics_per_node = 1;
  s.nic_bandwidth_bps = 800e9;
  const double n = 32, bytes = 1e9;
  CHECK(estimate_collective(r, CollectiveOp::kAllReduce, bytes, s, tuning, "ring").time_s ==
        Approx(2 * (n - 1) / n * bytes / 100e9 + 2 * (n - 1) * 2e-6).epsilon(kExact));
}

TEST_CASE("8 x H100 large-message busbw approaches the nccl-tests asymptotes",
          "[models][collective]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 1, {});
  // NVIDIA/nccl-tests#212: ring about 370 GB/s (450 GB/s less ~20% protocol overhead).
  CHECK(busbw(r, CollectiveOp::kAllReduce, s, "ring") == Approx(370).epsilon(kAsymptoteTol));
  CHECK(busbw(r, CollectiveOp::kAllGather, s, "ring") == Approx(370).epsilon(kAsymptoteTol));
  CHECK(busbw(r, CollectiveOp::kReduceScatter, s, "ring") == Approx(370).epsilon(kAsymptoteTol));
  // nccl-tests#212/#290: NVLS about 476-480 GB/s.
  CHECK(busbw(r, CollectiveOp::kAllReduce, s, "nvls") == Approx(478).epsilon(kAsymptoteTol));
  // NCCL would pick NVLS for a large all_reduce inside an H100 node.
  CHECK(estimate_collective(r, CollectiveOp::kAllReduce, kLarge, s).algorithm == "nvls");
}

TEST_CASE("across nodes busbw is 46-48 GB/s per 400G NIC", "[models][collective]") {
  const auto r = registry();
  // nccl-tests#290: 2 nodes, ring, 46-48 GB/s busBW per NIC.
  for (int nics : {1, 2, 4, 8}) {
    INFO(nics << " NICs per node");
    FabricParams f;
    f.nics_per_node = nics;
    const auto s = make_collective_system(hgx_h100(), 2, f);
    const double per_nic = busbw(r, CollectiveOp::kAllReduce, s, "ring") / nics;
    CHECK(per_nic == Approx(47).epsilon(kAsymptoteTol));
  }
}

TEST_CASE("a communicator inside an NVLink domain of several nodes runs on NVLink alone", "[models][collective]") {
  // GB200 NVL72: a node is a 4-GPU tray, the domain 72 GPUs = 18 trays (node_presets.hpp).
  const auto tray = dcsim::models::hardware::gb200_nvl72_tray();
  const auto tp16 = make_collective_system(tray, 4, {}, 16);
  CHECK(tp16.nodes == 1);  // one NVLink island: no NIC in the way
  CHECK(tp16.gpus_per_node == 16);
  // Two whole domains: two islands, each with the NICs of its 18 trays.
  const auto two_racks = make_collective_system(tray, 36, {});
  CHECK(two_racks.nodes == 2);
  CHECK(two_racks.gpus_per_node == 72);
  CHECK(two_racks.nics_per_node == 18 * 4);
  // The same 16 GPUs on HGX H100 are two nodes joined by NICs.
  const auto hgx = make_collective_system(hgx_h100(), 2, {}, 16);
  CHECK(hgx.nodes == 2);
  CHECK(hgx.gpus_per_node == 8);
}

TEST_CASE("small messages see a latency floor", "[models][collective]") {
  const auto r = registry();
  const auto node = make_collective_system(hgx_h100(), 1, {});
  const auto e1 = estimate_collective(r, CollectiveOp::kAllReduce, 8, node);
  // NCCL's cost model: ring LL, 6.6 us base + 14 steps x 0.6 us = 15 us.
  CHECK(e1.time_s == Approx(15.0e-6).epsilon(1e-3));  // + 8 B at LL bandwidth
  CHECK(e1.protocol == Protocol::kLL);
  const auto nodes16 = make_collective_system(hgx_h100(), 16, {});
  const auto e16 = estimate_collective(r, CollectiveOp::kAllReduce, 8, nodes16);
  // NCCL picks the tree for small multi-node all_reduce: log2(16) = 4 network levels.
  CHECK(e16.algorithm == "tree");
  CHECK(e16.time_s > 10e-6);
  CHECK(e16.time_s < 100e-6);
  // And the ring for large ones.
  CHECK(estimate_collective(r, CollectiveOp::kAllReduce, kLarge, nodes16).algorithm == "ring");
}

TEST_CASE("every algorithm is monotone in size and busbw never exceeds its link",
          "[models][collective]") {
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 4, {});
  const auto sizes = size_sweep(8, 1ull << 33);
  for (const auto& entry : r.entries()) {
    auto algo = entry.factory();
    for (CollectiveOp op : all_ops()) {
      if (!algo->supports(op, s)) continue;
      INFO(entry.name << " " << op_name(op));
      const auto sweep = collective_sweep(r, op, sizes, s, {}, entry.name);
      for (std::size_t i = 1; i < sweep.rows.size(); ++i) {
        CHECK(sweep.rows[i].time_s >= sweep.rows[i - 1].time_s);
        CHECK(sweep.rows[i].busbw_GBps <= 450.0);
      }
    }
  }
}

TEST_CASE("size sweep and bad input", "[models][collective]") {
  const auto sizes = size_sweep(1024, 8.0 * (1ull << 30));
  CHECK(sizes.size() == 24);  // 2^10 .. 2^33
  CHECK(sizes.back() == 8.0 * (1ull << 30));
  const auto r = registry();
  const auto s = make_collective_system(hgx_h100(), 2, {});
  CHECK_THROWS_AS(estimate_collective(r, CollectiveOp::kAllReduce, 0, s), dcsim::sim::ConfigError);
  CHECK_THROWS_AS(estimate_collective(r, CollectiveOp::kAllReduce, 8, s, {}, "nvls"),
                  dcsim::sim::ConfigError);
  CHECK_THROWS_AS(estimate_collective(r, CollectiveOp::kAllReduce, 8, s, {}, "bogus"),
                  dcsim::sim::InputError);
  CHECK_THROWS_AS(make_collective_system(hgx_h100(), 2, {}, 12), dcsim::sim::ConfigError);
  CHECK(make_collective_system(hgx_h100(), 2, {}, 4).ranks() == 4);
  CHECK(parse_op("sendrecv") == CollectiveOp::kPointToPoint);
}
