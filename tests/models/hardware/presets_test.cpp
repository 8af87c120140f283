#include <catch2/catch.hpp>

#include "models/hardware/gpu_presets.hpp"
#include "models/hardware/node_presets.hpp"

using namespace dcsim::models::hardware;

TEST_CASE("every node preset is a complete, self-consistent node", "[models][hardware]") {
  NodePresetRegistry nodes{"node preset"};
  register_node_presets(nodes);
  REQUIRE(nodes.names() == std::vector<std::string>{"dgx-a100", "dgx-b200", "dgx-h100", "gb200-nvl72", "hgx-b200",
                                                    "hgx-h100", "hgx-h200", "hgx-h800"});
  for (const auto& e : nodes.entries()) {
    INFO(e.name);
    const NodeSpec n = e.factory();
    CHECK(n.preset == e.name);
    CHECK(n.gpus == (e.name == "gb200-nvl72" ? 4 : 8));
    // A domain is whole nodes (models/cluster validates scenarios the same way).
    CHECK(n.nvlink_domain_gpus % n.gpus == 0);
    CHECK(n.gpu.peak_bf16_flops > 0);
    CHECK(n.gpu.hbm_bandwidth_bytes_per_s > 0);
    CHECK(n.gpu.nvlink_bandwidth_bytes_per_s > 0);
    CHECK(n.gpu.sms > 0);
    CHECK(n.compute_nics > 0);
    CHECK(n.gpu.max_power_w > n.gpu.idle_power_w);
    CHECK(n.max_power_w() > n.idle_power_w());
  }
}

TEST_CASE("hgx-h100 carries the reference figures", "[models][hardware]") {
  const NodeSpec n = hgx_h100();
  // shared/reference/public-figures.md, H100 SXM5 and DGX/HGX tables.
  CHECK(n.gpu.peak_bf16_flops == Approx(989.4e12));
  CHECK(n.gpu.peak_fp8_flops == Approx(1978.9e12));
  CHECK(n.gpu.hbm_bandwidth_bytes_per_s == Approx(3.35e12));
  CHECK(n.gpu.nvlink_bandwidth_bytes_per_s == Approx(450e9));
  CHECK(n.compute_nics == 8);
  CHECK(n.compute_nic_bandwidth_bytes_per_s() == Approx(50e9));
  // 10.2 kW max system power (DGX H100 user guide) is the nameplate; a GPU job at full activity
  // draws 8.88 kW (the bottom-up model, tests/models/power/gpu_power_test.cpp).
  CHECK(n.nameplate_power_w() == Approx(10'200.0));
  CHECK(n.max_power_w() == Approx(8 * 700.0 + 3'282.5));
  CHECK(n.nvls);
}

TEST_CASE("H200 differs from H100 only in memory; A100 has no FP8", "[models][hardware]") {
  const GpuSpec h100 = h100_sxm5(), h200 = h200_sxm(), a100 = a100_sxm_80gb();
  CHECK(h200.peak_bf16_flops == h100.peak_bf16_flops);
  // What the driver reports (nvidia-smi memory.total), not the datasheet's rounded "141 GB".
  CHECK(h200.hbm_bytes == Approx(143771.0 * 1024 * 1024));
  CHECK(h200.hbm_bandwidth_bytes_per_s == Approx(4.8e12));
  CHECK(a100.peak_fp8_flops == 0.0);
  CHECK(a100.peak_bf16_flops == Approx(312e12));
  CHECK_FALSE(dgx_a100().nvls);
}

TEST_CASE("a preset field can be overridden like any plain value", "[models][hardware]") {
  NodeSpec n = hgx_h100();
  n.compute_nics = 4;
  n.gpu.max_power_w = 500.0;
  CHECK(n.max_power_w() == Approx(8 * 500.0 + 3'282.5));
}

TEST_CASE("GB200 NVL72: a node is a compute tray and 18 trays are one NVLink domain and ~120 kW",
          "[models][hardware]") {
  const NodeSpec tray = gb200_nvl72_tray();
  // moe-hardware-stacks.md section 3: 18 compute trays of 2 Grace + 4 GPUs, 72 GPUs on NVLink.
  CHECK(tray.gpus == 4);
  CHECK(tray.nvlink_domain_gpus == 72);
  CHECK(tray.compute_nics == 4);
  CHECK(tray.gpu.max_power_w == 1'200.0);
  CHECK(tray.gpu.hbm_bytes == Approx(186e9));
  CHECK(tray.gpu.peak_fp8_flops == Approx(5'000e12));
  // The rack's ~120 kW, switch trays included, is spread over its 18 trays.
  CHECK(18 * tray.max_power_w() == Approx(120'000.0));
}

TEST_CASE("B200 and H800 carry the reference figures", "[models][hardware]") {
  const NodeSpec b = hgx_b200();
  CHECK(b.gpu.peak_bf16_flops == Approx(2'250e12));
  CHECK(b.gpu.nvlink_bandwidth_bytes_per_s == Approx(900e9));
  CHECK(b.max_power_w() == Approx(14'300.0));  // DGX B200 maximum
  // H800: the H100 with NVLink cut to 400 GB/s bidirectional, nothing else.
  const GpuSpec h800 = h800_sxm5(), h100 = h100_sxm5();
  CHECK(h800.nvlink_bandwidth_bytes_per_s == Approx(200e9));
  CHECK(h800.peak_bf16_flops == h100.peak_bf16_flops);
  CHECK(hgx_h800().max_power_w() == hgx_h100().max_power_w());
}
