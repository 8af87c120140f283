#include "models/cluster/job_report.hpp"

#include <cstdint>
#include <limits>

#include "models/cluster/training_job_run.hpp"

namespace dcsim::models::cluster {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;

// "0 1 2 ...": appended in place (a 2,048-node job's row built a temporary string per node).
std::string node_list(std::span<const int> nodes) {
  std::string list;
  list.reserve(nodes.size() * 6);
  for (int n : nodes) {
    if (!list.empty()) list += ' ';
    list += std::to_string(n);  // short: in the small-string buffer, no allocation
  }
  return list;
}

}  // namespace

void JobReport::declare() {
  std::vector<sim::Column> job_columns = {
      {"name", sim::ColumnType::kString, "", "job name"},
      {"nodes", sim::ColumnType::kInt64, "nodes", "nodes held (or asked for, while waiting)"},
      {"state", sim::ColumnType::kString, "",
       "done, failed (given up by the failover policy), running or waiting at the end of the run"},
      {"arrival_s", sim::ColumnType::kFloat64, "s", "arrival time"},
      {"start_s", sim::ColumnType::kFloat64, "s", "start time (NaN if never started)"},
      {"finish_s", sim::ColumnType::kFloat64, "s", "finish time (NaN if unfinished)"},
      {"wait_s", sim::ColumnType::kFloat64, "s", "start - arrival (NaN if never started)"},
      {"completion_s", sim::ColumnType::kFloat64, "s", "finish - arrival (NaN if unfinished)"},
      {"energy_kwh", sim::ColumnType::kFloat64, "kWh", "energy of the job's nodes while it ran"},
      {"restarts", sim::ColumnType::kInt64, "", "times a fault interrupted it and it started again"},
      {"lost_gpu_h", sim::ColumnType::kFloat64, "GPU-h",
       "work lost to interruptions: progress since the last checkpoint"},
  };
  append_training_columns(job_columns);
  job_columns.push_back({"stall_s", sim::ColumnType::kFloat64, "s",
                         "time stalled at checkpoints held for staging space (off-site copies not done)"});
  std::vector<sim::Column> event_columns = job_columns;
  event_columns.insert(event_columns.begin() + 2,
                       {{"node_list", sim::ColumnType::kString, "", "node indices, space-separated"},
                        {"gpus_per_node", sim::ColumnType::kInt64, "GPUs", "GPUs held on each node"},
                        {"fabric_groups", sim::ColumnType::kInt64, "groups",
                         "distinct fabric groups (leaf switches) of the job's nodes; 0 before it starts"}});
  jobs_table_ = sink_.declare_table("jobs", event_columns);
  states_table_ = sink_.declare_table(
      "job_states",
      {{"time_s", sim::ColumnType::kFloat64, "s", "when"},
       {"job", sim::ColumnType::kString, "", "job name"},
       {"from", sim::ColumnType::kString, "", "waiting, running, stalled, interrupted, requeued or migrating"},
       {"to", sim::ColumnType::kString, "",
        "running, stalled (at a checkpoint held for staging space), interrupted, requeued, migrating, "
        "completed or failed"},
       {"cause", sim::ColumnType::kString, "",
        "fault class, failover action (elastic_shrink, elastic_reform, elastic_expand, migrated), "
        "warning (predicted:<class>, false_alarm) or off-site copy (a stall); empty for normal steps"},
       {"node_list", sim::ColumnType::kString, "", "the job's nodes"}});
  summary_jobs_table_ = sink_.declare_table("summary/jobs", job_columns);
}

void JobReport::row(const Row& r) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool started = r.start != sim::Time::max();
  const double arrival = r.arrival.seconds();
  const double start = started ? r.start.seconds() : nan;
  const double finish = r.done ? r.finish.seconds() : nan;
  std::vector<sim::Cell> row = {r.name,
                                std::int64_t{r.nodes_asked},
                                node_list(r.nodes),
                                std::int64_t{r.gpus_per_node},
                                std::int64_t{r.fabric_groups},
                                r.state,
                                arrival,
                                start,
                                finish,
                                started ? start - arrival : nan,
                                r.done ? finish - arrival : nan,
                                r.energy_j / kJoulesPerKwh,
                                std::int64_t{r.restarts},
                                r.lost_gpu_s / 3600.0};
  append_training_cells(r.plan, r.training, row);
  row.emplace_back(r.stall_s);
  sink_.append_row(jobs_table_, row);
  if (!r.named) return;                         // generated streams are summarised by statistics, not listed
  row.erase(row.begin() + 2, row.begin() + 5);  // the headline table has no placement details
  sink_.append_row(summary_jobs_table_, row);
}

void JobReport::state_change(sim::Time at, const std::string& job, const char* from, const char* to,
                             const std::string& cause, std::span<const int> nodes) {
  sink_.append_row(states_table_, {at.seconds(), job, std::string(from), std::string(to), cause, node_list(nodes)});
}

}  // namespace dcsim::models::cluster
