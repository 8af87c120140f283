#pragma once
// The job timeline as a Gantt chart in inline SVG: one row per job, a bar for the time it waited
// (arrival to start) and one for the time it ran (start to finish, or to the end of the run for a
// job still running). Rows beyond max_rows are left out: the caller says so in a note.

#include <cmath>
#include <string>
#include <vector>

namespace dcsim::tools::report {

struct GanttRow {
  std::string label;
  double arrival = 0.0;
  double start = std::nan("");   // NaN: never started
  double finish = std::nan("");  // NaN: not finished
  std::string state;             // shown in the bar's tooltip
};

struct GanttChart {
  std::string title;
  std::string x_label;  // with the unit: "time (h)"
  double x_end = 0.0;   // the end of the run: unfinished bars stop here
  std::vector<GanttRow> rows;
};

// Bars drawn (waiting and running), what data-points says.
std::size_t gantt_bars(const GanttChart& chart);

std::string svg_gantt_chart(const GanttChart& chart);

}  // namespace dcsim::tools::report
