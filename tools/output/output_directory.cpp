#include "tools/output/output_directory.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "sim/error.hpp"

namespace dcsim::tools::output {

namespace {

// Data first, then the name: without the fsync a crash right after rename can leave a complete-
// looking name over an empty file on some filesystems. Best effort: failure to sync is not fatal.
void sync_path(const std::filesystem::path& p, bool directory) {
  const int fd = ::open(p.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

OutputDirectory::OutputDirectory(std::filesystem::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) {
    throw sim::InputError("output directory: expected a directory path, got an empty string "
                          "(use '.' for the current directory)");
  }
  std::error_code ec;
  const auto status = std::filesystem::status(dir_, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status)) {
      throw sim::InputError("output directory '" + dir_.string() +
                            "' exists and is not a directory");
    }
  } else {
    std::filesystem::create_directories(dir_, ec);
    if (ec) {
      throw sim::InputError("cannot create output directory '" + dir_.string() +
                            "': " + ec.message());
    }
  }
  // access(W_OK) would answer for the real uid and ignore read-only mounts; creating a file
  // answers the actual question.
  const auto probe = dir_ / (".dcsim-write-test-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    throw sim::InputError("output directory '" + dir_.string() +
                          "' is not writable: " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

OutputDirectory::~OutputDirectory() {
  if (!committed_) abandon();
}

std::filesystem::path OutputDirectory::stage(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
    throw sim::InternalError("output file name '" + name + "' is not a plain name (this is a bug)");
  }
  for (const auto& [staged_name, temporary] : staged_) {
    if (staged_name == name) {
      throw sim::InternalError("output file '" + name + "' staged twice (this is a bug)");
    }
  }
  if (committed_) {
    throw sim::InternalError("output directory '" + dir_.string() +
                             "': stage after commit (this is a bug)");
  }
  auto temporary = dir_ / ("." + name + ".tmp-" + std::to_string(::getpid()));
  staged_.emplace_back(name, temporary);
  return temporary;
}

std::size_t OutputDirectory::discard_previous() {
  for (auto it = staged_.rbegin(); it != staged_.rend(); ++it) {
    std::error_code ec;
    std::filesystem::remove(final_path(it->first), ec);
    if (ec) {
      throw sim::InputError("cannot delete the previous run's '" + final_path(it->first).string() +
                            "': " + ec.message());
    }
  }
  return discard_stale_temporaries();
}

std::size_t OutputDirectory::discard_stale_temporaries() const {
  std::size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string file = entry.path().filename().string();
    for (const auto& [name, temporary] : staged_) {
      const std::string prefix = "." + name + ".tmp-";
      if (file.size() <= prefix.size() || file.compare(0, prefix.size(), prefix) != 0) continue;
      const std::string digits = file.substr(prefix.size());
      if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      const auto pid = static_cast<pid_t>(std::stol(digits));
      // kill(pid, 0) tests for the process without signalling it: ESRCH means it is gone (EPERM:
      // alive, another user's). Ours is alive by definition.
      if (pid <= 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
      std::error_code remove_ec;
      if (std::filesystem::remove(entry.path(), remove_ec)) ++removed;
    }
  }
  return removed;
}

void OutputDirectory::commit() {
  if (committed_) return;
  try {
    for (const auto& [name, temporary] : staged_) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(temporary, ec)) {
        throw sim::InputError("cannot complete output '" + final_path(name).string() +
                              "': its temporary '" + temporary.string() + "' is missing");
      }
      sync_path(temporary, false);
    }
    for (const auto& [name, temporary] : staged_) {
      std::error_code ec;
      std::filesystem::remove(final_path(name), ec);  // absent is fine
    }
    for (const auto& [name, temporary] : staged_) {
      std::error_code ec;
      std::filesystem::rename(temporary, final_path(name), ec);
      if (ec) {
        throw sim::InputError("cannot rename '" + temporary.string() + "' to '" +
                              final_path(name).string() + "': " + ec.message());
      }
    }
  } catch (...) {
    abandon();
    throw;
  }
  sync_path(dir_, true);
  committed_ = true;
}

void OutputDirectory::abandon() noexcept {
  for (const auto& [name, temporary] : staged_) {
    std::error_code ec;
    std::filesystem::remove(temporary, ec);
  }
}

}  // namespace dcsim::tools::output
