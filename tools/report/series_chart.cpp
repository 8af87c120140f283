// The builders' shared step: trace series -> one bounded, unit-scaled line chart, or one sentence
// when every line of it is flat.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tools/report/downsample.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/report_sections.hpp"

namespace dcsim::tools::report {

namespace {

// A line is flat when all its finite values (and its band) are one value, to 1e-9 of its size.
// Returns that value through `value`; a line with no finite value is not flat (it is a gap).
bool flat_line(const ChartLine& line, double* value) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& p : line.points) {
    if (std::isfinite(p.y)) lo = std::min(lo, p.y), hi = std::max(hi, p.y);
  }
  for (const auto& b : line.band) {
    if (std::isfinite(b.lo)) lo = std::min(lo, b.lo);
    if (std::isfinite(b.hi)) hi = std::max(hi, b.hi);
  }
  if (!(hi >= lo)) return false;
  *value = hi;
  return hi - lo <= 1e-9 * std::max(std::abs(hi), std::abs(lo));
}

// "Title: name 1.00 kW throughout the run (not plotted)." when every line is flat, else "".
std::string flat_sentence(const std::string& title, const std::vector<ChartLine>& lines, const std::string& unit) {
  std::string values;
  for (const auto& l : lines) {
    double v = 0;
    if (!flat_line(l, &v)) return "";
    values += fmt::format("{}{} {:.4g}{}", values.empty() ? "" : ", ", l.name, v, unit.empty() ? "" : " " + unit);
  }
  return values.empty() ? "" : note_html(title + ": " + values + " throughout the run (a flat line, not plotted).");
}

}  // namespace

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
  if (std::string flat = flat_sentence(title, chart.lines, scale.unit); !flat.empty()) return flat;
  // More bands than this overlap into one smear (8 racks): such charts draw the means only.
  constexpr std::size_t kMaxBandedLines = 4;
  const bool banded = std::any_of(chart.lines.begin(), chart.lines.end(), [](const ChartLine& l) { return !l.band.empty(); });
  if (chart.lines.size() > kMaxBandedLines) {
    for (auto& l : chart.lines) l.band.clear();
  }
  chart.y_label = axis_label(what, scale.unit);
  std::string out = svg_line_chart(chart);
  if (banded) {
    std::string bucket;
    band_width_s(run.end_s, &bucket);
    out += note_html(chart.lines.size() > kMaxBandedLines
                         ? fmt::format("A long run: each line is the time-weighted mean per {}; every sample is in "
                                       "trace.h5.",
                                       bucket)
                         : fmt::format("A long run: each line is the time-weighted mean per {0}, its band the lowest to "
                                       "the highest value in that {0}; every sample is in trace.h5.",
                                       bucket));
  }
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
