#pragma once
// The collectives and pipeline transfers that training steps put on the fabric (flow mode), one
// row each, for timelines and notebooks: table `training_collectives`
//   time_ns      when the transfer started (its dependencies were done)
//   job          training job name
//   kind         dp_grad (gradient reduce-scatter / all-reduce chunk), dp_gather (parameter
//                all-gather), pp (pipeline send), tp (tensor-parallel collective across nodes)
//   step         the job's step, 1-based
//   stage        pipeline stage
//   micro_batch  -1 where the transfer is not per micro-batch
//   flows        fabric flows it started
//   bytes        wire bytes of those flows
//   duration_ns  start to end (the last flow plus the fixed latency part)
// Rows are capped (`max_rows`): past it they are counted, not kept, in the summary
// `training/collectives_omitted` (beside `training/collectives_recorded`).

#include <cstdint>
#include <string>

#include "models/workload/step_graph.hpp"
#include "sim/time.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

class CollectiveLog {
 public:
  static constexpr std::int64_t kDefaultMaxRows = 200000;

  explicit CollectiveLog(sim::TraceSink& sink, std::int64_t max_rows = kDefaultMaxRows);
  CollectiveLog(const CollectiveLog&) = delete;
  CollectiveLog& operator=(const CollectiveLog&) = delete;

  // A fabric task of `job`'s step `step` (1-based) ran from start to end.
  void record(const std::string& job, std::int64_t step, const workload::StepTask& task, sim::Time start,
              sim::Time end);
  // The summary counters.
  void finish();

 private:
  sim::TraceSink& sink_;
  sim::TableId table_ = 0;
  std::int64_t max_rows_ = 0;
  std::int64_t recorded_ = 0;
  std::int64_t omitted_ = 0;
};

// "dp_grad", "dp_gather", "pp", "tp" (InternalError for a compute role: not a transfer).
const char* transfer_kind(workload::StepTaskRole role);

}  // namespace dcsim::models::cluster
