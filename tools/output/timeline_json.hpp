#pragma once
// A run as a Chrome / Perfetto trace-event JSON file (`dcsim run ... --timeline FILE.json`;
// opens in ui.perfetto.dev and chrome://tracing). The format, by process (LAYOUT.md, "Timeline"):
//   pid 1 "jobs"                  a thread per job; "X" slices of its phases, cat waiting, running
//                                 or interrupted (name: the state, e.g. requeued, stalled)
//   pid 2 "cluster"               "C" counters power/cluster_w, jobs/running, jobs/waiting
//   pid 3 "facility"              "C" counters facility/*_w, facility/pue, thermal/busy_clock_factor
//   pid 4 "faults and throttling" "i" instants (scope thread): tid 1 faults, tid 2 throttling
//   pid 10+i "training: <job>"    "X" slices: steps (each with compute, communication and bubble
//                                 children that add up to it) and checkpoint writes
// Times are simulated: ts and dur in microseconds, printed from integer nanoseconds with three
// decimals (exact). The same records give the same bytes (no wall clock, stable order).
//
// Size bounds (TimelineOptions): max_step_slices is shared evenly by the training jobs; a job
// with more steps than its share gets slices of k consecutive steps (k = ceil(steps / share)),
// their parts summed, the checkpoint writes between them a fourth part; a
// counter with more than max_counter_points points gets time-weighted means over that many equal
// buckets. Both are noted in otherData.sampling and in the process's labels.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tools/output/timeline_recorder.hpp"

namespace dcsim::tools::output {

struct TimelineOptions {
  std::size_t max_step_slices = 10000;  // over all training jobs
  std::size_t max_counter_points = 2000;
  TimelineRecordLimits records;
};

struct TimelineMeta {
  std::string scenario;
  std::uint64_t seed = 0;
  std::string dcsim_version;
  std::vector<std::string> overrides;
  std::int64_t end_ns = 0;  // simulated end of the run: unfinished phases end here
};

struct TimelineStats {
  std::size_t events = 0;
};

TimelineStats write_timeline_json(std::ostream& out, const TimelineRecords& records, const TimelineMeta& meta,
                                  const TimelineOptions& options);

// The job phase category of a job_states state: "waiting" (before its first start), "running"
// (running, stalled, migrating: it holds its nodes), "interrupted" (interrupted, preempted,
// requeued: from a fault or preemption until it runs again).
const char* phase_category(const std::string& state);

}  // namespace dcsim::tools::output
