#pragma once
// `dcsim export TRACE.h5 --timeline FILE.json`: a run's timeline rebuilt from its trace.h5 alone.
// The records a timeline draws (timeline_recorder.hpp) are replayed from /events, /summary/jobs
// and /series into a TimelineRecorder; the scenario, seed, version and overrides come from /meta;
// the run's end is /summary/simulated_s (else the last time any series was recorded). The same
// limits give the same bytes as `dcsim run --timeline`, except where more instant events than
// the limit were recorded (the run keeps the first in time, the replay the first of each table).

#include <filesystem>

#include "tools/output/timeline_file.hpp"

namespace dcsim::tools::output {

// Throws sim::InputError when the trace cannot be opened or is not a dcsim trace.
TimelineStats export_trace_timeline(const std::filesystem::path& trace, TimelineFile& file);

}  // namespace dcsim::tools::output
