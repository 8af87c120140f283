// dcsim's own job list: a header naming the columns (any order, each at most once), one job per
// line, '#' comment lines. JobSpec's fields, one column each:
//   name             optional; the job is TRACE-<name> (empty or absent: TRACE-<line number>)
//   arrival_s        required, seconds >= 0
//   nodes            optional, whole nodes >= 1, default 1
//   gpus_per_node    optional, >= 0, default 0 (the whole node)
//   work_s           required, seconds > 0 (run time at nominal clock)
//   estimate_s       optional, seconds >= 0, default 0 (not given)
//   gpu_utilization  optional, 0..1, default the trace's gpu_utilization key
//   priority         optional, a whole number, default 0
// An empty cell in an optional column takes its default. Unlike the foreign formats nothing is
// skipped: a job this file lists and dcsim cannot run is a mistake, so it is an error.

#include <array>
#include <limits>

#include "sim/error.hpp"
#include "tools/scenario/job_trace_rows.hpp"

namespace dcsim::tools::scenario::trace_rows {

namespace {

enum Column { kName, kArrival, kNodes, kGpusPerNode, kWork, kEstimate, kUtilization, kPriority, kColumns };
constexpr std::array<const char*, kColumns> kColumnNames = {
    "name", "arrival_s", "nodes", "gpus_per_node", "work_s", "estimate_s", "gpu_utilization", "priority"};
constexpr std::size_t kAbsent = std::numeric_limits<std::size_t>::max();

std::string all_columns() {
  std::string out;
  for (const char* c : kColumnNames) out += (out.empty() ? "" : ",") + std::string(c);
  return out;
}

}  // namespace

void read_job_csv(LineReader& r, const JobTraceOptions& options, RowSink& sink) {
  std::string line;
  if (!r.next(line)) {
    throw sim::InputError(r.display() + ": empty job list; expected a header such as " + all_columns());
  }
  const auto header = split_commas(line);
  std::array<std::size_t, kColumns> at;
  at.fill(kAbsent);
  for (std::size_t i = 0; i < header.size(); ++i) {
    std::size_t k = 0;
    while (k < kColumns && header[i] != kColumnNames[k]) ++k;
    if (k == kColumns) r.fail("header: unknown column \"" + header[i] + "\"; expected columns among " + all_columns());
    if (at[k] != kAbsent) r.fail("header: column " + header[i] + " appears twice");
    at[k] = i;
  }
  for (const Column required : {kArrival, kWork}) {
    if (at[required] == kAbsent) {
      r.fail(std::string("header: missing column ") + kColumnNames[required] + " (required; the columns are " +
             all_columns() + ")");
    }
  }

  while (r.next(line)) {
    const auto cells = header_row(r, line, header);
    // The cell of column k, or "" where the column is absent (its default then applies).
    const auto cell = [&](Column k) -> const std::string& {
      static const std::string kEmpty;
      return at[k] == kAbsent ? kEmpty : cells[at[k]];
    };
    const auto column = [](Column k) { return std::string("column ") + kColumnNames[k]; };

    Row row;
    row.id = cell(kName);
    row.line = r.line();
    row.arrival_s = number_cell(r, column(kArrival), cell(kArrival), "a time in seconds >= 0");
    if (row.arrival_s < 0) r.fail(column(kArrival) + ": expected a time in seconds >= 0, got \"" + cell(kArrival) + "\"");
    row.work_s = number_cell(r, column(kWork), cell(kWork), "a run time in seconds > 0");
    if (row.work_s <= 0) r.fail(column(kWork) + ": expected a run time in seconds > 0, got \"" + cell(kWork) + "\"");
    if (!cell(kNodes).empty()) row.nodes = static_cast<int>(integer_cell(r, column(kNodes), cell(kNodes), 1, 1'000'000'000));
    if (!cell(kGpusPerNode).empty()) {
      row.gpus_per_node = static_cast<int>(integer_cell(r, column(kGpusPerNode), cell(kGpusPerNode), 0, 1'000'000));
    }
    if (!cell(kEstimate).empty()) {
      row.estimate_s = number_cell(r, column(kEstimate), cell(kEstimate), "a time in seconds >= 0");
      if (row.estimate_s < 0) {
        r.fail(column(kEstimate) + ": expected a time in seconds >= 0 (0 = not given), got \"" + cell(kEstimate) + "\"");
      }
    }
    row.gpu_utilization = options.gpu_utilization;
    if (!cell(kUtilization).empty()) {
      row.gpu_utilization = number_cell(r, column(kUtilization), cell(kUtilization), "a fraction from 0 to 1");
      if (row.gpu_utilization < 0 || row.gpu_utilization > 1) {
        r.fail(column(kUtilization) + ": expected a fraction from 0 to 1, got \"" + cell(kUtilization) + "\"");
      }
    }
    if (!cell(kPriority).empty()) {
      row.priority = static_cast<int>(integer_cell(r, column(kPriority), cell(kPriority), -1'000'000'000, 1'000'000'000));
    }
    sink.add(std::move(row));
  }
}

}  // namespace dcsim::tools::scenario::trace_rows
