#pragma once
// What the cluster reports about silent data corruption, declared apart from the mechanism
// (cluster_hosts.cpp), as models/network/fabric_report.* is for the fabric: the
// integrity_events table and the integrity/* summary. The mechanism adds to the public counts.

#include <cstddef>
#include <string>

#include "sim/time.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

struct IntegrityCounts {
  // Silent data corruptions of GPUs, those that hit no stepping job, jobs corrupted, caught,
  // never to be caught, on jobs without loss checks, washed out by a restart from before them,
  // node quarantines, jobs that ended on corrupted state.
  std::size_t faults = 0, idle = 0, corrupted = 0, caught = 0, missed = 0, unprotected = 0, washed_out = 0,
              quarantines = 0, wrong_results = 0;
  double corrupted_gpu_s = 0.0;  // GPU time run on corrupted state
  // Restart reads that found their checkpoint corrupt (checksums) and went back to an older one.
  std::size_t corrupt_fallbacks = 0;
  double corrupt_fallback_lost_gpu_s = 0.0;
};

class IntegrityReport {
 public:
  explicit IntegrityReport(sim::TraceSink& sink) : sink_(sink) {}

  IntegrityCounts counts;

  // Declares the integrity_events table: the cluster calls it once, where its tables are
  // declared, when it has loss checks or logs integrity events; without it, log and emit do
  // nothing.
  void declare();
  // One row of integrity_events (step -1: none applies).
  void log(sim::Time now, const std::string& job, int node, const char* event, int step);
  // The integrity/* summary; `corrupted_at_end`: jobs still on corrupted state at the end.
  void emit(std::size_t corrupted_at_end) const;

 private:
  sim::TraceSink& sink_;
  bool declared_ = false;
  sim::TableId table_ = 0;
};

}  // namespace dcsim::models::cluster
