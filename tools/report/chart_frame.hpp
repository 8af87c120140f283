#pragma once
// The parts every SVG chart of the report shares: the <svg> element (with data-points, the
// number of data points drawn, which the browser test checks is > 0), the title, axes with
// ticks and labelled units, a legend, and the mapping from data to pixels.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tools/report/chart_axis.hpp"

namespace dcsim::tools::report {

// Colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008), cycled.
const std::string& series_colour(std::size_t index);

struct ChartFrame {
  double width = 880;
  double height = 300;
  double left = 76;  // room for the y tick labels and the rotated y label
  double right = 20;
  double top = 52;  // title and legend
  double bottom = 46;
  AxisTicks x;
  AxisTicks y;

  double plot_left() const { return left; }
  double plot_right() const { return width - right; }
  double plot_top() const { return top; }
  double plot_bottom() const { return height - bottom; }
  double px(double value) const;  // data x -> pixel x
  double py(double value) const;  // data y -> pixel y

  // `<svg class="chart" data-kind=... data-points=...>` with a <title> and the visible title;
  // hover=true adds the data range attributes the page's hover script reads.
  std::string open(const std::string& title, const std::string& kind, std::size_t points,
                   bool hover) const;
  // Grid, tick labels and axis labels (units in them, e.g. "power (kW)"); y_ticks=false leaves
  // the y axis unlabelled (the Gantt chart labels its rows instead).
  std::string axes(const std::string& x_label, const std::string& y_label,
                   bool y_ticks = true) const;
  // One row of (name, colour) swatches under the title.
  std::string legend(const std::vector<std::pair<std::string, std::string>>& items) const;
  static std::string close() { return "</svg>\n"; }
};

// A pixel coordinate as the SVG text carries it (one decimal: enough on a 880 px chart).
std::string px_text(double v);

}  // namespace dcsim::tools::report
