#include "models/cluster/collective_log.hpp"

#include "sim/error.hpp"

namespace dcsim::models::cluster {

const char* transfer_kind(workload::StepTaskRole role) {
  switch (role) {
    case workload::StepTaskRole::kDpGrad:
      return "dp_grad";
    case workload::StepTaskRole::kDpGather:
      return "dp_gather";
    case workload::StepTaskRole::kPp:
      return "pp";
    case workload::StepTaskRole::kTp:
      return "tp";
    case workload::StepTaskRole::kEp: return "ep";
    default:
      throw sim::InternalError("transfer_kind: a compute task is not a transfer (this is a bug)");
  }
}

CollectiveLog::CollectiveLog(sim::TraceSink& sink, std::int64_t max_rows) : sink_(sink), max_rows_(max_rows) {
  using sim::ColumnType;
  table_ = sink.declare_table("training_collectives",
                              {{"time_ns", ColumnType::kInt64, "ns", "start of the transfer (its dependencies done)"},
                               {"job", ColumnType::kString, "", "training job name"},
                               {"kind", ColumnType::kString, "", "dp_grad, dp_gather, pp, tp or ep"},
                               {"step", ColumnType::kInt64, "", "the job's step, 1-based"},
                               {"stage", ColumnType::kInt64, "", "pipeline stage"},
                               {"micro_batch", ColumnType::kInt64, "", "micro-batch (-1: not per micro-batch)"},
                               {"flows", ColumnType::kInt64, "", "fabric flows it started"},
                               {"bytes", ColumnType::kFloat64, "B", "wire bytes of its flows"},
                               {"duration_ns", ColumnType::kInt64, "ns",
                                "start to end: the last flow plus the fixed latency part"}});
}

void CollectiveLog::record(const std::string& job, std::int64_t step, const workload::StepTask& task,
                           sim::Time start, sim::Time end) {
  if (recorded_ >= max_rows_) {
    ++omitted_;
    return;
  }
  ++recorded_;
  double bytes = 0.0;
  for (const workload::StepFlow& f : task.flows) bytes += f.bytes;
  sink_.append_row(table_, {start.ns(), job, std::string(transfer_kind(task.role)), step,
                            static_cast<std::int64_t>(task.stage), static_cast<std::int64_t>(task.micro_batch),
                            static_cast<std::int64_t>(task.flows.size()), bytes, (end - start).ns()});
}

void CollectiveLog::finish() {
  sink_.set_summary("training/collectives_recorded",
                    sim::SummaryValue{recorded_, "transfers",
                                      "fabric collectives and pipeline transfers in training_collectives"});
  sink_.set_summary("training/collectives_omitted",
                    sim::SummaryValue{omitted_, "transfers",
                                      "past the table's row cap: counted, not kept"});
}

}  // namespace dcsim::models::cluster
