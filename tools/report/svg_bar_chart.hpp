#pragma once
// A horizontal bar chart as inline SVG: one bar per named value (costs per option, utilisation
// per fabric tier), the value printed at the bar's end.

#include <string>
#include <vector>

namespace dcsim::tools::report {

struct Bar {
  std::string label;
  double value = 0.0;  // non-finite values are left out
};

struct BarChart {
  std::string title;
  std::string value_label;  // with the unit: "total cost of ownership (M USD)"
  std::vector<Bar> bars;
};

std::string svg_bar_chart(const BarChart& chart);

}  // namespace dcsim::tools::report
