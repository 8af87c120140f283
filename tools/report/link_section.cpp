// Link utilisation: the fabric's per-tier utilisation (summary), its busiest link per interval
// (the optional link_utilisation table), flow completion times, and the site uplink's rate.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "tools/report/report_sections.hpp"
#include "tools/report/svg_bar_chart.hpp"

namespace dcsim::tools::report {

namespace {

std::string tier_bars(const RunData& run) {
  BarChart chart{"Fabric link utilisation over the makespan", "utilisation (%)", {}};
  const auto add = [&](const std::string& label, const std::string& pointer) {
    const double v = summary_number(run, pointer);
    if (std::isfinite(v)) chart.bars.push_back({label, 100 * v});
  };
  add("all links, mean", "/network/link_utilisation_mean");
  add("busiest link", "/network/link_utilisation_max");
  for (int tier = 0; tier < 16; ++tier) {
    add(fmt::format("tier {} mean{}", tier, tier == 0 ? " (host links)" : ""),
        fmt::format("/network/link_utilisation_tier{}_mean", tier));
  }
  return chart.bars.empty() ? "" : svg_bar_chart(chart);
}

// The busiest link of each tier, interval by interval. Idle (link, interval) cells are not in the
// table, so a tier's line has points only where it carried traffic.
std::string busiest_link_chart(const RunData& run) {
  const std::string table = "events/network/link_utilisation";
  if (!run.trace.has_table(table) || run.trace.table_rows(table) == 0) return "";
  const auto tier = run.trace.read_number_column(table, "tier");
  const auto start = run.trace.read_number_column(table, "start_ns");
  const auto util = run.trace.read_number_column(table, "utilisation");
  std::map<int, std::map<double, double>> peak;  // tier -> interval start (ns) -> max utilisation
  for (std::size_t i = 0; i < tier.size(); ++i) {
    double& p = peak[static_cast<int>(tier[i])][start[i]];
    p = std::max(p, util[i]);
  }
  LineChart chart = time_chart(run, "Busiest link per tier, per interval", "utilisation (%)");
  const std::size_t budget = points_per_line(std::min(peak.size(), kMaxLinesPerPlot));
  for (const auto& [t, cells] : peak) {
    if (chart.lines.size() == kMaxLinesPerPlot) break;
    Downsampler d(chart.x_min, chart.x_max, budget);
    for (const auto& [s_ns, u] : cells) d.add(s_ns * 1e-9 / run.time.seconds_per_unit, 100 * u);
    chart.lines.push_back({fmt::format("tier {}", t), d.points(), true, chart.x_max, {}});
  }
  return svg_line_chart(chart);
}

// Completion time distribution of the flows that finished: at most kMaxPointsPerPlot quantiles.
std::string fct_chart(const RunData& run) {
  const std::string table = "events/network/flows";
  if (!run.trace.has_table(table) || run.trace.table_rows(table) == 0) return "";
  const auto fct_ns = run.trace.read_number_column(table, "fct_ns");
  const auto status = run.trace.read_string_column(table, "status");
  std::vector<double> fct_s;
  for (std::size_t i = 0; i < fct_ns.size(); ++i) {
    if (status[i] == "ok" && std::isfinite(fct_ns[i])) fct_s.push_back(fct_ns[i] * 1e-9);
  }
  if (fct_s.empty()) return "";
  std::sort(fct_s.begin(), fct_s.end());
  const TimeAxis unit = time_axis_for(fct_s.back());
  LineChart chart{fmt::format("Flow completion times ({} flows)", fct_s.size()),
                  "flow completion time (" + unit.unit + ")",
                  "flows finished (%)",
                  {},
                  std::nan(""),
                  std::nan(""),
                  true,
                  {},
                  "",
                  {},
                  ""};
  ChartLine line{"CDF", {}, false, std::nan(""), {}};
  const std::size_t n = fct_s.size();
  const std::size_t points = std::min(n, kMaxPointsPerPlot);
  for (std::size_t k = 0; k < points; ++k) {
    // Evenly spaced ranks, the last one always the slowest flow.
    const std::size_t i = points == 1 ? 0 : k * (n - 1) / (points - 1);
    line.points.push_back({fct_s[i] / unit.seconds_per_unit,
                           100.0 * static_cast<double>(i + 1) / static_cast<double>(n)});
  }
  chart.lines.push_back(std::move(line));
  return svg_line_chart(chart);
}

}  // namespace

ReportSection link_section(const RunData& run) {
  ReportSection s{"links", "Link utilisation", "", ""};
  // A fabric no flow crossed (batch jobs, closed-form training) has only zeros to chart.
  const double flows = summary_number(run, "/network/flows_completed") + summary_number(run, "/network/flows_failed");
  const bool idle_fabric = std::isfinite(flows) && flows <= 0;
  if (!idle_fabric) s.html += tier_bars(run);
  s.html += busiest_link_chart(run);
  if (!s.html.empty() && !run.trace.has_table("events/network/link_utilisation")) {
    s.html += note_html(
        "Per-interval link utilisation is recorded with /fabric/link_utilisation_interval.");
  }
  s.html += fct_chart(run);
  std::vector<SeriesPick> uplink = {{"uplink/out_bps", "out"}, {"uplink/in_bps", "in"}};
  s.html += series_chart(run, "Site uplink rate", "rate", uplink);
  if (s.html.empty()) {
    s.absent = idle_fabric ? "no flow crossed the fabric in this run, and no uplink traffic"
                           : "no fabric and no uplink traffic in this scenario";
  } else if (idle_fabric) {
    s.html = note_html("No flow crossed the fabric in this run: its links carried nothing.") + s.html;
  }
  return s;
}

}  // namespace dcsim::tools::report
