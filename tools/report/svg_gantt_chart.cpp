#include "tools/report/svg_gantt_chart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tools/report/chart_frame.hpp"
#include "tools/report/html_escape.hpp"

namespace dcsim::tools::report {

namespace {

constexpr const char* kWaitColour = "#E69F00";
constexpr const char* kRunColour = "#0072B2";

struct Span {
  double from, to;
};

// The waiting and running spans of a row, clipped to the run; empty ones are left out.
std::vector<std::pair<Span, bool>> spans(const GanttRow& r, double x_end) {
  std::vector<std::pair<Span, bool>> out;  // (span, running)
  const double wait_to = std::isfinite(r.start) ? r.start : x_end;
  if (wait_to > r.arrival) out.push_back({{r.arrival, wait_to}, false});
  if (std::isfinite(r.start)) {
    const double run_to = std::isfinite(r.finish) ? r.finish : x_end;
    out.push_back({{r.start, std::max(run_to, r.start)}, true});
  }
  return out;
}

}  // namespace

std::size_t gantt_bars(const GanttChart& chart) {
  std::size_t n = 0;
  for (const auto& r : chart.rows) n += spans(r, chart.x_end).size();
  return n;
}

std::string svg_gantt_chart(const GanttChart& chart) {
  const auto rows = static_cast<double>(std::max<std::size_t>(chart.rows.size(), 1));
  // Rows get thinner as jobs get many, never below 3 px (a row is then a line).
  const double row = std::clamp(640.0 / rows, 3.0, 20.0);
  ChartFrame f;
  f.left = row >= 11 ? 170 : 60;  // job names only where rows are tall enough to read
  f.top = 52;
  f.height = f.top + f.bottom + row * rows;
  double x_lo = 0;
  for (const auto& r : chart.rows) x_lo = std::min(x_lo, r.arrival);
  f.x = nice_ticks(x_lo, std::max(chart.x_end, x_lo), 8);
  f.x.lo = x_lo;
  f.x.hi = std::max(chart.x_end, x_lo + 1e-9);
  std::erase_if(f.x.ticks,
                [&](double t) { return t < f.x.lo - 1e-9 || t > f.x.hi + 1e-9 * f.x.step; });
  f.y = AxisTicks{0, rows, 1, {}};

  std::string out = f.open(chart.title, "gantt", gantt_bars(chart), false);
  out += f.axes(chart.x_label, row >= 11 ? "" : "jobs, in arrival order", false);
  const bool names = row >= 11;
  for (std::size_t i = 0; i < chart.rows.size(); ++i) {
    const auto& r = chart.rows[i];
    const double y = f.plot_top() + row * static_cast<double>(i);
    const double h = std::max(row - (row >= 6 ? 2.0 : 0.5), 1.0);
    if (names) {
      const std::string shown = r.label.size() > 24 ? r.label.substr(0, 23) + "~" : r.label;
      out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                         px_text(f.plot_left() - 6), px_text(y + h / 2 + 4), html_escape(shown));
    }
    for (const auto& [span, running] : spans(r, chart.x_end)) {
      out += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} {:.4g} to "
          "{:.4g} ({})</title></rect>",
          px_text(f.px(span.from)), px_text(y + (row >= 6 ? 1.0 : 0.0)),
          px_text(std::max(f.px(span.to) - f.px(span.from), 0.8)), px_text(h),
          running ? kRunColour : kWaitColour, html_escape(r.label), running ? "ran" : "waited",
          span.from, span.to, html_escape(r.state));
    }
    out += "\n";
  }
  out += f.legend({{"waiting", kWaitColour}, {"running", kRunColour}});
  return out + ChartFrame::close();
}

}  // namespace dcsim::tools::report
