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

// A stretch of the run with a fault in progress (fault_windows.hpp), in seconds.
struct FaultWindow {
  double start_s = 0.0, end_s = 0.0;
  std::string what;  // "2 faults: gpu_xid, node_down"
};

struct RunData {
  const output::TraceReader& trace;
  nlohmann::json summary;   // summary.json
  nlohmann::json resolved;  // /meta scenario_resolved
  double end_s = 0.0;       // the end of the run: the last sample, flow or job event
  TimeAxis time;
  std::vector<FaultWindow> faults;        // shaded on every time chart: a fault in progress
  std::vector<FaultWindow> fault_onsets;  // marked on them: where faults began (start = end, or a pixel's)
};

// The run's end in its time axis's units (the x range of every time chart ends there).
inline double end_in_units(const RunData& run) { return run.end_s / run.time.seconds_per_unit; }
// An empty line chart over the whole run: x from 0 to its end in run.time units, y from zero,
// the run's fault windows shaded and their onsets marked.
LineChart time_chart(const RunData& run, std::string title, std::string y_label);

// Runs longer than this draw long series as bands (min, mean, max per bucket), not samples.
inline constexpr double kBandsAfterS = 4 * 86400.0;
// Bands one plot draws at most: ~4 px each on the 784 px plot.
inline constexpr std::size_t kMaxBands = 200;
// The bucket of a run's bands: the shortest of an hour, 6 hours, a day, a week and a month
// (30.4375 d) that cuts the run into at most kMaxBands; its name ("day") in `name`.
double band_width_s(double span_s, std::string* name = nullptr);
// The bucket `path` is drawn in as bands, 0 when it is drawn as samples: the run is longer than
// kBandsAfterS and the series has more than two points per bucket.
double series_band_width_s(const RunData& run, const std::string& path);

// A number in the summary at a JSON pointer; NaN when absent or not a number.
double summary_number(const RunData& run, const std::string& pointer);

// How a series longer than a plot's point budget is reduced: its min/max envelope per pixel
// bucket (downsample.hpp), or the time-weighted mean per bucket (step_mean.hpp, for rates that
// switch on and off every step).
enum class Reduction { kEnvelope, kStepMean };

// The series `path` as a chart line (x in run.time units, y as stored), at most max_points points,
// held to the end of the run; with Reduction::kEnvelope on a long run, its mean per bucket with
// a band from the bucket's lowest to highest (series_band_width_s). `reduced` (when given) is set
// when the series had more points.
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
