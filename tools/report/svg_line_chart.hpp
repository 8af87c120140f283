#pragma once
// A line chart as inline SVG: one or more lines over a shared x axis, drawn as step functions
// (a trace series holds each value until the next point, LAYOUT.md) or as straight segments
// (a distribution). NaN breaks a line.

#include <cmath>
#include <string>
#include <vector>

#include "tools/report/downsample.hpp"

namespace dcsim::tools::report {

struct ChartLine {
  std::string name;
  std::vector<PlotPoint> points;  // in x order
  bool step = true;
  // A step line's last value holds until here (the end of the run); NaN: it stops at its last
  // point.
  double hold_until = std::nan("");
};

struct LineChart {
  std::string title;
  std::string x_label;  // with the unit: "time (h)"
  std::string y_label;  // with the unit: "power (kW)"
  std::vector<ChartLine> lines;
  double x_min = std::nan("");  // NaN: from the data
  double x_max = std::nan("");
  bool y_from_zero = true;  // include 0 in the y range (powers, counts); false for temperatures
};

// Finite points drawn, over all lines (what data-points says).
std::size_t plotted_points(const LineChart& chart);

std::string svg_line_chart(const LineChart& chart);

}  // namespace dcsim::tools::report
