#pragma once
// One run's complete output set -- trace.h5 and summary.json in one directory, written
// atomically -- behind the single TraceSink that models emit into. What `dcsim run` uses:
//
//   RunOutput out(dir);                  // InputError if dir cannot be created or written;
//                                        // deletes an earlier run's summary.json and trace.h5
//   out.set_meta(meta);
//   simulate(..., out.sink());
//   out.commit(wall_time_s);             // finish trace.h5, write summary.json, rename both
//
// Destroyed without commit() (an exception unwinding the run), it closes the trace and deletes
// both temporaries: nothing that looks like a result is left behind.

#include <filesystem>
#include <functional>

#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/output/output_directory.hpp"
#include "tools/output/run_meta.hpp"

namespace dcsim::tools::output {

inline constexpr const char* kTraceFileName = "trace.h5";
inline constexpr const char* kSummaryFileName = "summary.json";

class RunOutput {
 public:
  explicit RunOutput(const std::filesystem::path& dir, Hdf5Options options = {});

  sim::TraceSink& sink() { return writer_; }
  Hdf5TraceWriter& writer() { return writer_; }
  void set_meta(const RunMeta& meta) { writer_.set_meta(meta); }

  // Finishes trace.h5 (with the wall time), writes summary.json, and renames both into place
  // (summary.json last: its presence marks a complete run).
  // `poll`, when given, is called every few milliseconds while the files are written and once
  // more before they get their final names: an exception from it (an interrupted run) stops the
  // writing and leaves nothing complete-looking.
  void commit(double wall_time_s, const std::function<void()>& poll = {});

  const std::filesystem::path& directory() const { return directory_.path(); }
  std::filesystem::path trace_path() const { return directory_.final_path(kTraceFileName); }
  std::filesystem::path summary_path() const { return directory_.final_path(kSummaryFileName); }

 private:
  // Order matters: the writer (declared last) closes its file before the directory removes it.
  OutputDirectory directory_;
  std::filesystem::path summary_temporary_;
  Hdf5TraceWriter writer_;
};

}  // namespace dcsim::tools::output
