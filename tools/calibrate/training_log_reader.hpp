#pragma once
// Reads per-iteration step times from the training logs users already have:
//
//   Megatron-LM   " iteration 10/ 100 | ... | elapsed time per iteration (ms): 12345.6 | ..."
//   NeMo          "... | train_step_timing in s: 12.27 | ..."  (NeMo 2; also "train_step_timing=12.27")
//   MLPerf        ":::MLLOG {..., "key": "tracked_stats", "value": {"throughput": 10.4, ...}, ...}"
//                 (samples per second: the step is the global batch over it)
//
// A log may interleave other lines freely; the first format found is the one read.

#include <istream>
#include <string>
#include <vector>

namespace dcsim::tools::calibrate {

struct StepTimes {
  std::string format;                 // "megatron", "nemo", "mlperf"
  std::vector<double> seconds;        // per iteration (Megatron and NeMo) ...
  std::vector<double> samples_per_s;  // ... or MLPerf throughputs
};

// Throws sim::InputError "<display>: ..." when no line of any format is found.
// Reads line by line (a log of many GB streams through).
StepTimes read_step_times(std::istream& in, const std::string& display);

// The steady-state step: the median of the iterations after the first `skip` (warm-up, first
// compilation, data loader start). Throws sim::InputError when nothing is left.
double steady_step_s(const std::vector<double>& seconds, int skip, const std::string& display);

}  // namespace dcsim::tools::calibrate
