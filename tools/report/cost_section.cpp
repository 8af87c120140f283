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

// A cell of the options table: money with separators (`decimals`), the summary's string
// ("none", "never"), or "".
std::string usd_cell(const RunData& run, const std::string& pointer, int decimals) {
  const nlohmann::json::json_pointer p(pointer);
  if (!run.summary.contains(p)) return "";
  const auto& v = run.summary.at(p);
  if (v.is_number()) return html_escape(usd_text(v.get<double>(), decimals));
  if (v.is_string()) return html_escape(v.get<std::string>());
  return "";
}

std::string month_cell(const RunData& run, const std::string& pointer) {
  const nlohmann::json::json_pointer p(pointer);
  if (!run.summary.contains(p)) return "";
  const auto& v = run.summary.at(p);
  if (v.is_number()) return fmt::format("month {}", v.get<std::int64_t>());
  return v.is_string() ? html_escape(v.get<std::string>()) : "";
}

std::string options_table(const RunData& run, const std::vector<std::string>& options) {
  std::string out =
      "<table class=\"costs\"><tr><th>option</th><th>TCO</th><th>USD per GPU-hour</th>"
      "<th>USD per million tokens</th><th>energy</th><th>egress</th><th>break-even of owning "
      "against it</th></tr>\n";
  for (const auto& o : options) {
    const std::string base = "/cost/" + o + "/";
    out += fmt::format(
        "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        html_escape(o), usd_cell(run, base + "tco_usd", 0), usd_cell(run, base + "usd_per_gpu_hour", 2),
        usd_cell(run, base + "usd_per_million_tokens", 3), usd_cell(run, base + "energy_usd", 0),
        usd_cell(run, base + "egress_usd", 0), o == "owned" ? "" : month_cell(run, base + "break_even_month"));
  }
  return out + "</table>\n";
}

// Rows "label | USD | share" for the children of `object` that `labels` names (in its order), and
// the total: where the money goes. With a credit among them (the book value left at the end of a
// run shorter than the depreciation, a negative item), a share of the net total means nothing
// (a $5.7 M capex is 134,347,495% of the $4.23 a 1-minute run nets): the shares are then of the
// costs before credits, and the header says so.
std::string breakdown_table(const std::string& title, const nlohmann::json& object, double total_usd,
                            const CostLabels& labels) {
  std::vector<std::pair<std::string, double>> items;
  double gross_usd = 0;
  bool credits = false;
  for (const auto& [key, label] : labels) {
    if (!object.contains(key) || !object.at(key).is_number()) continue;
    const double usd = object.at(key).get<double>();
    items.emplace_back(label, usd);
    if (usd > 0) gross_usd += usd;
    credits = credits || usd < 0;
  }
  if (items.empty()) return "";
  const double base_usd = credits ? gross_usd : total_usd;
  const auto share = [&](double usd) {
    return base_usd != 0 ? fmt::format("{:.3g}%", 100 * usd / base_usd) : std::string();
  };
  std::string rows;
  for (const auto& [label, usd] : items) {
    rows += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                        html_escape(label), html_escape(usd_text(usd, 0)), share(usd));
  }
  return fmt::format("<table class=\"costs\"><tr><th>{}</th><th>USD</th><th>{}</th></tr>\n{}"
                     "<tr><th>total</th><td class=\"num\">{}</td><td class=\"num\">{}</td></tr></table>\n",
                     html_escape(title), credits ? "share of the costs before credits" : "share", rows,
                     html_escape(usd_text(total_usd, 0)), credits ? share(total_usd) : "100%");
}

const nlohmann::json* object_at(const RunData& run, const std::string& pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return run.summary.contains(p) && run.summary.at(p).is_object() ? &run.summary.at(p) : nullptr;
}

// The capex by category and each option's TCO item by item.
std::string breakdown_tables(const RunData& run, const std::vector<std::string>& options) {
  std::string out;
  if (const auto* capex = object_at(run, "/cost/capex")) {
    out += breakdown_table("capex", *capex, summary_number(run, "/cost/capex_usd"), capex_category_labels());
  }
  for (const auto& o : options) {
    const auto* items = object_at(run, "/cost/" + o + "/breakdown");
    if (items == nullptr) continue;
    out += breakdown_table(o + " TCO", *items, summary_number(run, "/cost/" + o + "/tco_usd"), tco_item_labels());
  }
  return out;
}

// What period the figures cover, and the warning when the run simulated little of it.
std::string period_notes(const RunData& run) {
  const nlohmann::json::json_pointer basis("/cost/priced_period_basis");
  if (!run.summary.contains(basis) || !run.summary.at(basis).is_string()) return "";
  const double priced_s = summary_number(run, "/cost/priced_period_s");
  const double months = summary_number(run, "/cost/months");
  std::string text = fmt::format("Priced over {} ({:.0f} billing month{}), ", span_text(priced_s), months,
                                 months == 1 ? "" : "s");
  if (run.summary.at(basis).get<std::string>() == "horizon") {
    text += fmt::format("the horizon asked for: the run simulated {} of it ({:.3g}%); {} kWh of the energy priced "
                        "is after the run, at its last power.",
                        span_text(summary_number(run, "/cost/simulated_s")),
                        100 * summary_number(run, "/cost/simulated_fraction"),
                        grouped(summary_number(run, "/cost/energy_after_run_kwh"), 0));
  } else {
    text += "the run's own span.";
  }
  std::string out = note_html(text);
  const nlohmann::json::json_pointer warning("/cost/warning");
  if (run.summary.contains(warning) && run.summary.at(warning).is_string()) {
    out += note_html("Warning: " + run.summary.at(warning).get<std::string>());
  }
  return out;
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
  BarChart bars{"Total cost of ownership over the period priced", "", {}};
  double max_tco = 0;
  for (const auto& o : options)
    max_tco = std::max(max_tco, std::abs(summary_number(run, "/cost/" + o + "/tco_usd")));
  const UnitScale scale = scale_for("USD", max_tco);
  bars.value_label = axis_label("TCO", scale.unit);
  for (const auto& o : options)
    bars.bars.push_back({o, summary_number(run, "/cost/" + o + "/tco_usd") / scale.divisor});
  s.html += svg_bar_chart(bars);
  s.html += period_notes(run);
  s.html += options_table(run, options);
  s.html += breakdown_tables(run, options);
  s.html += cumulative_chart(run, options);
  const double capex = summary_number(run, "/cost/capex_usd");
  const double gpu_h = summary_number(run, "/cost/delivered_gpu_hours");
  if (std::isfinite(capex) && std::isfinite(gpu_h)) {
    s.html += note_html(fmt::format("Capex {}; {} GPU-hours delivered.", usd_text(capex, 0), grouped(gpu_h, 0)));
  }
  const double hybrid = summary_number(run, "/cost/hybrid/tco_usd");
  if (std::isfinite(hybrid)) {
    s.html += note_html(fmt::format(
        "Hybrid (owned + cloud burst): {} for {} GPU-hours, {} per GPU-hour.", usd_text(hybrid, 0),
        grouped(summary_number(run, "/cost/hybrid/gpu_hours"), 0),
        usd_text(summary_number(run, "/cost/hybrid/usd_per_gpu_hour"), 2)));
  }
  return s;
}

}  // namespace dcsim::tools::report
