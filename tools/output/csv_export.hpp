#pragma once
// CSV export of the series in a trace.h5, for spreadsheets.
//
// One file per series, at <out_dir>/<path>.csv (folders mirror the series path, e.g.
// out/power/cluster_w.csv), with the header `time_ns,time_s,value` (`value [W]` when the series
// has a unit). time_s is time_ns written as an exact decimal; values are in shortest round-trip
// form, NaN as an empty cell, infinities as inf / -inf. Series are read a block at a time, so a
// long series does not have to fit in memory.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace dcsim::tools::output {

// Exports the series at `series_path` (e.g. "power/cluster_w"), or every series when it is empty.
// Returns the files written, in path order. Throws sim::InputError when the trace cannot be
// opened, is not a dcsim trace, has no such series, or the output cannot be written.
std::vector<std::filesystem::path> write_series_csv(const std::filesystem::path& trace,
                                                    const std::filesystem::path& out_dir,
                                                    const std::string& series_path = "");

// A float cell as the CSV exports write it: shortest round-trip form, NaN empty, inf / -inf.
std::string csv_value_text(double v);

// A CSV file of the exports, its folders created; closing it checks the writes.
// sim::InputError "cannot write '<target>'" when either fails.
std::ofstream open_csv(const std::filesystem::path& target);
void close_csv(std::ofstream& out, const std::filesystem::path& target);

}  // namespace dcsim::tools::output
