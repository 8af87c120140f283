#include "tools/report/chart_frame.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "tools/report/html_escape.hpp"

namespace dcsim::tools::report {

const std::string& series_colour(std::size_t index) {
  static const std::array<std::string, 8> kColours = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                                      "#CC79A7", "#56B4E9", "#F0E442", "#000000"};
  return kColours[index % kColours.size()];
}

std::string px_text(double v) {
  const double r = std::round(v * 10) / 10;
  return fmt::format("{:g}", r == 0 ? 0.0 : r);
}

double ChartFrame::px(double value) const {
  const double span = x.hi - x.lo;
  return plot_left() + (span > 0 ? (value - x.lo) / span : 0.0) * (plot_right() - plot_left());
}

double ChartFrame::py(double value) const {
  const double span = y.hi - y.lo;
  return plot_bottom() - (span > 0 ? (value - y.lo) / span : 0.0) * (plot_bottom() - plot_top());
}

std::string ChartFrame::open(const std::string& title, const std::string& kind, std::size_t points,
                             bool hover) const {
  std::string out = fmt::format(
      "<svg class=\"chart\" data-kind=\"{}\" data-points=\"{}\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" "
      "role=\"img\" aria-label=\"{}\"",
      kind, points, px_text(width), px_text(height), px_text(width), px_text(height),
      html_escape(title));
  if (hover) {
    out += fmt::format(
        " data-x0=\"{:.9g}\" data-x1=\"{:.9g}\" data-y0=\"{:.9g}\" data-y1=\"{:.9g}\" "
        "data-plot=\"{} {} {} {}\"",
        x.lo, x.hi, y.lo, y.hi, px_text(plot_left()), px_text(plot_top()), px_text(plot_right()),
        px_text(plot_bottom()));
  }
  out += fmt::format("><title>{}</title>\n<text class=\"title\" x=\"{}\" y=\"18\">{}</text>\n",
                     html_escape(title), px_text(plot_left()), html_escape(title));
  return out;
}

std::string ChartFrame::axes(const std::string& x_label, const std::string& y_label,
                             bool y_ticks) const {
  std::string out = "<g class=\"axes\">\n";
  for (const double t : x.ticks) {
    const std::string xp = px_text(px(t));
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>"
        "<text class=\"tick\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        xp, px_text(plot_top()), px_text(plot_bottom()), px_text(plot_bottom() + 16),
        tick_text(t, x.step));
  }
  if (y_ticks) {
    for (const double t : y.ticks) {
      const std::string yp = px_text(py(t));
      out += fmt::format(
          "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>"
          "<text class=\"tick\" x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>\n",
          px_text(plot_left()), yp, px_text(plot_right()), px_text(plot_left() - 6),
          px_text(py(t) + 4), tick_text(t, y.step));
    }
  }
  out += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                     px_text(plot_left()), px_text(plot_top()), px_text(plot_right() - plot_left()),
                     px_text(plot_bottom() - plot_top()));
  out += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     px_text((plot_left() + plot_right()) / 2), px_text(height - 8),
                     html_escape(x_label));
  if (!y_label.empty()) {
    const double cy = (plot_top() + plot_bottom()) / 2;
    out += fmt::format(
        "<text class=\"label\" x=\"14\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
        "{0})\">{1}</text>\n",
        px_text(cy), html_escape(y_label));
  }
  return out + "</g>\n";
}

std::string ChartFrame::legend(
    const std::vector<std::pair<std::string, std::string>>& items) const {
  std::string out = "<g class=\"legend\">\n";
  double x_pos = plot_left();
  for (const auto& [name, colour] : items) {
    // Long names are cut on the chart; the full name is in the swatch's tooltip.
    std::string shown = name.size() > 40 ? name.substr(0, 39) + "~" : name;
    out += fmt::format(
        "<rect x=\"{}\" y=\"30\" width=\"12\" height=\"10\" fill=\"{}\"><title>{}</title></rect>"
        "<text class=\"tick\" x=\"{}\" y=\"39\">{}</text>\n",
        px_text(x_pos), colour, html_escape(name), px_text(x_pos + 16), html_escape(shown));
    x_pos += 16 + 7.0 * static_cast<double>(shown.size()) + 18;
    if (x_pos > plot_right() - 60) break;  // no room for more: the rest stay unlabelled
  }
  return out + "</g>\n";
}

}  // namespace dcsim::tools::report
