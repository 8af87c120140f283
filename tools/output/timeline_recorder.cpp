#include "tools/output/timeline_recorder.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "sim/error.hpp"

namespace dcsim::tools::output {

namespace {

// /events/facility kinds that are throttling (the rest are scripted cooling faults).
bool is_throttling_kind(const std::string& kind) {
  static const std::set<std::string> kinds = {"thermal_slowdown",   "gpu_shutdown",       "thermal_nominal",
                                              "power_cap",          "power_cap_end",      "rack_limit_exceeded",
                                              "rack_limit_cleared", "power_spike",        "rack_power_cap",
                                              "rack_cap_insufficient"};
  return kinds.count(kind) > 0;
}

int column_index(const std::vector<sim::Column>& columns, const std::string& name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// Typed cell lookups by column name; a missing column or another type gives the fallback.
struct RowView {
  const std::vector<sim::Column>& columns;
  const std::vector<sim::Cell>& row;

  const sim::Cell* cell(const std::string& name) const {
    const int i = column_index(columns, name);
    return i < 0 ? nullptr : &row[static_cast<std::size_t>(i)];
  }
  std::string text(const std::string& name) const {
    const auto* c = cell(name);
    return c != nullptr && std::holds_alternative<std::string>(*c) ? std::get<std::string>(*c) : std::string();
  }
  double number(const std::string& name) const {
    const auto* c = cell(name);
    if (c == nullptr) return std::numeric_limits<double>::quiet_NaN();
    if (std::holds_alternative<double>(*c)) return std::get<double>(*c);
    if (std::holds_alternative<std::int64_t>(*c)) return static_cast<double>(std::get<std::int64_t>(*c));
    return std::numeric_limits<double>::quiet_NaN();
  }
  std::int64_t integer(const std::string& name) const {
    const auto* c = cell(name);
    if (c != nullptr && std::holds_alternative<std::int64_t>(*c)) return std::get<std::int64_t>(*c);
    const double v = number(name);
    return std::isfinite(v) ? static_cast<std::int64_t>(std::llround(v)) : 0;
  }
  // A time from a `<base>_ns` (int64) or `<base>_s` (float seconds) column.
  std::optional<std::int64_t> time_ns(const std::string& base) const {
    const auto* ns = cell(base + "_ns");
    if (ns != nullptr && std::holds_alternative<std::int64_t>(*ns)) return std::get<std::int64_t>(*ns);
    return seconds_to_ns(number(base + "_s"));
  }
};

}  // namespace

const std::vector<std::string>& timeline_series() {
  static const std::vector<std::string> paths = {"power/cluster_w",    "facility/it_w", "facility/total_w",
                                                 "facility/cooling_w", "facility/pue",  "thermal/busy_clock_factor",
                                                 "jobs/running",       "jobs/waiting"};
  return paths;
}

std::optional<std::int64_t> seconds_to_ns(double seconds) {
  if (!std::isfinite(seconds)) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(seconds * 1e9));
}

TimelineRecorder::TimelineRecorder(sim::TraceSink* next, TimelineRecordLimits limits)
    : next_(next), limits_(limits) {}

sim::SeriesId TimelineRecorder::declare_series(const std::string& path, const std::string& unit,
                                               const std::string& description) {
  const sim::SeriesId id = next_ != nullptr ? next_->declare_series(path, unit, description)
                                            : static_cast<sim::SeriesId>(next_series_++);
  if (const auto& kept = timeline_series(); std::find(kept.begin(), kept.end(), path) != kept.end()) {
    series_[id] = records_.series.size();
    records_.series.push_back({path, unit, description, {}, {}});
  }
  return id;
}

void TimelineRecorder::append(sim::SeriesId series, sim::Time t, double value) {
  if (next_ != nullptr) next_->append(series, t, value);
  const auto it = series_.find(series);
  if (it == series_.end()) return;
  auto& s = records_.series[it->second];
  s.time_ns.push_back(t.ns());
  s.value.push_back(value);
}

sim::TableId TimelineRecorder::declare_table(const std::string& path, std::vector<sim::Column> columns) {
  std::optional<Kind> kind;
  if (path == "jobs") kind = Kind::kJobs;
  if (path == "summary/jobs") kind = Kind::kNamedJobs;
  if (path == "job_states") kind = Kind::kJobStates;
  if (path == "training_steps") kind = Kind::kSteps;
  if (path == "faults" || path == "node_faults" || path == "network/faults" || path == "facility" ||
      path == "training_collectives") {
    kind = Kind::kInstants;
  }
  std::vector<sim::Column> kept_columns = kind ? columns : std::vector<sim::Column>{};
  const sim::TableId id = next_ != nullptr ? next_->declare_table(path, std::move(columns))
                                           : static_cast<sim::TableId>(next_table_++);
  if (kind) tables_[id] = KeptTable{*kind, path, std::move(kept_columns)};
  return id;
}

void TimelineRecorder::append_row(sim::TableId table, std::vector<sim::Cell> row) {
  const auto it = tables_.find(table);
  if (it != tables_.end()) {
    if (finalised_) throw sim::InternalError("timeline recorder: a row after records() (this is a bug)");
    sim::check_row(it->second.path, it->second.columns, row);
    keep_row(it->second, row);
  }
  if (next_ != nullptr) next_->append_row(table, std::move(row));
}

void TimelineRecorder::set_summary(const std::string& path, sim::SummaryValue value) {
  if (next_ != nullptr) next_->set_summary(path, std::move(value));
}

void TimelineRecorder::keep_row(const KeptTable& table, const std::vector<sim::Cell>& row) {
  const RowView r{table.columns, row};
  switch (table.kind) {
    case Kind::kJobs:
    case Kind::kNamedJobs: {
      const bool named = table.kind == Kind::kNamedJobs;
      if (!named && unnamed_jobs_.size() >= limits_.max_jobs) {
        ++records_.jobs_omitted;
        return;
      }
      TimelineRecords::Job job;
      job.name = r.text("name");
      job.arrival_ns = r.time_ns("arrival").value_or(0);
      job.start_ns = r.time_ns("start");
      job.finish_ns = r.time_ns("finish");
      job.state = r.text("state");
      job.nodes = r.integer("nodes");
      job.restarts = r.integer("restarts");
      job.named = named;
      (named ? records_.jobs : unnamed_jobs_).push_back(std::move(job));
      return;
    }
    case Kind::kJobStates:
      records_.transitions.push_back(
          {r.time_ns("time").value_or(0), r.text("job"), r.text("from"), r.text("to"), r.text("cause")});
      return;
    case Kind::kSteps: {
      // A row: a piece of steps, then the checkpoint write that followed it (if any); the
      // interruption flag belongs to the row's last part.
      TimelineRecords::StepPiece p;
      p.start_ns = r.integer("start_ns");
      p.end_ns = r.integer("end_ns");
      p.job = r.text("job");
      p.from_step = r.number("from_step");
      p.to_step = r.number("to_step");
      p.step_s = r.number("step_s");
      p.compute_s = r.number("compute_s");
      p.comm_s = r.number("exposed_comm_s");
      p.bubble_s = r.number("bubble_s");
      const bool interrupted = r.integer("interrupted") != 0;
      const std::int64_t ck_start = r.integer("checkpoint_start_ns"), ck_end = r.integer("checkpoint_end_ns");
      const bool checkpoint = ck_start >= 0 && ck_end >= ck_start;
      p.interrupted = interrupted && !checkpoint;
      if (p.end_ns > p.start_ns) records_.steps.push_back(p);
      if (checkpoint) {
        TimelineRecords::StepPiece ck = p;
        ck.checkpoint = true;
        ck.start_ns = ck_start;
        ck.end_ns = ck_end;
        ck.from_step = ck.to_step = p.to_step;
        ck.interrupted = interrupted;
        records_.steps.push_back(std::move(ck));
      }
      return;
    }
    case Kind::kInstants: {
      if (table.path == "training_collectives") {
        if (records_.collectives >= limits_.max_collectives) {
          ++records_.collectives_omitted;
          return;
        }
        ++records_.collectives;
      } else if (records_.instants.size() - records_.collectives >= limits_.max_instants) {
        ++records_.instants_omitted;
        return;
      }
      TimelineRecords::Instant e;
      e.time_ns = r.time_ns("time").value_or(0);
      e.source = table.path;
      const char* name_column = table.path == "faults" ? "class" : "kind";
      e.name = r.text(name_column);
      e.track = table.path == "facility" && is_throttling_kind(e.name) ? "throttling" : "faults";
      if (table.path == "network/faults") e.name = "network " + e.name;
      const bool collective = table.path == "training_collectives";
      if (collective) {
        e.track = "collectives";
        e.job = r.text("job");
      }
      for (std::size_t i = 0; i < table.columns.size(); ++i) {
        const std::string& c = table.columns[i].name;
        if (c == "time_s" || c == "time_ns" || c == name_column || (collective && c == "job")) continue;
        e.args.emplace_back(c, row[i]);
      }
      records_.instants.push_back(std::move(e));
      return;
    }
  }
}

const TimelineRecords& TimelineRecorder::records() {
  if (!finalised_) {
    finalised_ = true;
    // By arrival (ties: the order their rows came, i.e. finish order): a stable track order.
    const auto by_arrival = [](const TimelineRecords::Job& a, const TimelineRecords::Job& b) {
      return a.arrival_ns < b.arrival_ns;
    };
    std::stable_sort(records_.jobs.begin(), records_.jobs.end(), by_arrival);
    std::stable_sort(unnamed_jobs_.begin(), unnamed_jobs_.end(), by_arrival);
    std::set<std::string> named;
    for (const auto& j : records_.jobs) named.insert(j.name);
    for (auto& j : unnamed_jobs_) {
      if (named.insert(j.name).second) records_.jobs.push_back(std::move(j));
    }
    unnamed_jobs_.clear();
  }
  return records_;
}

}  // namespace dcsim::tools::output
