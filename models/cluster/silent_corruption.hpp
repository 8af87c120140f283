#pragma once
// Silent data corruption of training jobs, and its detection by their loss checks, apart from
// the job lifecycle that acts on a catch (cluster_hosts.cpp). By hand:
//   corrupted      a job's state after the steps it had finished (clean_through) is wrong from
//                  now, and so is every checkpoint it saves later;
//   caught         with the detection probability (one draw per corruption from the job's own
//                  stream "integrity/<job>"), latency_steps x its nominal step time later; a catch
//                  while the job is not stepping (waiting, restarting) waits until it steps again
//                  (job_stepping). The host then rolls the job back (Host::roll_back);
//   missed         never caught: the job runs on to a wrong result (job_finished), unless a
//                  restart from at or before clean_through washes it out first (restart_from);
//   unprotected    a batch or service job has no loss checks: counted, never caught.
// A second corruption of an already corrupted job changes nothing: the rollback must go to
// before the first anyway. Every event is a row of integrity_events and adds to the integrity/*
// summary (integrity_report.hpp).
//
// Cost: per corruption O(log jobs corrupted so far) (state kept by job, in job order, for jobs
// ever corrupted only: a 1e6-job stream without corruptions holds nothing); the calls of a job
// never corrupted are one lookup.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "models/cluster/cluster_config.hpp"
#include "models/cluster/integrity_report.hpp"
#include "models/cluster/job_table.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

class SilentCorruption {
 public:
  // What the detection needs of the job lifecycle.
  class Host {
   public:
    // Caught: interrupt the job for `cause` and resume it from no later than `step`; the GPU's
    // node (-1: none to blame) goes down for `quarantine` when that is positive. True when the
    // node was quarantined.
    virtual bool roll_back(std::size_t job, int step, const std::string& cause, int node, sim::Time quarantine) = 0;

   protected:
    ~Host() = default;
  };

  // `detection` unset: the scenario cannot corrupt a job (a corruption is then a bug). The
  // integrity_events table is declared now when there is a detection or `log_events` (the store's
  // checksums can find corrupt checkpoints); without either, nothing is logged or summarised.
  SilentCorruption(std::optional<SdcDetection> detection, bool log_events, std::uint64_t seed, const JobTable& jobs,
                   Host& host, sim::Simulator& sim, sim::TraceSink& sink);

  // A GPU fault on a node: `hit` whether any stepping job was on it (else it was idle).
  void count_fault(bool hit);
  // Job `job` (named `name`, asking `gpus` GPUs) runs on a wrong state past `clean_through` steps
  // from now; `node` (-1: none) is the GPU's, `cause` the fault class, `quarantine` the node's.
  void corrupt(std::size_t job, const std::string& name, int gpus, int node, const std::string& cause,
               sim::Time quarantine, int clean_through);
  // A job without loss checks on the corrupted node.
  void unprotected(const std::string& name, int node);
  // The job steps again: a catch that came while it did not is scheduled now.
  void job_stepping(std::size_t job);
  // The job resumes from `resume_step`: a corruption after it is washed out.
  void restart_from(std::size_t job, int resume_step);
  // The job finished (a wrong result when corrupted) or was given up (it just stops counting).
  void job_finished(std::size_t job);
  void job_given_up(std::size_t job);
  // The store's checksums found the job's checkpoint at `step` corrupt at a restart read; it went
  // back to the one before, losing `lost_gpu_s`.
  void corrupt_checkpoint_found(const std::string& name, int step);
  void count_corrupt_fallback(double lost_gpu_s);
  // Ends the corruptions still active (their GPU time counted to now) and writes integrity/*.
  void finish();

 private:
  struct Corruption {
    bool active = false;
    int clean_through = 0;
    sim::Time since;
    int node = -1;
    sim::Time quarantine;
    std::string cause;
    std::uint64_t caught = 0;     // the pending detection's id (0: none)
    bool caught_pending = false;  // it came while the job was not stepping
  };
  struct JobState {
    std::string name;
    int gpus = 0;
    Corruption corruption;
    std::optional<sim::RandomStream> stream;  // "integrity/<job>", made at its first corruption
  };
  JobState* active(std::size_t job);
  void schedule_detection(std::size_t job, JobState& s);
  void on_caught(std::size_t job, std::uint64_t id);
  // The corruption stops counting; `event` (null: none) is logged.
  void end(JobState& s, const char* event);

  std::optional<SdcDetection> detection_;
  bool reported_ = false;  // integrity_events and integrity/* written
  std::uint64_t seed_ = 0;
  const JobTable& job_table_;  // stepping (its loss checks see a catch now), its step time, clean checkpoints
  Host& host_;
  sim::Simulator& sim_;
  IntegrityReport report_;
  std::map<std::size_t, JobState> jobs_;  // by job index: the summary ends them in job order
  std::uint64_t detections_ = 0;          // ids of scheduled detections
};

}  // namespace dcsim::models::cluster
