#pragma once
// Data files a scenario names (flow and size CSVs, job traces, outdoor and tariff profiles) are
// all opened through open_data_file, so that whoever loads a scenario can learn which files its
// answer depends on: a resumed sweep must rerun a variant whose trace CSV changed, not only one
// whose JSON did.

#include <fstream>
#include <string>
#include <vector>

namespace dcsim::tools::scenario {

// A data file a scenario names, as a path: a relative one is found beside the scenario file
// (`source`), as users keep them together.
std::string beside(const std::string& source, const std::string& file);

// Opens a data file a scenario names; InputError "<named_at>: <display>: ..." when it cannot be
// opened or is not a regular file (a device such as /dev/zero would be read for ever), where
// `named_at` is "<scenario>:<JSON pointer>" of the key that names the file ("" leaves it out, for a
// caller that adds it itself). Recorded in the innermost DataFileLog alive on this thread, if any.
std::ifstream open_data_file(const std::string& path, const std::string& display, const std::string& named_at = "");

// While it lives, records (in order, once each) the paths open_data_file opens on this thread:
// scenarios load on several threads at once in a sweep, each with its own log. Logs nest; the
// innermost one records.
class DataFileLog {
 public:
  DataFileLog();
  ~DataFileLog();
  DataFileLog(const DataFileLog&) = delete;
  DataFileLog& operator=(const DataFileLog&) = delete;

  const std::vector<std::string>& paths() const { return paths_; }

 private:
  friend std::ifstream open_data_file(const std::string& path, const std::string& display, const std::string& named_at);
  DataFileLog* outer_ = nullptr;
  std::vector<std::string> paths_;
};

}  // namespace dcsim::tools::scenario
