#include "models/cluster/silent_corruption.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::cluster {

SilentCorruption::SilentCorruption(std::optional<SdcDetection> detection, bool log_events, std::uint64_t seed,
                                   const JobTable& jobs, Host& host, sim::Simulator& sim, sim::TraceSink& sink)
    : detection_(detection),
      reported_(detection.has_value() || log_events),
      seed_(seed),
      job_table_(jobs),
      host_(host),
      sim_(sim),
      report_(sink) {
  if (reported_) report_.declare();
}

SilentCorruption::JobState* SilentCorruption::active(std::size_t job) {
  const auto it = jobs_.find(job);
  return it != jobs_.end() && it->second.corruption.active ? &it->second : nullptr;
}

void SilentCorruption::count_fault(bool hit) {
  ++report_.counts.faults;
  if (!hit) ++report_.counts.idle;
}

void SilentCorruption::corrupt(std::size_t job, const std::string& name, int gpus, int node, const std::string& cause,
                               sim::Time quarantine, int clean_through) {
  if (!detection_) {
    throw sim::InternalError("job '" + name +
                             "' corrupted in a cluster without sdc_detection settings (this is a bug: the "
                             "scenario layer sets them whenever a corruption can happen)");
  }
  JobState& s = jobs_[job];
  const int steps = std::max(0, clean_through);
  if (s.corruption.active) {
    report_.log(sim_.now(), name, node, "corrupted_again", steps);
    return;
  }
  ++report_.counts.corrupted;
  s.name = name;
  s.gpus = gpus;
  s.corruption = Corruption{true, steps, sim_.now(), node, quarantine, cause, 0, false};
  if (!s.stream) s.stream.emplace(seed_, "integrity/" + name);
  const bool caught = s.stream->uniform01() < detection_->probability;
  report_.log(sim_.now(), name, node, caught ? "corrupted" : "corrupted_unnoticed", steps);
  if (caught) {
    schedule_detection(job, s);
  } else {
    ++report_.counts.missed;
  }
}

void SilentCorruption::unprotected(const std::string& name, int node) {
  ++report_.counts.unprotected;
  report_.log(sim_.now(), name, node, "unprotected", -1);
}

void SilentCorruption::schedule_detection(std::size_t job, JobState& s) {
  const std::uint64_t id = ++detections_;
  s.corruption.caught = id;
  s.corruption.caught_pending = false;
  const double after_s = detection_->latency_steps * job_table_.step_time_s(job);
  sim_.after(sim::Time::from_seconds(after_s), [this, job, id] { on_caught(job, id); });
}

void SilentCorruption::on_caught(std::size_t job, std::uint64_t id) {
  JobState* s = active(job);
  if (s == nullptr || s->corruption.caught != id) return;  // washed out or ended meanwhile
  if (!job_table_.stepping(job)) {
    // Not stepping (waiting, restarting): its checks see the loss once it runs again.
    s->corruption.caught_pending = true;
    return;
  }
  ++report_.counts.caught;
  const Corruption c = s->corruption;
  const int clean = job_table_.clean_checkpoint(job, c.clean_through);
  report_.log(sim_.now(), s->name, c.node, "caught", clean);
  end(*s, nullptr);
  if (host_.roll_back(job, clean, c.cause, c.node, c.quarantine)) ++report_.counts.quarantines;
}

void SilentCorruption::job_stepping(std::size_t job) {
  JobState* s = active(job);
  if (s != nullptr && s->corruption.caught_pending) schedule_detection(job, *s);
}

void SilentCorruption::restart_from(std::size_t job, int resume_step) {
  JobState* s = active(job);
  if (s == nullptr || resume_step > s->corruption.clean_through) return;
  ++report_.counts.washed_out;
  report_.log(sim_.now(), s->name, s->corruption.node, "washed_out", resume_step);
  end(*s, nullptr);
}

void SilentCorruption::job_finished(std::size_t job) {
  JobState* s = active(job);
  if (s == nullptr) return;
  ++report_.counts.wrong_results;
  end(*s, "finished_corrupted");
}

void SilentCorruption::job_given_up(std::size_t job) {
  if (JobState* s = active(job)) end(*s, nullptr);
}

void SilentCorruption::corrupt_checkpoint_found(const std::string& name, int step) {
  report_.log(sim_.now(), name, -1, "checkpoint_corrupt_found", step);
}

void SilentCorruption::count_corrupt_fallback(double lost_gpu_s) {
  ++report_.counts.corrupt_fallbacks;
  report_.counts.corrupt_fallback_lost_gpu_s += lost_gpu_s;
}

void SilentCorruption::end(JobState& s, const char* event) {
  report_.counts.corrupted_gpu_s += s.gpus * (sim_.now() - s.corruption.since).seconds();
  if (event != nullptr) report_.log(sim_.now(), s.name, s.corruption.node, event, -1);
  s.corruption = {};
}

void SilentCorruption::finish() {
  if (!reported_) return;
  std::size_t at_end = 0;
  for (auto& [job, s] : jobs_) {
    if (!s.corruption.active) continue;
    ++at_end;
    end(s, nullptr);
  }
  report_.emit(at_end);
}

}  // namespace dcsim::models::cluster
