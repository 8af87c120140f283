#pragma once
// The HDF5 trace writer: a TraceSink that streams a run to one HDF5 file (trace.h5).
//
// The file layout is a compatibility promise, written out in tools/output/LAYOUT.md:
//   /                 attribute format_version = "dcsim-trace 1"
//   /meta             attributes: scenario_name, scenario_given, scenario_resolved,
//                     dcsim_version, seed, wall_time_s, started_at, source
//   /series/<path>/   time_ns (int64), value (float64); attributes unit, description
//   /events/<path>/   one dataset per column; attribute columns (order); per column unit,
//                     description
//   /summary/<path>   scalar dataset per summary value (attributes unit, description), and the
//                     headline tables ("summary/<name>") as /summary/<name>/ in the events layout
//
// Streaming: points and rows are buffered per series/table and appended to chunked, extensible,
// shuffle+deflate-compressed datasets one chunk at a time, so memory stays bounded however long
// the run: at most one chunk per series/table, and never more than `max_buffered_bytes` in all
// (beyond that, every buffer is written out). HDF5's own chunk cache is disabled for the same
// reason. A series' group and datasets are created when it is first written, with chunks no
// larger than what it has then, and are open only while it is written: a declared series costs
// its names and buffer, not HDF5 objects (250,000 open rack series held 9 GB). A table's string
// columns are fixed-length UTF-8 (variable-length strings cost a 16-byte reference each plus an
// uncompressed heap copy: 2 GB in a site year), created at the table's first flush as wide as
// its longest value then, and rewritten wider when a longer one comes; a column with a value
// over 256 bytes is variable-length (hdf5_string_column.hpp). Only the summary
// (scalars and headline tables) is held until the end, for summary.json -- see summary().
//
// Errors: a model bug (a path declared twice, a row of the wrong shape, time going backwards) is
// sim::InternalError; an HDF5 failure is Hdf5Error (a std::runtime_error) naming the object.
// After an exception the file is not trustworthy; OutputDirectory deletes it.
//
// Not thread-safe: one writer per run, driven by that run's thread. Several writers on several
// threads (a sweep) are fine: every HDF5 call is made under one process-wide lock (Hdf5Lock in
// hdf5_handle.hpp), so it works with a serial (not thread-safe) HDF5 build too. So that the
// writers do not queue behind each other's deflate, a whole numeric chunk is shuffled and
// deflated before the lock is taken and stored as it is (chunk_compression.hpp, H5Dwrite_chunk);
// partial chunks and string columns go through HDF5's own filters under the lock.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/trace_sink.hpp"
#include "tools/output/run_meta.hpp"
#include "tools/output/summary.hpp"

namespace dcsim::tools::output {

inline constexpr const char* kTraceFormatVersion = "dcsim-trace 1";

struct Hdf5Options {
  // Elements per chunk of every dataset (points of a series, rows of a table): 16384 points are
  // 128 KiB per int64/float64 dataset before compression.
  std::size_t chunk_elements = 16384;
  // zlib level 0-9; 0 writes uncompressed (still chunked). The shuffle filter precedes deflate:
  // slowly-varying int64 times then compress ~5-10x better.
  int deflate_level = 4;
  // Bound on buffered points and rows across all series and tables.
  std::size_t max_buffered_bytes = std::size_t{64} << 20;
};

class Hdf5TraceWriter : public sim::TraceSink {
 public:
  // Creates (truncates) `file` and the groups /meta, /series, /events, /summary.
  // Throws sim::InputError when the file cannot be created.
  explicit Hdf5TraceWriter(std::filesystem::path file, Hdf5Options options = {});
  // Closes the file if still open, without finishing it (no summary, no wall time); never throws.
  ~Hdf5TraceWriter() override;
  Hdf5TraceWriter(const Hdf5TraceWriter&) = delete;
  Hdf5TraceWriter& operator=(const Hdf5TraceWriter&) = delete;

  sim::SeriesId declare_series(const std::string& path, const std::string& unit,
                               const std::string& description) override;
  void append(sim::SeriesId series, sim::Time t, double value) override;
  // "summary/<name>" tables go to /summary/<name> and are also kept for summary.json.
  sim::TableId declare_table(const std::string& path, std::vector<sim::Column> columns) override;
  void append_row(sim::TableId table, std::vector<sim::Cell> row) override;
  // Kept in memory and written at finish(); setting a path again replaces the value.
  void set_summary(const std::string& path, sim::SummaryValue value) override;

  // Recorded in memory and written to /meta at finish(); may be called at any time before.
  void set_meta(const RunMeta& meta);
  const RunMeta& meta() const;

  // Writes buffered points and rows to the file and flushes it (e.g. before a long pause).
  void flush();
  // Writes all buffers, /summary and /meta (with wall_time_s), and closes the file. After it,
  // every TraceSink call is an InternalError. `poll`, when given, is called every few
  // milliseconds while it writes: an exception from it (an interrupted run) stops the writing,
  // and the file is not trustworthy (OutputDirectory deletes it).
  void finish(double wall_time_s, const std::function<void()>& poll = {});
  // Writes the buffers and closes the file without /summary or /meta: for a run that failed.
  void close();
  bool is_open() const;

  // The summary scalars and headline tables emitted so far (what summary.json is made of).
  const SummaryRecorder& summary() const;
  const std::filesystem::path& file() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // keeps hdf5.h out of this header (HDF5 is linked PRIVATE)
};

}  // namespace dcsim::tools::output
