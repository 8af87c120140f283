#include "tools/report/svg_line_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "tools/report/chart_frame.hpp"
#include "tools/report/html_escape.hpp"

namespace dcsim::tools::report {

namespace {

// The legend swatches of shaded spans and marks: their fills (.shade, .mark in html_page.cpp)
// over white.
constexpr const char* kShadeColour = "#F9E7D9";
constexpr const char* kMarkColour = "#D55E00";

std::string line_path(const ChartFrame& f, const ChartLine& line) {
  std::string d;
  bool open = false;
  for (const auto& p : line.points) {
    if (!std::isfinite(p.y) || !std::isfinite(p.x)) {
      open = false;  // a gap: the next point starts a new piece
      continue;
    }
    const double x = f.px(p.x);
    const double y = f.py(p.y);
    if (!open) {
      d += "M" + px_text(x) + " " + px_text(y);
      open = true;
    } else if (line.step) {
      d += "H" + px_text(x) + "V" + px_text(y);
    } else {
      d += "L" + px_text(x) + " " + px_text(y);
    }
  }
  if (open && line.step && std::isfinite(line.hold_until)) {
    d += "H" + px_text(f.px(line.hold_until));
  }
  // A single point draws nothing as a path: a short tick shows it.
  if (d.find_first_of("HVL") == std::string::npos && !d.empty()) d += "h2";
  return d;
}

// The band as one closed path: along the highs left to right, back along the lows.
std::string band_path(const ChartFrame& f, const std::vector<BandBucket>& band) {
  std::string up, down;
  for (const auto& b : band) {
    if (!std::isfinite(b.lo) || !std::isfinite(b.hi)) continue;
    up += (up.empty() ? "M" : "L") + px_text(f.px(b.x0)) + " " + px_text(f.py(b.hi)) + "H" + px_text(f.px(b.x1));
  }
  for (auto it = band.rbegin(); it != band.rend(); ++it) {
    if (!std::isfinite(it->lo) || !std::isfinite(it->hi)) continue;
    down += "L" + px_text(f.px(it->x1)) + " " + px_text(f.py(it->lo)) + "H" + px_text(f.px(it->x0));
  }
  return up.empty() ? "" : up + down + "Z";
}

// Spans at least 1 px wide (a fault repaired at once still shows), clipped to the plot.
std::string span_rects(const ChartFrame& f, const std::vector<ShadedSpan>& list, const char* css_class) {
  std::string out;
  for (const auto& s : list) {
    const double x0 = std::clamp(f.px(s.x0), f.plot_left(), f.plot_right());
    const double x1 = std::clamp(f.px(s.x1), f.plot_left(), f.plot_right());
    if (!(x1 >= x0)) continue;
    out += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}</title></rect>\n",
                       css_class, px_text(x0), px_text(f.plot_top()), px_text(std::max(1.0, x1 - x0)),
                       px_text(f.plot_bottom() - f.plot_top()), html_escape(s.label));
  }
  return out.empty() ? "" : "<g class=\"" + std::string(css_class) + "s\">\n" + out + "</g>\n";
}

}  // namespace

std::size_t plotted_points(const LineChart& chart) {
  std::size_t n = 0;
  for (const auto& line : chart.lines) {
    n += static_cast<std::size_t>(
        std::count_if(line.points.begin(), line.points.end(),
                      [](const PlotPoint& p) { return std::isfinite(p.x) && std::isfinite(p.y); }));
  }
  return n;
}

std::string svg_line_chart(const LineChart& chart) {
  double x_lo = std::numeric_limits<double>::infinity();
  double x_hi = -x_lo;
  double y_lo = chart.y_from_zero ? 0.0 : x_lo;
  double y_hi = chart.y_from_zero ? 0.0 : -x_lo;
  for (const auto& line : chart.lines) {
    for (const auto& p : line.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
    for (const auto& b : line.band) {
      if (std::isfinite(b.lo)) y_lo = std::min(y_lo, b.lo);
      if (std::isfinite(b.hi)) y_hi = std::max(y_hi, b.hi);
    }
    if (std::isfinite(line.hold_until)) x_hi = std::max(x_hi, line.hold_until);
  }
  if (std::isfinite(chart.x_min)) x_lo = chart.x_min;
  if (std::isfinite(chart.x_max)) x_hi = chart.x_max;
  ChartFrame f;
  f.x = nice_ticks(x_lo, x_hi, 8);
  // The x axis ends where the data does: a run of 54 days should not get an axis to 60.
  if (std::isfinite(x_lo) && std::isfinite(x_hi) && x_hi > x_lo) {
    f.x.lo = x_lo;
    f.x.hi = x_hi;
    std::erase_if(f.x.ticks, [&](double t) {
      return t < x_lo - 1e-9 * f.x.step || t > x_hi + 1e-9 * f.x.step;
    });
  }
  f.y = nice_ticks(y_lo, y_hi, 5);

  std::string out = f.open(chart.title, "line", plotted_points(chart), true);
  out += f.axes(chart.x_label, chart.y_label);
  out += span_rects(f, chart.shaded, "shade");
  out += span_rects(f, chart.marks, "mark");
  std::vector<std::pair<std::string, std::string>> legend;
  out += "<g class=\"lines\">\n";
  for (std::size_t i = 0; i < chart.lines.size(); ++i) {
    const auto& line = chart.lines[i];
    const std::string& colour = series_colour(i);
    legend.emplace_back(line.name, colour);
    if (const std::string band = band_path(f, line.band); !band.empty()) {
      out += fmt::format("<path class=\"band\" fill=\"{}\" d=\"{}\"><title>{}: lowest to highest</title></path>\n",
                         colour, band, html_escape(line.name));
    }
    out += fmt::format("<path class=\"line\" stroke=\"{}\" d=\"{}\"><title>{}</title></path>\n",
                       colour, line_path(f, line), html_escape(line.name));
  }
  out += "</g>\n";
  const bool shaded = !chart.shaded.empty() && !chart.shaded_name.empty();
  if (shaded) legend.emplace_back(chart.shaded_name, kShadeColour);
  const bool marked = !chart.marks.empty() && !chart.marks_name.empty();
  if (marked) legend.emplace_back(chart.marks_name, kMarkColour);
  if (chart.lines.size() > 1 || shaded || marked) out += f.legend(legend);
  out += fmt::format("<text class=\"hover\" x=\"{}\" y=\"{}\" text-anchor=\"end\"></text>\n",
                     px_text(f.plot_right() - 4), px_text(f.plot_top() + 14));
  return out + ChartFrame::close();
}

}  // namespace dcsim::tools::report
