#include "tools/report/run_data.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "tools/report/downsample.hpp"
#include "tools/report/step_mean.hpp"

namespace dcsim::tools::report {

TimeAxis time_axis_for(double span_s) {
  if (span_s < 1e-3) return {1e-6, "us"};
  if (span_s < 1) return {1e-3, "ms"};
  if (span_s <= 120) return {1, "s"};
  if (span_s <= 2 * 3600) return {60, "min"};
  if (span_s <= 4 * 86400) return {3600, "h"};
  return {86400, "d"};
}

LineChart time_chart(const RunData& run, std::string title, std::string y_label) {
  LineChart chart;
  chart.title = std::move(title);
  chart.x_label = run.time.label();
  chart.y_label = std::move(y_label);
  chart.x_min = 0.0;
  chart.x_max = end_in_units(run);
  for (const auto& f : run.faults) {
    chart.shaded.push_back({f.start_s / run.time.seconds_per_unit, f.end_s / run.time.seconds_per_unit, f.what});
  }
  chart.shaded_name = "fault in progress";
  for (const auto& f : run.fault_onsets) {
    chart.marks.push_back({f.start_s / run.time.seconds_per_unit, f.end_s / run.time.seconds_per_unit, f.what});
  }
  chart.marks_name = "fault begins";
  return chart;
}

double band_width_s(double span_s, std::string* name) {
  static const std::pair<double, const char*> kWidths[] = {
      {3600.0, "hour"}, {6 * 3600.0, "6 hours"}, {86400.0, "day"}, {7 * 86400.0, "week"}, {30.4375 * 86400.0, "month"}};
  for (const auto& [width, what] : kWidths) {
    if (span_s / width <= static_cast<double>(kMaxBands) || width == kWidths[4].first) {
      if (name != nullptr) *name = what;
      return width;
    }
  }
  return kWidths[4].first;  // not reached
}

double series_band_width_s(const RunData& run, const std::string& path) {
  if (run.end_s <= kBandsAfterS) return 0.0;
  const double width = band_width_s(run.end_s);
  const double buckets = std::ceil(run.end_s / width);
  return static_cast<double>(run.trace.series_points(path)) > 2 * buckets ? width : 0.0;
}

double summary_number(const RunData& run, const std::string& pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return run.summary.contains(p) && run.summary.at(p).is_number() ? run.summary.at(p).get<double>()
                                                                  : std::nan("");
}

ChartLine series_line(const RunData& run, const std::string& path, const std::string& name,
                      std::size_t max_points, Reduction reduction, bool* reduced) {
  const double end_units = end_in_units(run);
  const double ns_per_unit = run.time.seconds_per_unit * 1e9;
  const bool too_many = run.trace.series_points(path) > max_points;
  if (reduced != nullptr) *reduced = too_many;
  ChartLine line;
  line.name = name;
  if (const double band_s = series_band_width_s(run, path); reduction == Reduction::kEnvelope && band_s > 0) {
    // Whole buckets from 0: the last may reach past the end, where nothing is held.
    const double width = band_s / run.time.seconds_per_unit;
    const auto buckets = static_cast<std::size_t>(std::ceil(end_units / width));
    StepMeanSampler m(0.0, width * static_cast<double>(buckets), buckets, end_units);
    run.trace.read_series(path, [&](std::span<const std::int64_t> t, std::span<const double> v) {
      for (std::size_t i = 0; i < t.size(); ++i) m.add(static_cast<double>(t[i]) / ns_per_unit, v[i]);
    });
    for (const auto& b : m.bands()) {
      line.points.push_back({b.x0, b.mean});
      line.band.push_back({b.x0, b.x1, b.lo, b.hi});
    }
    if (reduced != nullptr) *reduced = true;
  } else if (reduction == Reduction::kStepMean && too_many && end_units > 0) {
    // As many buckets as the envelope would have pixel columns.
    StepMeanSampler m(0.0, end_units, std::max<std::size_t>(1, max_points / Downsampler::kPointsPerBucket));
    run.trace.read_series(path, [&](std::span<const std::int64_t> t, std::span<const double> v) {
      for (std::size_t i = 0; i < t.size(); ++i) m.add(static_cast<double>(t[i]) / ns_per_unit, v[i]);
    });
    line.points = m.points();
  } else {
    Downsampler d(0.0, end_units, max_points);
    run.trace.read_series(path, [&](std::span<const std::int64_t> t, std::span<const double> v) {
      for (std::size_t i = 0; i < t.size(); ++i) d.add(static_cast<double>(t[i]) / ns_per_unit, v[i]);
    });
    line.points = d.points();
  }
  line.step = true;
  line.hold_until = end_units;
  return line;
}

UnitScale scale_lines(std::vector<ChartLine>& lines, const std::string& unit) {
  double max_abs = 0;
  for (const auto& l : lines) {
    for (const auto& p : l.points) {
      if (std::isfinite(p.y)) max_abs = std::max(max_abs, std::abs(p.y));
    }
    for (const auto& b : l.band) {
      if (std::isfinite(b.hi)) max_abs = std::max({max_abs, std::abs(b.hi), std::abs(b.lo)});
    }
  }
  const UnitScale scale = scale_for(unit, max_abs);
  if (scale.divisor != 1.0) {
    for (auto& l : lines) {
      for (auto& p : l.points) p.y /= scale.divisor;
      for (auto& b : l.band) b.lo /= scale.divisor, b.hi /= scale.divisor;
    }
  }
  return scale;
}

std::size_t points_per_line(std::size_t lines) {
  return kMaxPointsPerPlot / std::clamp<std::size_t>(lines, 1, kMaxLinesPerPlot);
}

std::string axis_label(const std::string& what, const std::string& unit) {
  return unit.empty() ? what : what + " (" + unit + ")";
}

}  // namespace dcsim::tools::report
