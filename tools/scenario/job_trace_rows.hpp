#pragma once
// Internal to the job-trace importer (job_trace_import.cpp): the line reader with file:line
// messages that the three format readers share (and the flow, size and request CSVs), the row
// they each produce, and the readers.
// Rows are in the trace's own units (seconds, its ids); time_scale, start, naming and the limit
// are applied once, in job_trace_import.cpp.

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/scenario/job_trace_import.hpp"

namespace dcsim::tools::scenario::trace_rows {

class LineReader {
 public:
  // Lines that are blank or start with `comment` are skipped (they still count for numbering).
  LineReader(std::istream& in, std::string display, char comment);
  // The next data line, trimmed; false at the end of the file.
  bool next(std::string& line);
  std::size_t line() const { return number_; }
  // InputError "<display>:<line>: <message>".
  [[noreturn]] void fail(const std::string& message) const;
  const std::string& display() const { return display_; }

 private:
  std::istream& in_;
  std::string display_;
  char comment_;
  std::size_t number_ = 0;
};

std::vector<std::string_view> split_whitespace(std::string_view line);
// Comma-separated cells, each trimmed of spaces, tabs and CR.
std::vector<std::string> split_commas(const std::string& line);
// The line's cells, exactly as many as the header's, or fail naming the first missing field.
std::vector<std::string> header_row(const LineReader& r, const std::string& line, const std::vector<std::string>& header);

// The whole cell as a finite number ("12abc", "1e400" and "" are not); false otherwise.
bool parse_number(std::string_view cell, double& out);
// The cell as a number, or fail "<field>: expected <expected>, got \"<cell>\"".
double number_cell(const LineReader& r, const std::string& field, std::string_view cell,
                   const std::string& expected = "a number");
// The cell as a whole number within [lo, hi], or fail naming the field and the range.
long long integer_cell(const LineReader& r, const std::string& field, std::string_view cell, long long lo,
                       long long hi);

struct Row {
  std::string id;      // the trace's job id; empty = use the line number
  std::size_t line = 0;
  double arrival_s = 0;
  double work_s = 0;   // > 0
  double estimate_s = 0;  // 0 = not given
  int nodes = 1;
  int gpus_per_node = 0;
  double gpu_utilization = 1.0;
  int priority = 0;
};

class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void add(Row row) = 0;
  // A data row dcsim cannot run, counted under `reason`.
  virtual void skip(const std::string& reason) = 0;
};

void read_swf(LineReader& r, const JobTraceOptions& options, RowSink& sink);
void read_alibaba_openb(LineReader& r, const JobTraceOptions& options, RowSink& sink);
void read_job_csv(LineReader& r, const JobTraceOptions& options, RowSink& sink);

}  // namespace dcsim::tools::scenario::trace_rows
