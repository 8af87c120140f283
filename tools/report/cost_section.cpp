// Costs: owning against each cloud option, from the economics summary values (TCO, unit costs,
// break-even) and the cumulative cost series.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tools/report/headline.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/report_sections.hpp"
#include "tools/report/svg_bar_chart.hpp"

namespace dcsim::tools::report {

namespace {

// Options in the order a reader compares them: owned, then the cloud offers as the scenario lists
// them, then any other option the summary has (hybrid runs' "burst" is not an option).
std::vector<std::string> cost_options(const RunData& run) {
  std::vector<std::string> out;
  if (!run.summary.contains("cost") || !run.summary.at("cost").is_object()) return out;
  const auto& cost = run.summary.at("cost");
  const auto is_option = [&](const std::string& name) {
    return cost.contains(name) && cost.at(name).is_object() && cost.at(name).contains("tco_usd");
  };
  if (is_option("owned")) out.push_back("owned");
  const nlohmann::json::json_pointer cloud("/economics/cloud");
  if (run.resolved.contains(cloud) && run.resolved.at(cloud).is_array()) {
    for (const auto& c : run.resolved.at(cloud)) {
      const std::string name = c.value("offer", "");
      if (is_option(name) && std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
    }
  }
  for (const auto& [name, value] : cost.items()) {
    if (is_option(name) && std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  }
  return out;
}

// A cell of the options table: a number in `format`, the summary's string ("none", "never"), or "".
std::string cell(const RunData& run, const std::string& pointer, const char* format) {
  const nlohmann::json::json_pointer p(pointer);
  if (!run.summary.contains(p)) return "";
  const auto& v = run.summary.at(p);
  if (v.is_number()) return fmt::format(fmt::runtime(format), v.get<double>());
  if (v.is_string()) return html_escape(v.get<std::string>());
  return "";
}

std::string options_table(const RunData& run, const std::vector<std::string>& options) {
  std::string out =
      "<table class=\"costs\"><tr><th>option</th><th>TCO</th><th>USD per GPU-hour</th>"
      "<th>USD per million tokens</th><th>energy</th><th>egress</th><th>break-even vs "
      "owning</th></tr>\n";
  for (const auto& o : options) {
    const std::string base = "/cost/" + o + "/";
    const double tco = summary_number(run, base + "tco_usd");
    out += fmt::format(
        "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        html_escape(o), std::isfinite(tco) ? html_escape(short_usd_text(tco)) : "",
        cell(run, base + "usd_per_gpu_hour", "{:.2f}"),
        cell(run, base + "usd_per_million_tokens", "{:.3f}"),
        cell(run, base + "energy_usd", "{:.0f} USD"), cell(run, base + "egress_usd", "{:.0f} USD"),
        o == "owned" ? "" : cell(run, base + "break_even_month", "month {:.0f}"));
  }
  return out + "</table>\n";
}

// Cumulative cost per option at each billing month's end. Its own x axis in months: the economics
// horizon can be longer than the simulated run.
std::string cumulative_chart(const RunData& run, const std::vector<std::string>& options) {
  constexpr double kMonthNs = 30.4375 * 86400e9;  // the ledger's billing month (LAYOUT.md)
  LineChart chart{"Cumulative cost at each billing month's end",
                  "time (months)",
                  "",
                  {},
                  0.0,
                  std::nan(""),
                  true,
                  {},
                  "",
                  {},
                  ""};
  const std::size_t budget = points_per_line(std::min(options.size(), kMaxLinesPerPlot));
  for (const auto& o : options) {
    const std::string path = "cost/" + o + "/cumulative_usd";
    if (!run.trace.has_series(path) || chart.lines.size() == kMaxLinesPerPlot) continue;
    const auto last = run.trace.series_last_time_ns(path);
    if (!last) continue;
    Downsampler d(0.0, static_cast<double>(*last) / kMonthNs, budget);
    run.trace.read_series(path, [&](std::span<const std::int64_t> t, std::span<const double> v) {
      for (std::size_t i = 0; i < t.size(); ++i) d.add(static_cast<double>(t[i]) / kMonthNs, v[i]);
    });
    // Straight segments between month ends: the cost accrues during the month.
    chart.lines.push_back({o, d.points(), false, std::nan(""), {}});
  }
  if (chart.lines.empty()) return "";
  const UnitScale scale = scale_lines(chart.lines, "USD");
  chart.y_label = axis_label("cumulative cost", scale.unit);
  return svg_line_chart(chart);
}

}  // namespace

ReportSection cost_section(const RunData& run) {
  ReportSection s{"costs", "Costs", "", ""};
  const auto options = cost_options(run);
  if (options.empty()) {
    s.absent = "no economics section in this scenario";
    return s;
  }
  BarChart bars{"Total cost of ownership over the horizon", "", {}};
  double max_tco = 0;
  for (const auto& o : options)
    max_tco = std::max(max_tco, std::abs(summary_number(run, "/cost/" + o + "/tco_usd")));
  const UnitScale scale = scale_for("USD", max_tco);
  bars.value_label = axis_label("TCO", scale.unit);
  for (const auto& o : options)
    bars.bars.push_back({o, summary_number(run, "/cost/" + o + "/tco_usd") / scale.divisor});
  s.html += svg_bar_chart(bars);
  s.html += options_table(run, options);
  s.html += cumulative_chart(run, options);
  const double capex = summary_number(run, "/cost/capex_usd");
  const double gpu_h = summary_number(run, "/cost/delivered_gpu_hours");
  const double months = summary_number(run, "/cost/months");
  if (std::isfinite(capex) && std::isfinite(gpu_h) && std::isfinite(months)) {
    s.html +=
        note_html(fmt::format("Capex {}; {:.0f} GPU-hours delivered over {:.0f} billing months.",
                              short_usd_text(capex), gpu_h, months));
  }
  const double hybrid = summary_number(run, "/cost/hybrid/tco_usd");
  if (std::isfinite(hybrid)) {
    s.html += note_html(fmt::format(
        "Hybrid (owned + cloud burst): {} for {:.0f} GPU-hours, {:.2f} USD per GPU-hour.",
        short_usd_text(hybrid), summary_number(run, "/cost/hybrid/gpu_hours"),
        summary_number(run, "/cost/hybrid/usd_per_gpu_hour")));
  }
  return s;
}

}  // namespace dcsim::tools::report
