#include "tools/output/timeline_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "sim/error.hpp"

namespace dcsim::tools::output {

TimelineFile::TimelineFile(std::filesystem::path path, TimelineOptions options)
    : path_(std::move(path)), options_(options) {
  if (path_.empty()) {
    throw sim::InputError("--timeline: expected a file path, got an empty string (an unset variable?)");
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) {
    throw sim::InputError("--timeline '" + path_.string() + "' is a directory; expected a file path such as '" +
                          (path_ / "timeline.json").string() + "'");
  }
  const std::filesystem::path folder = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(folder, ec)) {
    throw sim::InputError("--timeline '" + path_.string() + "': folder '" + folder.string() +
                          "' does not exist (it is not created)");
  }
  if (!path_.has_filename()) {
    throw sim::InputError("--timeline '" + path_.string() + "': expected a file path, not a folder");
  }
  temporary_ = folder / ("." + path_.filename().string() + ".tmp-" + std::to_string(::getpid()));
  std::ofstream probe(temporary_, std::ios::binary | std::ios::trunc);
  if (!probe) {
    throw sim::InputError("--timeline '" + path_.string() + "': cannot write in '" + folder.string() +
                          "': " + std::strerror(errno));
  }
}

TimelineFile::~TimelineFile() {
  if (committed_) return;
  std::error_code ec;
  std::filesystem::remove(temporary_, ec);
}

TimelineStats TimelineFile::write(const TimelineRecords& records, const TimelineMeta& meta) {
  std::ofstream out(temporary_, std::ios::binary | std::ios::trunc);
  TimelineStats stats;
  if (out) stats = write_timeline_json(out, records, meta, options_);
  out.flush();
  if (!out) {
    throw sim::InputError("cannot write timeline '" + temporary_.string() + "': " + std::strerror(errno));
  }
  written_ = true;
  stats_ = stats;
  return stats;
}

void TimelineFile::commit() {
  if (!written_) throw sim::InternalError("timeline committed before it was written (this is a bug)");
  std::error_code ec;
  std::filesystem::rename(temporary_, path_, ec);
  if (ec) {
    throw sim::InputError("cannot rename '" + temporary_.string() + "' to '" + path_.string() + "': " + ec.message());
  }
  committed_ = true;
}

}  // namespace dcsim::tools::output
