// The builders' shared step: trace series -> one bounded, unit-scaled line chart.

#include <fmt/format.h>

#include <algorithm>

#include "tools/report/downsample.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/report_sections.hpp"

namespace dcsim::tools::report {

std::string note_html(const std::string& text) {
  return "<p class=\"note\">" + html_escape(text) + "</p>\n";
}

std::vector<std::string> series_matching(const RunData& run, const std::string& prefix,
                                         const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& p : run.trace.series_paths()) {
    if (p.size() > prefix.size() + suffix.size() && p.compare(0, prefix.size(), prefix) == 0 &&
        p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(p);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string series_chart(const RunData& run, const std::string& title, const std::string& what,
                         const std::vector<SeriesPick>& picks, bool y_from_zero, Reduction reduction) {
  std::vector<SeriesPick> present;
  for (const auto& p : picks) {
    if (run.trace.has_series(p.path) && run.trace.series_points(p.path) > 0) present.push_back(p);
  }
  if (present.empty()) return "";
  const std::size_t left_out =
      present.size() > kMaxLinesPerPlot ? present.size() - kMaxLinesPerPlot : 0;
  present.resize(present.size() - left_out);
  LineChart chart = time_chart(run, title, "");
  chart.y_from_zero = y_from_zero;
  const std::size_t budget = points_per_line(present.size());
  bool averaged = false;
  for (const auto& p : present) {
    bool reduced = false;
    chart.lines.push_back(series_line(run, p.path, p.name, budget, reduction, &reduced));
    averaged = averaged || (reduced && reduction == Reduction::kStepMean);
  }
  const UnitScale scale = scale_lines(chart.lines, run.trace.series_unit(present.front().path));
  chart.y_label = axis_label(what, scale.unit);
  std::string out = svg_line_chart(chart);
  if (averaged) {
    out += note_html(fmt::format("Too many points to draw: each point is the mean over 1/{} of the run, so "
                                 "checkpoints and restarts lower it; every value is in trace.h5.",
                                 std::max<std::size_t>(1, budget / Downsampler::kPointsPerBucket)));
  }
  if (left_out > 0) {
    out += note_html(fmt::format(
        "{} more series of this kind are not plotted (all are in trace.h5).", left_out));
  }
  return out;
}

}  // namespace dcsim::tools::report
