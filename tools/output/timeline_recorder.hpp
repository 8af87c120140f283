#pragma once
// What a timeline (timeline_json.hpp) is drawn from: a TraceSink decorator that forwards every
// call to the sink behind it (the HDF5 writer) and keeps a copy of the few records a timeline
// needs, so models stay unaware of timelines. Kept, by path (LAYOUT.md):
//   tables  jobs, summary/jobs         one entry per job: arrival, start, finish, state
//           job_states                 every transition (named jobs; unnamed ones a fault touched)
//           training_steps             pieces of steps and checkpoint writes of training jobs
//           faults, node_faults,       instant events (track "faults")
//           network/faults
//           facility                   instant events (track "throttling" for the thermal and
//                                      power-limit kinds, "faults" for the scripted faults)
//   series  power/cluster_w, facility/{it,total,cooling}_w, facility/pue,
//           thermal/busy_clock_factor, jobs/running, jobs/waiting      counter tracks
// Memory stays bounded at scale: at most `max_jobs` rows of the jobs table (every named job is
// kept through summary/jobs) and `max_instants` instant events are kept; the rest are counted.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/trace_sink.hpp"

namespace dcsim::tools::output {

struct TimelineRecords {
  struct Job {
    std::string name;
    std::int64_t arrival_ns = 0;
    std::optional<std::int64_t> start_ns, finish_ns;  // first start; finish (done or failed)
    std::string state;                                // done, failed, running, waiting (jobs table)
    std::int64_t nodes = 0;
    std::int64_t restarts = 0;
    bool named = false;
  };
  struct Transition {
    std::int64_t time_ns = 0;
    std::string job, from, to, cause;
  };
  struct StepPiece {
    std::int64_t start_ns = 0, end_ns = 0;
    std::string job;
    bool checkpoint = false;
    double from_step = 0.0, to_step = 0.0;
    double step_s = 0.0, compute_s = 0.0, comm_s = 0.0, bubble_s = 0.0;  // one step's
    bool interrupted = false;
  };
  struct Instant {
    std::int64_t time_ns = 0;
    std::string track;  // "faults", "throttling" or "collectives" (then `job` says whose)
    std::string job;
    std::string name;
    std::string source;  // the table it came from
    std::vector<std::pair<std::string, sim::Cell>> args;
  };
  struct Series {
    std::string path, unit, description;
    std::vector<std::int64_t> time_ns;
    std::vector<double> value;
  };

  std::vector<Job> jobs;  // named jobs (summary/jobs) first, then unnamed ones; no name twice
  std::int64_t jobs_omitted = 0;
  std::vector<Transition> transitions;  // in time order
  std::vector<StepPiece> steps;         // in time order per job
  std::vector<Instant> instants;        // in the order recorded
  std::int64_t instants_omitted = 0;
  std::size_t collectives = 0;  // of `instants`, on "collectives" tracks
  std::int64_t collectives_omitted = 0;
  std::vector<Series> series;           // the kept ones, in declaration order
};

struct TimelineRecordLimits {
  std::size_t max_jobs = 1000;
  std::size_t max_instants = 20000;     // faults and throttling
  std::size_t max_collectives = 20000;  // training_collectives rows, a budget of their own
};

// The counter tracks a timeline draws, in the order a replay declares them (the rest of a run's
// series stays in trace.h5 only).
const std::vector<std::string>& timeline_series();

// Seconds (as the tables hold them) to integer nanoseconds; NaN to nullopt.
std::optional<std::int64_t> seconds_to_ns(double seconds);

class TimelineRecorder final : public sim::TraceSink {
 public:
  // `next` may be null: then nothing is forwarded (a trace replayed from trace.h5).
  explicit TimelineRecorder(sim::TraceSink* next, TimelineRecordLimits limits = {});

  sim::SeriesId declare_series(const std::string& path, const std::string& unit,
                               const std::string& description) override;
  void append(sim::SeriesId series, sim::Time t, double value) override;
  sim::TableId declare_table(const std::string& path, std::vector<sim::Column> columns) override;
  void append_row(sim::TableId table, std::vector<sim::Cell> row) override;
  void set_summary(const std::string& path, sim::SummaryValue value) override;

  // Jobs in a stable order: named jobs, then unnamed ones, each in the order their rows came.
  const TimelineRecords& records();

 private:
  enum class Kind { kJobs, kNamedJobs, kJobStates, kSteps, kInstants };
  struct KeptTable {
    Kind kind;
    std::string path;
    std::vector<sim::Column> columns;
  };
  void keep_row(const KeptTable& table, const std::vector<sim::Cell>& row);

  sim::TraceSink* next_;
  TimelineRecordLimits limits_;
  TimelineRecords records_;
  std::vector<TimelineRecords::Job> unnamed_jobs_;
  std::size_t next_series_ = 0, next_table_ = 0;  // own ids when there is no next sink
  std::map<sim::SeriesId, std::size_t> series_;   // sink id -> records_.series index
  std::map<sim::TableId, KeptTable> tables_;
  bool finalised_ = false;
};

}  // namespace dcsim::tools::output
