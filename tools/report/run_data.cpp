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
  return chart;
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
  if (reduction == Reduction::kStepMean && too_many && end_units > 0) {
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
  }
  const UnitScale scale = scale_for(unit, max_abs);
  if (scale.divisor != 1.0) {
    for (auto& l : lines) {
      for (auto& p : l.points) p.y /= scale.divisor;
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
