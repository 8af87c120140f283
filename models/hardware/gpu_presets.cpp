#include "models/hardware/gpu_presets.hpp"

namespace dcsim::models::hardware {

GpuSpec h100_sxm5() {
  GpuSpec gpu;
  gpu.model = "H100 SXM5";
  // Midpoint of the 75-93 W idle draw at 33-35 C and 345 MHz reported by nvidia-smi on a 700 W
  // Hopper SXM (shared/reference/public-figures.md: liguodongiot/llm-action nvidia-smi.md; GKE A3).
  gpu.idle_power_w = 84.0;
  // Default (maximum) power limit 700 W, minimum settable limit 200 W (NVIDIA Hopper whitepaper
  // via glennklockwood.com/garden/processors/h100; nvidia-smi -q of a 700 W Hopper SXM).
  gpu.max_power_w = 700.0;
  gpu.min_power_limit_w = 200.0;
  // Dense tensor throughput (no 2:4 sparsity), same whitepaper source.
  gpu.peak_bf16_flops = 989.4e12;
  gpu.peak_fp8_flops = 1978.9e12;
  gpu.peak_tf32_flops = 494.7e12;
  // HBM3: "80 GB" in the whitepaper; the driver reports 81,559 MiB (FB Memory Usage Total,
  // 516 MiB of it reserved by the driver) in the nvidia-smi -q of a Hopper SXM cited above. The
  // memory check needs what the part holds (80e9 B was 7% short, and decided borderline fits
  // such as Llama 3 405B at TP 8 x PP 16); the job's memory_reserve_bytes covers the driver's
  // reserve, the CUDA context and the allocator.
  gpu.hbm_bytes = 81559.0 * 1024 * 1024;
  gpu.hbm_bandwidth_bytes_per_s = 3.35e12;    // peak, same source
  // NVLink 4: 18 links, 900 GB/s total = 450 GB/s per direction (same; NVIDIA/nccl-tests#212).
  gpu.nvlink_bandwidth_bytes_per_s = 450e9;
  gpu.nvlink_links = 18;
  gpu.sms = 132;                              // same source
  gpu.max_sm_clock_hz = 1.98e9;               // same source
  // Max operating 87 C, slowdown 89 C, shutdown 92 C: the nvidia-smi -q of a 700 W Hopper SXM
  // cited above (public-figures.md, thermal limits).
  gpu.max_operating_c = 87.0;
  gpu.slowdown_c = 89.0;
  gpu.shutdown_c = 92.0;
  return gpu;
}

GpuSpec h200_sxm() {
  // Same GH100 die as the H100 SXM5 (same SMs, clocks, tensor throughput, NVLink 4), with
  // 141 GB of HBM3e at 4.8 TB/s. Not in the reference file: NVIDIA H200 Tensor Core GPU
  // datasheet (nvidia.com/en-us/data-center/h200): FP8 3,958 / BF16 1,979 / TF32 989 TFLOP/s
  // *with sparsity* (halved here for dense), 141 GB, 4.8 TB/s, NVLink 900 GB/s, up to 700 W.
  GpuSpec gpu = h100_sxm5();
  gpu.model = "H200 SXM";
  // "141 GB" in the datasheet; nvidia-smi reports memory.total 143,771 MiB on an H200 (public
  // nvidia-smi --query-gpu outputs), counted as the H100's 81,559 MiB is.
  gpu.hbm_bytes = 143771.0 * 1024 * 1024;
  gpu.hbm_bandwidth_bytes_per_s = 4.8e12;
  // Idle draw not published; the die and board power stage are the H100's, so keep its figure.
  // Thermal limits: no public nvidia-smi -q of an H200 with absolute thresholds was found
  // (drivers from 550 on print margins, "GPU T.Limit Temp"); the die and SXM5 module are the
  // H100's, so its 87 / 89 / 92 C stay (assumption; /facility/throttle overrides them).
  return gpu;
}

GpuSpec a100_sxm_80gb() {
  // Not in the reference file: NVIDIA A100 Tensor Core GPU datasheet (nvidia.com/en-us/
  // data-center/a100), SXM 80 GB column, and the NVIDIA Ampere GA100 whitepaper.
  GpuSpec gpu;
  gpu.model = "A100 SXM4 80GB";
  gpu.peak_bf16_flops = 312e12;   // dense BF16 tensor (624 with sparsity)
  gpu.peak_fp8_flops = 0.0;       // Ampere has no FP8 tensor cores
  gpu.peak_tf32_flops = 156e12;   // dense TF32 tensor (312 with sparsity)
  gpu.hbm_bytes = 81920.0 * 1024 * 1024;  // HBM2e "80 GB": nvidia-smi memory.total 81,920 MiB
  gpu.hbm_bandwidth_bytes_per_s = 2.039e12;
  // NVLink 3: 12 links, 600 GB/s total = 300 GB/s per direction.
  gpu.nvlink_bandwidth_bytes_per_s = 300e9;
  gpu.nvlink_links = 12;
  gpu.max_power_w = 400.0;        // max TDP of the SXM part
  gpu.sms = 108;                  // GA100 whitepaper (A100 configuration)
  gpu.max_sm_clock_hz = 1.41e9;   // boost clock, same whitepaper
  // Not in NVIDIA's datasheet; from the nvidia-smi -q of an A100-SXM4-80GB (driver 525.60.13)
  // in huggingface/m4-logs tr_141-hanging (Jean Zay, 2023-03-04): 68 W at P0, 28 C, nothing
  // running (its seven busy-polling neighbours drew 84-87 W); minimum power limit 100 W;
  // max operating 85 C, slowdown 89 C, shutdown 92 C (HBM max operating 95 C).
  gpu.idle_power_w = 68.0;
  gpu.min_power_limit_w = 100.0;
  gpu.max_operating_c = 85.0;
  gpu.slowdown_c = 89.0;
  gpu.shutdown_c = 92.0;
  return gpu;
}

GpuSpec h800_sxm5() {
  // The export Hopper: the H100 SXM5 part with NVLink cut from 900 to 400 GB/s bidirectional
  // (ISCA'25 arXiv 2505.09343 sections 4.1 and 4.3; shared/reference/moe-hardware-stacks.md
  // section 3, H800); compute, memory and power as the H100's (same sources: "similar to H100").
  GpuSpec gpu = h100_sxm5();
  gpu.model = "H800 SXM5";
  gpu.nvlink_bandwidth_bytes_per_s = 200e9;  // 400 GB/s bidirectional = 200 GB/s per direction
  gpu.nvlink_links = 8;                      // derived: 400 GB/s / 50 GB/s per NVLink 4 link
  return gpu;
}

GpuSpec b200() {
  // shared/reference/moe-hardware-stacks.md section 3 (B200): glennklockwood.com/garden/
  // processors/B200 (NVIDIA Blackwell datasheet), DGX B200 user guide, MLPerf Inference v6.0
  // Nebius B200 system JSON ("B200 TGP 1000W").
  GpuSpec gpu;
  gpu.model = "B200";
  gpu.max_power_w = 1'000.0;
  gpu.peak_bf16_flops = 2'250e12;  // dense (sparse = 2x)
  gpu.peak_fp8_flops = 4'500e12;
  gpu.peak_tf32_flops = 1'100e12;
  gpu.hbm_bytes = 180e9;  // HBM3e, 1,440 GB per 8 (DGX B200 user guide)
  gpu.hbm_bandwidth_bytes_per_s = 8e12;
  // NVLink 5: 18 links x 100 GB/s = 1.8 TB/s bidirectional, 900 GB/s per direction.
  gpu.nvlink_bandwidth_bytes_per_s = 900e9;
  gpu.nvlink_links = 18;
  // Not in the reference file (estimates, override when measured): 148 SMs and a 1.965 GHz boost
  // clock as press summaries of the Blackwell datasheet list them; the idle draw is the H100's
  // 84 W scaled by the power limit (84 x 1000 / 700); the minimum power limit and the thermal
  // limits are the H100's.
  gpu.sms = 148;
  gpu.max_sm_clock_hz = 1.965e9;
  gpu.idle_power_w = 120.0;
  gpu.min_power_limit_w = 200.0;
  gpu.max_operating_c = 87.0;
  gpu.slowdown_c = 89.0;
  gpu.shutdown_c = 92.0;
  return gpu;
}

GpuSpec gb200() {
  // The Blackwell GPU of a GB200 superchip at 1,200 W: moe-hardware-stacks.md section 3 (GB200
  // NVL72): 186 GB HBM3e (MLPerf Inference v6.1 Crusoe GB200-NVL72 system JSON), 8 TB/s, dense
  // BF16 2,500 / FP8 5,000 TFLOP/s (glennklockwood B200 page; NVIDIA's rack FP8 720 PF sparse /
  // 72 / 2 agrees). NVLink 5 as on B200.
  GpuSpec gpu = b200();
  gpu.model = "GB200 (Blackwell)";
  gpu.max_power_w = 1'200.0;
  gpu.peak_bf16_flops = 2'500e12;
  gpu.peak_fp8_flops = 5'000e12;
  gpu.peak_tf32_flops = 1'250e12;  // derived: half of BF16, as on every part above
  gpu.hbm_bytes = 186e9;
  gpu.idle_power_w = 144.0;  // estimate: the H100's 84 W scaled by 1200 / 700
  return gpu;
}

void register_gpu_presets(GpuPresetRegistry& registry) {
  registry.add({"a100-sxm-80gb",
                "A100 SXM4 80GB: 312 TFLOP/s BF16 dense, 2.04 TB/s HBM2e, NVLink 3 300 GB/s/dir, 400 W",
                {},
                &a100_sxm_80gb});
  registry.add({"h100-sxm5",
                "H100 SXM5: 989 TFLOP/s BF16 / 1979 FP8 dense, 80 GB 3.35 TB/s HBM3, NVLink 4 450 GB/s/dir, 700 W",
                {},
                &h100_sxm5});
  registry.add({"h200-sxm",
                "H200 SXM: H100 compute with 141 GB HBM3e at 4.8 TB/s, 700 W",
                {},
                &h200_sxm});
  registry.add({"h800-sxm5",
                "H800 SXM5: H100 SXM5 with NVLink cut to 200 GB/s/dir (400 GB/s bidirectional), 700 W",
                {},
                &h800_sxm5});
  registry.add({"b200",
                "B200: 2250 TFLOP/s BF16 / 4500 FP8 dense, 180 GB 8 TB/s HBM3e, NVLink 5 900 GB/s/dir, 1000 W",
                {},
                &b200});
  registry.add({"gb200",
                "GB200 (Blackwell GPU of the superchip): 2500 TFLOP/s BF16 / 5000 FP8 dense, 186 GB, 8 TB/s, 1200 W",
                {},
                &gb200});
}

}  // namespace dcsim::models::hardware
