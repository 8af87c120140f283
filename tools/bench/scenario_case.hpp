#pragma once
// One benchmark case that is a whole scenario run in memory (bench storage, bench inference):
// the document is loaded, built and simulated from a fresh heap, and the case reports the wall
// time of all of it, the peak RSS and the run's summary.

#include <string>

#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"

namespace dcsim::tools::bench {

struct ScenarioCaseRun {
  double wall_s = 0.0;       // loading, building and simulating
  double peak_rss_mb = 0.0;  // of the process, reset before the case
  run::RunStats stats;
  sim::MemoryTraceSink sink;
  // A summary value as a number (0 when it is text).
  double number(const std::string& key) const;
};

// Runs the scenario `document` (JSON text) named `name` with the built-in models into `out`.
void run_scenario_case(const char* document, const std::string& name, ScenarioCaseRun& out);

}  // namespace dcsim::tools::bench
