#pragma once
// Measurements written by dcsim itself under a known stack, in the formats users have: what the
// calibration must recover.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "models/collective/collective_estimator.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/workload/software_stack.hpp"
#include "tools/scenario/training_spec.hpp"

namespace dcsim::calibrate_testing {

inline const models::ModelRegistries& registries() {
  static const models::ModelRegistries r = [] {
    models::ModelRegistries x;
    models::register_builtin_models(x);
    return x;
  }();
  return r;
}

inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("dcsim-calibrate-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// nccl-tests output of `op` on `nodes` HGX H100 nodes as dcsim predicts it under `stack`:
// sizes 8 B .. 8 GiB doubling, the header and one rank line per GPU as all_reduce_perf prints them.
inline std::string nccl_tests_text(const std::string& binary, models::collective::CollectiveOp op, int nodes,
                                   const models::workload::SoftwareStack& stack) {
  namespace mc = models::collective;
  const auto node = models::hardware::hgx_h100();
  const auto system = mc::make_collective_system(node, nodes, tools::scenario::collective_fabric_params(node));
  std::string out = "# Collective test starting: " + binary + "\n";
  out += fmt::format(
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 "
      "agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
  for (int r = 0; r < system.ranks(); ++r) {
    out += fmt::format("#  Rank {:2d} Group  0 Pid {:6d} on {:>10} device {:2d} [0x{:02x}] NVIDIA H100 80GB HBM3\n", r,
                       4000 + r, "node-" + std::to_string(r / node.gpus), r % node.gpus, 0x18 + r % node.gpus);
  }
  out +=
      "#\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
      "busbw #wrong\n";
  for (double bytes = 8; bytes <= 8.0 * (1 << 30); bytes *= 2) {
    const double t =
        mc::estimate_collective(registries().collective_algorithms, op, bytes, system, stack.collective_tuning())
            .time_s;
    const double algbw = bytes / t / 1e9;
    const double busbw = algbw * mc::bus_bandwidth_factor(op, system.ranks());
    out += fmt::format(
        "{:>13.0f} {:>13.0f}     float     sum      -1 {:8.2f} {:7.2f} {:7.2f}      0 {:8.2f} {:7.2f} "
        "{:7.2f}      0\n",
        bytes, bytes / 4, t * 1e6, algbw, busbw, t * 1e6, algbw, busbw);
  }
  out += "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 100.0\n#\n";
  return out;
}

inline void write_text(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace dcsim::calibrate_testing
