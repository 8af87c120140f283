#pragma once
// The headline results of a run, kept in memory for summary.json (they are small: scalars and
// a few short tables), and the summary.json writer.
//
// summary.json (a compatibility promise, see LAYOUT.md):
//   { "scenario": <name>, "seed": <int>, "dcsim_version": <text>,
//     <scalar path "a/b/c">  -> "a": { "b": { "c": <value> } },
//     <headline table "summary/jobs"> -> "jobs": [ { <column>: <cell>, ... }, ... ],
//     "units": { "a/b/c": <unit>, "jobs/<column>": <unit>, ... } }
// Keys are sorted, numbers are written in their shortest round-trip form (ints as ints), NaN and
// infinities as null, and nothing depends on the wall clock: the same run gives the same bytes.

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/trace_sink.hpp"
#include "tools/output/path_set.hpp"
#include "tools/output/run_meta.hpp"

namespace dcsim::tools::output {

class SummaryRecorder {
 public:
  struct Table {
    std::string name;  // the table path without its "summary/" prefix
    std::vector<sim::Column> columns;
    std::vector<std::vector<sim::Cell>> rows;
  };

  // The summary.json keys a scalar or headline table cannot take.
  static bool is_reserved(const std::string& path);

  // Setting a path again replaces its value (as MemoryTraceSink does). Throws InternalError on a
  // malformed, reserved or clashing path (PathSet).
  void set_scalar(const std::string& path, sim::SummaryValue value);
  // `name` is the table path without "summary/". Returns the index for append_row.
  std::size_t add_table(const std::string& name, std::vector<sim::Column> columns);
  // Checks the row against the columns (sim::check_row).
  void append_row(std::size_t table, std::vector<sim::Cell> row);

  const std::map<std::string, sim::SummaryValue>& scalars() const { return scalars_; }
  const std::vector<Table>& tables() const { return tables_; }

  // What a MemoryTraceSink holds of the summary: for tests and tools that run without files.
  static SummaryRecorder from(const sim::MemoryTraceSink& sink);

 private:
  void claim(const std::string& path, const std::string& what);

  PathSet paths_;
  std::map<std::string, sim::SummaryValue> scalars_;
  std::vector<Table> tables_;
};

// summary.json as a JSON value, and as the exact text written (2-space indent, final newline).
nlohmann::json summary_json(const SummaryRecorder& summary, const RunMeta& meta);
std::string summary_json_text(const SummaryRecorder& summary, const RunMeta& meta);
// Writes summary_json_text to `file` (truncating). Throws sim::InputError when it cannot.
void write_summary_json(const std::filesystem::path& file, const SummaryRecorder& summary,
                        const RunMeta& meta);

}  // namespace dcsim::tools::output
