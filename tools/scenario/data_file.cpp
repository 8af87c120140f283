#include "tools/scenario/data_file.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/error.hpp"

namespace dcsim::tools::scenario {

namespace {
thread_local DataFileLog* innermost_log = nullptr;
}  // namespace

DataFileLog::DataFileLog() : outer_(innermost_log) { innermost_log = this; }

DataFileLog::~DataFileLog() { innermost_log = outer_; }

std::string beside(const std::string& source, const std::string& file) {
  const std::filesystem::path p(file);
  if (p.is_absolute()) return file;
  return (std::filesystem::path(source).parent_path() / p).string();
}

std::ifstream open_data_file(const std::string& path, const std::string& display, const std::string& named_at) {
  const std::string where = (named_at.empty() ? "" : named_at + ": ") + display;
  // A device or a pipe (/dev/zero, /dev/stdin) would be read for ever: data files are files.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw sim::InputError(where + ": expected a regular file, got a " +
                          (std::filesystem::is_directory(status) ? std::string("directory") : std::string("device, pipe or socket")));
  }
  std::ifstream in(path);
  if (!in) throw sim::InputError(where + ": cannot open file");
  if (DataFileLog* log = innermost_log; log != nullptr) {
    if (std::find(log->paths_.begin(), log->paths_.end(), path) == log->paths_.end()) log->paths_.push_back(path);
  }
  return in;
}

}  // namespace dcsim::tools::scenario
