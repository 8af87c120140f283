// Standard Workload Format, version 2.2 (Parallel Workloads Archive,
// https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): one job per line, 18
// whitespace-separated numeric fields, -1 where a log does not know a value; lines starting with
// ';' are header comments. The fields used (1-based, as the format numbers them):
//   1 job number -> the id; 2 submit time (s) -> arrival; 4 run time (s) -> work;
//   5 allocated processors (8 requested processors when 5 is unknown) -> nodes;
//   9 requested time (s) -> estimate; 11 status -> partial executions are left out.
// SWF logs are of CPU machines, so processors are not GPUs: a job's nodes are
// ceil(processors / processors_per_node), and it takes those nodes whole (gpus_per_node 0).

#include <cmath>

#include "tools/scenario/job_trace_rows.hpp"

namespace dcsim::tools::scenario::trace_rows {

namespace {

constexpr std::size_t kFields = 18;
// Status 2, 3, 4: one part of a checkpointed or swapped job; SWF also writes the job's summary
// line (status 0, 1 or 5) covering all of its parts, so replaying both would run it twice.
bool partial_execution(double status) { return status == 2 || status == 3 || status == 4; }

const char* field_name(std::size_t i) {
  static const char* const kNames[kFields] = {
      "job number",       "submit time",      "wait time",         "run time",
      "allocated processors", "average CPU time", "used memory",    "requested processors",
      "requested time",   "requested memory", "status",            "user id",
      "group id",         "executable",       "queue",             "partition",
      "preceding job",    "think time"};
  return kNames[i];
}

std::string field(std::size_t i) { return "field " + std::to_string(i + 1) + " (" + field_name(i) + ")"; }

}  // namespace

void read_swf(LineReader& r, const JobTraceOptions& options, RowSink& sink) {
  std::string line;
  double v[kFields];
  while (r.next(line)) {
    const auto cells = split_whitespace(line);
    if (cells.size() != kFields) {
      r.fail("expected " + std::to_string(kFields) + " whitespace-separated fields (SWF), got " +
             std::to_string(cells.size()));
    }
    for (std::size_t i = 0; i < kFields; ++i) v[i] = number_cell(r, field(i), cells[i]);

    if (partial_execution(v[10])) {
      sink.skip("partial executions (status 2-4; the job's summary line has the whole job)");
      continue;
    }
    if (v[3] <= 0) {
      sink.skip("run time <= 0 (0 or unknown)");
      continue;
    }
    const double processors = v[4] > 0 ? v[4] : v[7];
    if (processors <= 0) {
      sink.skip("processors <= 0 (neither allocated nor requested known)");
      continue;
    }
    if (v[1] < 0) r.fail(field(1) + ": expected a time >= 0 s, got \"" + std::string(cells[1]) + "\"");
    const double nodes = std::ceil(processors / options.processors_per_node);
    if (nodes > 1e9) {
      r.fail(field(v[4] > 0 ? 4 : 7) + ": expected at most 1e9 nodes' worth of processors, got \"" +
             std::string(cells[v[4] > 0 ? 4 : 7]) + "\"");
    }
    Row row;
    // A job number of -1 (unknown) leaves the id to the line number.
    if (v[0] >= 0) row.id = std::string(cells[0]);
    row.line = r.line();
    row.arrival_s = v[1];
    row.work_s = v[3];
    row.estimate_s = v[8] > 0 ? v[8] : 0;
    row.nodes = static_cast<int>(nodes);
    row.gpus_per_node = 0;
    row.gpu_utilization = options.gpu_utilization;
    sink.add(std::move(row));
  }
}

}  // namespace dcsim::tools::scenario::trace_rows
