#pragma once
// One measurement file `dcsim calibrate` reads, as points dcsim can predict under any software
// stack:
//
//  - nccl-tests output (nccl_tests_reader.hpp): one point per size, the out-of-place time,
//    predicted by the analytic collective model (models/collective) on `node` presets;
//  - a training run (JSON): a training job in the scenario's keys, the node preset it ran on, and
//    either its log (training_log_reader.hpp) or the step time a report published:
//
//      {"training_run": {"node": "hgx-h100",
//                        "job": {"model": "llama3-8b", "nodes": 1, "parallelism": {"cp": 2}, ...},
//                        "log": "llama8b.log", "skip_iterations": 2,
//                        "source": "free text"}}
//      ... or "step_time": "12.27 s" instead of "log".
//
//    One point, the steady-state step (the median after skip_iterations, default 1), predicted by
//    the step model (models/workload/training_step.hpp).

#include <functional>
#include <string>
#include <vector>

#include "models/model_registries.hpp"
#include "models/workload/software_stack.hpp"

namespace dcsim::tools::calibrate {

struct MeasurementPoint {
  double measured_s = 0.0;
  std::function<double(const models::workload::SoftwareStack&)> predict_s;
};

struct Measurement {
  std::string file;  // as given on the command line
  std::string what;  // "all_reduce, 16 GPUs on 2 nodes, 24 sizes" / "llama3-8b step, NeMo log, 49 iterations"
  std::vector<MeasurementPoint> points;
};

// Reads one file. `node_preset` is the node nccl-tests ran on (a training run names its own).
// Throws sim::InputError (or sim::InputErrors) "<file>...: ..." for anything it cannot use.
Measurement read_measurement(const std::string& path, const std::string& node_preset,
                             const models::ModelRegistries& registries);

}  // namespace dcsim::tools::calibrate
