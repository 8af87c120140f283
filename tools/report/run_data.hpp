#pragma once
// What the section builders of `dcsim report` read: the run's trace, its summary.json, the
// resolved scenario, where the run ends and the time unit its charts use; and the step from a
// trace series to a bounded chart line.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/output/trace_reader.hpp"
#include "tools/report/svg_line_chart.hpp"
#include "tools/report/unit_scale.hpp"

namespace dcsim::tools::report {

// Points one plot may carry, over all its lines: a 54-day run's page stays a few MB.
inline constexpr std::size_t kMaxPointsPerPlot = 2000;

struct TimeAxis {
  double seconds_per_unit = 1.0;
  std::string unit = "s";  // "us", "ms", "s", "min", "h", "d"
  std::string label() const { return "time (" + unit + ")"; }
};

// The unit that keeps a run of `span_s` readable: up to 2 min in s (ms, us below 1 s), up to 2 h
// in min, up to 4 days in h, longer in days.
TimeAxis time_axis_for(double span_s);

struct RunData {
  const output::TraceReader& trace;
  nlohmann::json summary;   // summary.json
  nlohmann::json resolved;  // /meta scenario_resolved
  double end_s = 0.0;       // the end of the run: the last sample, flow or job event
  TimeAxis time;
};

// The run's end in its time axis's units (the x range of every time chart ends there).
inline double end_in_units(const RunData& run) { return run.end_s / run.time.seconds_per_unit; }
// An empty line chart over the whole run: x from 0 to its end in run.time units, y from zero.
LineChart time_chart(const RunData& run, std::string title, std::string y_label);

// A number in the summary at a JSON pointer; NaN when absent or not a number.
double summary_number(const RunData& run, const std::string& pointer);

// How a series longer than a plot's point budget is reduced: its min/max envelope per pixel
// bucket (downsample.hpp), or the time-weighted mean per bucket (step_mean.hpp, for rates that
// switch on and off every step).
enum class Reduction { kEnvelope, kStepMean };

// The series `path` as a chart line (x in run.time units, y as stored), at most max_points points,
// held to the end of the run. `reduced` (when given) is set when the series had more points.
ChartLine series_line(const RunData& run, const std::string& path, const std::string& name,
                      std::size_t max_points, Reduction reduction = Reduction::kEnvelope, bool* reduced = nullptr);

// Divides every line's y by the scale that suits `unit` and their largest value; returns it.
UnitScale scale_lines(std::vector<ChartLine>& lines, const std::string& unit);

// Lines one plot draws at most (the palette's colours); more are left out with a note.
inline constexpr std::size_t kMaxLinesPerPlot = 8;

// The budget of each of `lines` (<= kMaxLinesPerPlot) lines in one plot: kMaxPointsPerPlot shared.
std::size_t points_per_line(std::size_t lines);

// The axis label "<what> (<unit>)", or "<what>" for a dimensionless value.
std::string axis_label(const std::string& what, const std::string& unit);

}  // namespace dcsim::tools::report
