#include "tools/output/timeline_json.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "tools/output/timeline_event_writer.hpp"
#include "tools/output/timeline_steps.hpp"

namespace dcsim::tools::output {

namespace {

using timeline::Args;
using timeline::EventWriter;
using timeline::number;
using timeline::quote;

constexpr int kJobsPid = 1;
constexpr int kClusterPid = 2;
constexpr int kFacilityPid = 3;
constexpr int kEventsPid = 4;
constexpr int kFaultsTid = 1;
constexpr int kThrottlingTid = 2;
constexpr int kFirstTrainingPid = 10;
constexpr int kCollectivesTid = 2;  // on a training job's process (kEventsPid: a job without one)

void name_process(EventWriter& w, int pid, const std::string& name, int sort_index) {
  w.metadata("process_name", pid, 0, Args().add("name", quote(name)));
  w.metadata("process_sort_index", pid, 0, Args().add("sort_index", fmt::format("{}", sort_index)));
}

void name_thread(EventWriter& w, int pid, int tid, const std::string& name) {
  w.metadata("thread_name", pid, tid, Args().add("name", quote(name)));
  w.metadata("thread_sort_index", pid, tid, Args().add("sort_index", fmt::format("{}", tid)));
}

bool is_terminal(const std::string& state) { return state == "completed" || state == "failed"; }

// One job's phases: from its arrival, each state until the next transition; a job whose early
// transitions were not logged (an unnamed job before its first fault) gets them from the jobs
// table (first start, finish). Contiguous: the durations add up to finish (or the run's end)
// minus arrival. A training job's restart holds its nodes before its first step (relaunch and
// checkpoint reload): that part is "restarting", category interrupted, ending where its steps
// resume (`step_starts`, sorted). A zero-length interruption (resumed at once) is an instant.
void write_job_phases(EventWriter& w, int tid, const TimelineRecords::Job& job,
                      const std::vector<const TimelineRecords::Transition*>& transitions,
                      const std::vector<std::int64_t>& step_starts, std::int64_t end_ns) {
  struct Step {
    std::int64_t t;
    std::string to, cause;
  };
  std::vector<Step> seq;
  const bool first_logged = !transitions.empty() && transitions.front()->from == "waiting";
  if (!first_logged && job.start_ns) seq.push_back({*job.start_ns, "running", ""});
  for (const auto* tr : transitions) seq.push_back({tr->time_ns, tr->to, tr->cause});
  if (job.finish_ns && (seq.empty() || !is_terminal(seq.back().to))) {
    seq.push_back({*job.finish_ns, job.state == "failed" ? "failed" : "completed", ""});
  }
  std::int64_t t = job.arrival_ns;
  std::string state = "waiting", cause, previous;
  const auto slice = [&](const std::string& name, std::int64_t until, const std::string& why, bool unfinished) {
    if (until <= t) return;
    Args args;
    if (!why.empty()) args.add("cause", quote(why));
    if (unfinished) args.add("unfinished", "true");
    w.complete(name, name == "restarting" ? "interrupted" : phase_category(name), t, until - t, kJobsPid, tid, args);
    t = until;
  };
  const auto emit = [&](std::int64_t until, bool unfinished) {
    if (until <= t) {
      if (phase_category(state) == std::string("interrupted") && state != "requeued") {
        w.instant(state, "interruption", t, kJobsPid, tid, Args().add("cause", quote(cause)));
      }
      return;
    }
    if (state == "running" && (previous == "requeued" || previous == "interrupted" || previous == "preempted")) {
      const auto first = std::lower_bound(step_starts.begin(), step_starts.end(), t);
      if (first != step_starts.end() && *first < until)
        slice("restarting", *first, "fault detection and diagnosis, relaunch, checkpoint reload", false);
    }
    slice(state, until, cause, unfinished);
  };
  for (const auto& s : seq) {
    if (is_terminal(state)) break;
    emit(s.t, false);
    t = std::max(t, s.t);
    previous = state;
    state = s.to;
    cause = s.cause;
  }
  if (!is_terminal(state)) emit(std::max(end_ns, t), true);
}

// Time-weighted means of a step function over `buckets` equal buckets from its first point to
// its last (which is kept as is); NaN points are gaps (not counted).
std::vector<std::pair<std::int64_t, double>> downsample(const TimelineRecords::Series& s, std::size_t max_points) {
  std::vector<std::pair<std::int64_t, double>> out;
  const std::size_t n = s.time_ns.size();
  if (n <= std::max<std::size_t>(max_points, 2)) {
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isfinite(s.value[i])) out.emplace_back(s.time_ns[i], s.value[i]);
    }
    return out;
  }
  const std::size_t buckets = std::max<std::size_t>(max_points, 2) - 1;
  const std::int64_t t0 = s.time_ns.front(), t1 = s.time_ns.back();
  const std::int64_t width = std::max<std::int64_t>(1, (t1 - t0 + static_cast<std::int64_t>(buckets) - 1) /
                                                           static_cast<std::int64_t>(buckets));
  std::size_t i = 0;
  for (std::int64_t b0 = t0; b0 < t1; b0 += width) {
    const std::int64_t b1 = std::min(b0 + width, t1);
    double area = 0.0, covered = 0.0;
    // Segment i holds value[i] on [time_ns[i], time_ns[i+1]).
    while (i + 1 < n && s.time_ns[i + 1] <= b0) ++i;
    for (std::size_t j = i; j + 1 < n && s.time_ns[j] < b1; ++j) {
      const std::int64_t lo = std::max(b0, s.time_ns[j]), hi = std::min(b1, s.time_ns[j + 1]);
      if (hi <= lo || !std::isfinite(s.value[j])) continue;
      area += s.value[j] * static_cast<double>(hi - lo);
      covered += static_cast<double>(hi - lo);
    }
    if (covered > 0.0) out.emplace_back(b0, area / covered);
  }
  if (std::isfinite(s.value.back())) out.emplace_back(t1, s.value.back());
  return out;
}

}  // namespace

const char* phase_category(const std::string& state) {
  if (state == "waiting") return "waiting";
  if (state == "interrupted" || state == "preempted" || state == "requeued") return "interrupted";
  return "running";  // running, stalled, migrating: it holds its nodes
}

TimelineStats write_timeline_json(std::ostream& out, const TimelineRecords& records, const TimelineMeta& meta,
                                  const TimelineOptions& options) {
  EventWriter w(out);
  out << "{\"traceEvents\":[";
  Args sampling;

  // Jobs: a thread each, in the records' order (named jobs first).
  std::map<std::string, std::vector<const TimelineRecords::Transition*>> transitions;
  for (const auto& tr : records.transitions) transitions[tr.job].push_back(&tr);
  std::map<std::string, std::vector<std::int64_t>> step_starts;
  for (const auto& p : records.steps) {
    if (!p.checkpoint) step_starts[p.job].push_back(p.start_ns);
  }
  for (auto& [job, starts] : step_starts) std::sort(starts.begin(), starts.end());
  name_process(w, kJobsPid, "jobs", 1);
  for (std::size_t i = 0; i < records.jobs.size(); ++i) {
    const auto& job = records.jobs[i];
    const int tid = static_cast<int>(i) + 1;
    name_thread(w, kJobsPid, tid, fmt::format("{} ({} node{})", job.name, job.nodes, job.nodes == 1 ? "" : "s"));
    static const std::vector<const TimelineRecords::Transition*> none;
    const auto it = transitions.find(job.name);
    const auto starts = step_starts.find(job.name);
    write_job_phases(w, tid, job, it == transitions.end() ? none : it->second,
                     starts == step_starts.end() ? std::vector<std::int64_t>{} : starts->second, meta.end_ns);
  }

  // Training jobs: a process each, in the order their first piece came.
  std::vector<std::string> training_order;
  std::map<std::string, int> training_pid;
  std::map<std::string, std::vector<const TimelineRecords::StepPiece*>> pieces;
  for (const auto& p : records.steps) {
    auto& list = pieces[p.job];
    if (list.empty()) training_order.push_back(p.job);
    list.push_back(&p);
  }
  Args steps_sampling;
  // The step-slice budget, shared evenly: a file's size does not grow with the number of jobs.
  const std::size_t per_job_slices =
      std::max<std::size_t>(1, options.max_step_slices / std::max<std::size_t>(1, training_order.size()));
  for (std::size_t i = 0; i < training_order.size(); ++i) {
    const int pid = kFirstTrainingPid + static_cast<int>(i);
    training_pid[training_order[i]] = pid;
    const auto& list = pieces[training_order[i]];
    const std::int64_t per_slice = timeline::steps_per_slice(list, per_job_slices);
    name_process(w, pid, "training: " + training_order[i], pid);
    name_thread(w, pid, 1, "steps and checkpoints");
    if (per_slice > 1) {
      w.metadata("process_labels", pid, 0,
                 Args().add("labels", quote(fmt::format("{} steps per slice (--timeline-max-steps {} shared by {} "
                                                        "training jobs)",
                                                        per_slice, options.max_step_slices, training_order.size()))));
      steps_sampling.add(training_order[i], fmt::format("{}", per_slice));
    }
    timeline::write_training_steps(w, pid, 1, list, per_slice);
  }
  sampling.add("steps_per_slice", steps_sampling.text());

  // Counters: the cluster's, then the facility's.
  Args counter_sampling;
  bool cluster_named = false, facility_named = false;
  // In path order, whatever order the models declared them in (a trace replayed from trace.h5
  // gives the same bytes).
  std::vector<const TimelineRecords::Series*> series;
  for (const auto& s : records.series) series.push_back(&s);
  std::sort(series.begin(), series.end(), [](const auto* a, const auto* b) { return a->path < b->path; });
  for (const auto* sp : series) {
    const auto& s = *sp;
    const bool facility = s.path.rfind("facility/", 0) == 0 || s.path.rfind("thermal/", 0) == 0;
    const int pid = facility ? kFacilityPid : kClusterPid;
    bool& named = facility ? facility_named : cluster_named;
    if (!named) {
      name_process(w, pid, facility ? "facility" : "cluster", pid);
      named = true;
    }
    const auto points = downsample(s, options.max_counter_points);
    if (s.time_ns.size() > std::max<std::size_t>(options.max_counter_points, 2)) {
      counter_sampling.add(s.path, fmt::format("{}", points.size()));
    }
    const std::string key = s.unit.empty() ? "value" : s.unit;
    for (const auto& [t, v] : points) w.counter(s.path, t, pid, key, v);
  }
  sampling.add("counter_points_after_averaging", counter_sampling.text());

  // Instants: faults and throttling on their process; a training job's collectives on its own
  // (a job without steps on the faults process's third thread).
  const auto is_collective = [](const TimelineRecords::Instant& e) { return e.track == "collectives"; };
  if (std::any_of(records.instants.begin(), records.instants.end(), [&](const auto& e) { return !is_collective(e); })) {
    name_process(w, kEventsPid, "faults and throttling", kEventsPid);
    name_thread(w, kEventsPid, kFaultsTid, "faults");
    name_thread(w, kEventsPid, kThrottlingTid, "throttling");
  }
  std::set<int> collective_tracks;
  const auto collective_place = [&](const TimelineRecords::Instant& e) {
    const auto it = training_pid.find(e.job);
    const std::pair<int, int> place =
        it != training_pid.end() ? std::pair{it->second, kCollectivesTid} : std::pair{kEventsPid, kCollectivesTid + 1};
    if (collective_tracks.insert(place.first).second) name_thread(w, place.first, place.second, "collectives");
    return place;
  };
  // In time order, then by source table (each table's rows keep their order).
  std::vector<const TimelineRecords::Instant*> instants;
  for (const auto& e : records.instants) instants.push_back(&e);
  std::stable_sort(instants.begin(), instants.end(), [](const auto* a, const auto* b) {
    return a->time_ns != b->time_ns ? a->time_ns < b->time_ns : a->source < b->source;
  });
  for (const auto* ep : instants) {
    const auto& e = *ep;
    Args args;
    for (const auto& [key, value] : e.args) args.add(key, timeline::cell(value));
    if (is_collective(e)) {
      const auto [pid, tid] = collective_place(e);
      w.instant(e.name, e.source, e.time_ns, pid, tid, args.add("job", quote(e.job)));
      continue;
    }
    w.instant(e.name, e.source, e.time_ns, kEventsPid, e.track == "throttling" ? kThrottlingTid : kFaultsTid, args);
  }
  sampling.add("jobs_omitted", fmt::format("{}", records.jobs_omitted))
      .add("instants_omitted", fmt::format("{}", records.instants_omitted))
      .add("collectives_omitted", fmt::format("{}", records.collectives_omitted));

  std::string overrides;
  for (const auto& o : meta.overrides) overrides += (overrides.empty() ? "" : ",") + quote(o);
  Args limits;
  limits.add("max_step_slices", fmt::format("{}", options.max_step_slices))
      .add("max_counter_points", fmt::format("{}", options.max_counter_points))
      .add("max_jobs", fmt::format("{}", options.records.max_jobs))
      .add("max_instants", fmt::format("{}", options.records.max_instants))
      .add("max_collectives", fmt::format("{}", options.records.max_collectives));
  Args other;
  other.add("format", quote("dcsim-timeline 1"))
      .add("scenario", quote(meta.scenario))
      .add("seed", fmt::format("{}", meta.seed))
      .add("dcsim_version", quote(meta.dcsim_version))
      .add("overrides", "[" + overrides + "]")
      .add("simulated_s", number(static_cast<double>(meta.end_ns) / 1e9))
      .add("time_unit", quote("ts and dur in microseconds of simulated time"))
      .add("limits", limits.text())
      .add("sampling", sampling.text());
  out << "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":" << other.text() << "}\n";
  return {w.events()};
}

}  // namespace dcsim::tools::output
