#pragma once
// A line chart as inline SVG: one or more lines over a shared x axis, drawn as step functions
// (a trace series holds each value until the next point, LAYOUT.md) or as straight segments
// (a distribution). NaN breaks a line. A line may carry a band (its min to max per bucket of a
// long run, drawn translucent under it), and a chart shaded spans (fault windows) behind its lines.

#include <cmath>
#include <string>
#include <vector>

#include "tools/report/downsample.hpp"

namespace dcsim::tools::report {

// One bucket of a band: the line's lowest and highest value over [x0, x1).
struct BandBucket {
  double x0 = 0.0, x1 = 0.0;
  double lo = 0.0, hi = 0.0;
};

// A stretch of the x axis shaded behind the lines, with what it was (a tooltip).
struct ShadedSpan {
  double x0 = 0.0, x1 = 0.0;
  std::string label;
};

struct ChartLine {
  std::string name;
  std::vector<PlotPoint> points;  // in x order
  bool step = true;
  // A step line's last value holds until here (the end of the run); NaN: it stops at its last
  // point.
  double hold_until = std::nan("");
  std::vector<BandBucket> band;  // empty: no band
};

struct LineChart {
  std::string title;
  std::string x_label;  // with the unit: "time (h)"
  std::string y_label;  // with the unit: "power (kW)"
  std::vector<ChartLine> lines;
  double x_min = std::nan("");  // NaN: from the data
  double x_max = std::nan("");
  bool y_from_zero = true;  // include 0 in the y range (powers, counts); false for temperatures
  std::vector<ShadedSpan> shaded;  // in x units, behind the lines
  std::string shaded_name;         // the legend's name for them ("fault in progress")
  std::vector<ShadedSpan> marks;   // narrow, darker spans behind the lines (where faults began)
  std::string marks_name;
};

// Finite points drawn, over all lines (what data-points says).
std::size_t plotted_points(const LineChart& chart);

std::string svg_line_chart(const LineChart& chart);

}  // namespace dcsim::tools::report
