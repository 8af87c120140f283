#pragma once
// Job traces -> JobSpecs: replaying a real cluster's job log ("last quarter's jobs") instead of
// synthetic generators. Three formats (docs/scenarios.md, "Job traces", has the field-by-field mapping):
//   swf            Standard Workload Format of the Parallel Workloads Archive (HPC logs, CPUs)
//                  https://www.cs.huji.ac.il/labs/parallel/workload/swf.html
//   alibaba_openb  the pod lists of Alibaba's cluster-trace-gpu-v2023 (Weng et al., "Beware of
//                  Fragmentation", USENIX ATC 2023; github.com/alibaba/clusterdata)
//   csv            dcsim's own: name,arrival_s,nodes,gpus_per_node,work_s,estimate_s,
//                  gpu_utilization,priority
// Rows a trace holds that dcsim cannot run (zero run time, CPU-only pods, never-scheduled pods)
// are skipped and counted by reason; anything malformed is a sim::InputError that names the file
// and line, the field, the value and what was expected:
//   jobs.swf:12: field 5 (allocated processors): expected a number, got "x"
// The file is read once, line by line; with a limit only about 2 x limit jobs are held at once.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/workload/job_spec.hpp"
#include "sim/time.hpp"

namespace dcsim::tools::scenario {

enum class JobTraceFormat { kSwf, kAlibabaOpenb, kCsv };

// "swf", "alibaba_openb", "csv": the scenario's names, in that order.
const std::vector<std::string>& job_trace_format_names();
// The format a name above stands for; InputError for any other name.
JobTraceFormat job_trace_format(const std::string& name);

struct JobTraceOptions {
  JobTraceFormat format = JobTraceFormat::kCsv;
  // Jobs are named NAME-<id>: the trace's job number (swf), pod name (alibaba_openb), `name`
  // column (csv), or the file line where the trace gives none.
  std::string name;
  // At most this many jobs, the earliest by arrival (file order among equal arrivals).
  std::optional<std::size_t> limit;
  // arrival = start + time_scale x trace arrival; work and estimate = time_scale x trace value.
  sim::Time start = sim::Time::zero();
  double time_scale = 1.0;
  // swf: processors per dcsim node; a job's nodes = ceil(processors / processors_per_node).
  int processors_per_node = 1;
  // Each job's GPU utilisation where the format has none (swf; csv without the column).
  double gpu_utilization = 1.0;
};

struct JobTrace {
  std::vector<models::workload::JobSpec> jobs;  // earliest arrival first, file order among ties
  std::vector<std::size_t> lines;               // the file line of each job, for messages
  std::size_t rows = 0;                         // data rows read (not the header or comments)
  // Rows dcsim cannot run, by reason, in the order the reasons were first met.
  std::vector<std::pair<std::string, std::size_t>> skipped;
  std::size_t beyond_limit = 0;                 // runnable rows left out by `limit`

  std::size_t skipped_rows() const;
  // "284 jobs; 16 rows skipped (12 never scheduled, 4 CPU-only (num_gpu 0)); 0 beyond limit"
  std::string describe() const;
};

// Reads the trace at `path` (a regular file); `display` is how messages name it, `named_at` the
// key that names it (open_data_file).
JobTrace import_job_trace(const std::string& path, const std::string& display, const JobTraceOptions& options,
                          const std::string& named_at = "");
JobTrace import_job_trace(std::istream& in, const std::string& display, const JobTraceOptions& options);

}  // namespace dcsim::tools::scenario
