#include "tools/report/svg_bar_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tools/report/chart_frame.hpp"
#include "tools/report/html_escape.hpp"

namespace dcsim::tools::report {

std::string svg_bar_chart(const BarChart& chart) {
  std::vector<Bar> bars;
  std::copy_if(chart.bars.begin(), chart.bars.end(), std::back_inserter(bars),
               [](const Bar& b) { return std::isfinite(b.value); });
  constexpr double kRow = 26;
  ChartFrame f;
  f.left = 200;  // bar labels
  f.right = 70;  // the value printed after the longest bar
  f.top = 30;
  f.height = f.top + f.bottom + kRow * static_cast<double>(std::max<std::size_t>(bars.size(), 1));
  double lo = 0;
  double hi = 0;
  for (const auto& b : bars) {
    lo = std::min(lo, b.value);
    hi = std::max(hi, b.value);
  }
  f.x = nice_ticks(lo, hi, 6);
  f.y = AxisTicks{0, static_cast<double>(std::max<std::size_t>(bars.size(), 1)), 1, {}};

  std::string out = f.open(chart.title, "bar", bars.size(), false);
  out += f.axes(chart.value_label, "", false);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const double y = f.plot_top() + kRow * static_cast<double>(i) + 4;
    const double x0 = f.px(std::min(0.0, b.value));
    const double x1 = f.px(std::max(0.0, b.value));
    std::string shown = b.label.size() > 28 ? b.label.substr(0, 27) + "~" : b.label;
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                       px_text(f.plot_left() - 6), px_text(y + 13), html_escape(shown));
    out += fmt::format(
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: "
        "{:.6g}</title></rect>",
        px_text(x0), px_text(y), px_text(std::max(x1 - x0, 1.0)), px_text(kRow - 8),
        series_colour(i), html_escape(b.label), b.value);
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\">{:.4g}</text>\n", px_text(x1 + 4),
                       px_text(y + 13), b.value);
  }
  return out + ChartFrame::close();
}

}  // namespace dcsim::tools::report
