#pragma once
// `dcsim export TRACE.h5 --csv DIR`: a whole trace as CSV files for spreadsheet users, laid out as
// the trace is (LAYOUT.md):
//   DIR/series/<path>.csv     every series (csv_export.hpp: time_ns,time_s,value [unit])
//   DIR/events/<path>.csv     every event table, DIR/summary/<name>.csv every headline table:
//                             one column per table column, header `name [unit]` (`name` when
//                             dimensionless), one row per row; strings quoted as RFC 4180 asks
//                             (a cell with a comma, quote or line break), NaN as an empty cell
//   DIR/summary.csv           every summary scalar: `path,value,unit`, in path order
// Tables and series are read a block of rows at a time, so a million-row jobs table does not have
// to fit in memory twice.

#include <filesystem>
#include <string>
#include <vector>

namespace dcsim::tools::output {

// Returns the files written, series first, then tables, then summary.csv. Throws sim::InputError
// when the trace cannot be opened or is not a dcsim trace, or a file cannot be written.
std::vector<std::filesystem::path> export_trace_csv(const std::filesystem::path& trace,
                                                    const std::filesystem::path& out_dir);

// RFC 4180: a cell holding a comma, a quote or a line break is quoted, its quotes doubled (also
// the cells of a sweep's results.csv).
std::string csv_cell(const std::string& text);

}  // namespace dcsim::tools::output
