// The job timeline (a Gantt chart of waiting and running per job) and throughput (training
// tokens/s, busy nodes, jobs completed and bytes delivered over time).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tools/report/report_sections.hpp"
#include "tools/report/svg_gantt_chart.hpp"

namespace dcsim::tools::report {

namespace {

// Rows a Gantt chart draws: beyond this a row is under 3 px; the rest are counted in a note.
constexpr std::size_t kMaxGanttRows = 200;

// A cumulative count (or sum) over event times as a bounded step line: `times` in seconds.
ChartLine cumulative_line(const RunData& run, std::vector<std::pair<double, double>> events,
                          const std::string& name, std::size_t max_points) {
  std::sort(events.begin(), events.end());
  const double end_units = end_in_units(run);
  Downsampler d(0.0, end_units, max_points);
  d.add(0.0, 0.0);
  double total = 0;
  for (const auto& [t, amount] : events) {
    total += amount;
    d.add(t / run.time.seconds_per_unit, total);
  }
  ChartLine line;
  line.name = name;
  line.points = d.points();
  line.hold_until = end_units;
  return line;
}

std::string completions_chart(const RunData& run) {
  if (!run.trace.has_table("events/jobs") || run.trace.table_rows("events/jobs") == 0) return "";
  const auto finish = run.trace.read_number_column("events/jobs", "finish_s");
  const auto names = run.trace.read_string_column("events/jobs", "name");
  // Inference replicas end when their service scales down or the run ends: not completions.
  std::vector<std::string> replica_prefixes;
  for (const auto& service : service_names(run)) replica_prefixes.push_back(service + "/replica-");
  const auto is_replica = [&](const std::string& name) {
    return std::any_of(replica_prefixes.begin(), replica_prefixes.end(),
                       [&](const std::string& p) { return name.rfind(p, 0) == 0; });
  };
  std::vector<std::pair<double, double>> events;
  bool any_job = false;
  for (std::size_t i = 0; i < finish.size(); ++i) {
    if (is_replica(names[i])) continue;
    any_job = true;
    if (std::isfinite(finish[i])) events.emplace_back(finish[i], 1.0);
  }
  if (!any_job) return "";
  if (events.empty()) return note_html("No job completed during the run.");
  LineChart chart = time_chart(run, "Jobs completed (cumulative)", "jobs completed");
  chart.lines.push_back(cumulative_line(run, std::move(events), "completed", kMaxPointsPerPlot));
  return svg_line_chart(chart);
}

std::string delivered_chart(const RunData& run) {
  const std::string table = "events/network/flows";
  if (!run.trace.has_table(table) || run.trace.table_rows(table) == 0) return "";
  const auto finish_ns = run.trace.read_number_column(table, "finish_ns");
  const auto bytes = run.trace.read_number_column(table, "bytes");
  const auto status = run.trace.read_string_column(table, "status");
  std::vector<std::pair<double, double>> events;
  for (std::size_t i = 0; i < finish_ns.size(); ++i) {
    if (status[i] == "ok" && std::isfinite(finish_ns[i]))
      events.emplace_back(finish_ns[i] * 1e-9, bytes[i]);
  }
  if (events.empty()) return note_html("No flow delivered its bytes during the run.");
  LineChart chart = time_chart(run, "Fabric: payload delivered (cumulative, at each flow's completion)", "");
  chart.lines.push_back(cumulative_line(run, std::move(events), "delivered", kMaxPointsPerPlot));
  const UnitScale scale = scale_lines(chart.lines, "B");
  chart.y_label = axis_label("delivered", scale.unit);
  return svg_line_chart(chart);
}

// "2nd", "3rd", "5th", "11th", "21st".
std::string ordinal(std::size_t n) {
  const std::size_t tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th"
                       : n % 10 == 1            ? "st"
                       : n % 10 == 2            ? "nd"
                       : n % 10 == 3            ? "rd"
                                                : "th";
  return std::to_string(n) + suffix;
}

}  // namespace

ReportSection job_timeline_section(const RunData& run) {
  ReportSection s{"jobs", "Job timeline", "", ""};
  const std::string table = "events/jobs";
  const std::uint64_t total = run.trace.has_table(table) ? run.trace.table_rows(table) : 0;
  if (total == 0) {
    s.absent = run.trace.has_table(table) ? "no jobs ran in this scenario"
                                          : "no cluster in this scenario, so no jobs";
    return s;
  }
  const auto names = run.trace.read_string_column(table, "name");
  const auto states = run.trace.read_string_column(table, "state");
  const auto arrival = run.trace.read_number_column(table, "arrival_s");
  const auto start = run.trace.read_number_column(table, "start_s");
  const auto finish = run.trace.read_number_column(table, "finish_s");
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return arrival[a] < arrival[b]; });
  // Too many jobs for a row each: every k-th by arrival, so the chart still spans the whole run.
  const std::size_t every = (order.size() + kMaxGanttRows - 1) / kMaxGanttRows;
  GanttChart chart;
  chart.x_label = run.time.label();
  chart.x_end = end_in_units(run);
  const double u = run.time.seconds_per_unit;
  for (std::size_t k = 0; k < order.size(); k += every) {
    const std::size_t i = order[k];
    chart.rows.push_back({names[i], arrival[i] / u, start[i] / u, finish[i] / u, states[i]});
  }
  chart.title = every == 1
                    ? fmt::format("Jobs: waiting and running ({} jobs)", order.size())
                    : fmt::format("Jobs: waiting and running ({} of {} jobs, every {} by arrival)",
                                  chart.rows.size(), order.size(), ordinal(every));
  s.html += svg_gantt_chart(chart);
  if (every > 1) {
    s.html += note_html(fmt::format(
        "{} jobs are too many for a row each: every {} job by arrival is shown ({} rows); "
        "every job is in trace.h5 /events/jobs.",
        order.size(), ordinal(every), chart.rows.size()));
  }
  s.html += series_chart(run, "Jobs waiting and running", "jobs",
                         {{"jobs/running", "running"}, {"jobs/waiting", "waiting"}});
  return s;
}

ReportSection throughput_section(const RunData& run) {
  ReportSection s{"throughput", "Throughput", "", ""};
  std::vector<SeriesPick> tokens;
  for (const auto& p : series_matching(run, "jobs/", "/tokens_per_s")) {
    tokens.push_back({p, p.substr(5, p.size() - 5 - 13)});
  }
  if (!tokens.empty())
    s.html += series_chart(run, "Training throughput per job", "throughput", tokens, true, Reduction::kStepMean);
  s.html += series_chart(run, "Nodes busy", "nodes", {{"nodes/busy", "busy"}});
  s.html += completions_chart(run);
  s.html += delivered_chart(run);
  if (s.html.empty()) s.absent = "no jobs and no fabric traffic in this scenario";
  return s;
}

}  // namespace dcsim::tools::report
