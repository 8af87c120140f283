#pragma once
// The timeline file of a run (`--timeline FILE.json`), complete or not at all: checked and
// opened under a hidden temporary name beside it (`.FILE.json.tmp-<pid>`) before the run starts,
// so a bad path fails at once, with nothing written; renamed into place only once written.
//
//   TimelineFile file("out/run.timeline.json", options);  // InputError: a directory, no such
//                                                          // folder, not writable, empty path
//   ... simulate into a TimelineRecorder ...
//   file.write(recorder.records(), meta);
//   file.commit();                                         // rename; an earlier file is replaced
//
// Destroyed without commit() (a failed or interrupted run), it deletes the temporary.

#include <filesystem>

#include "tools/output/timeline_json.hpp"

namespace dcsim::tools::output {

class TimelineFile {
 public:
  explicit TimelineFile(std::filesystem::path path, TimelineOptions options = {});
  ~TimelineFile();
  TimelineFile(const TimelineFile&) = delete;
  TimelineFile& operator=(const TimelineFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const TimelineOptions& options() const { return options_; }
  // Writes the timeline into the temporary. InputError when the disk refuses it.
  TimelineStats write(const TimelineRecords& records, const TimelineMeta& meta);
  // Renames the temporary to path(). InputError when that fails (the temporary is removed).
  void commit();
  // What write() wrote.
  const TimelineStats& stats() const { return stats_; }

 private:
  std::filesystem::path path_, temporary_;
  TimelineOptions options_;
  TimelineStats stats_;
  bool written_ = false, committed_ = false;
};

}  // namespace dcsim::tools::output
