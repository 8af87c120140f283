#pragma once
// Shared by the CLI tests: run the dcsim executable as a user would and read what it did.

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

namespace dcsim::cli_testing {

struct Result {
  int exit_code;       // -1 when a signal ended it (a crash is never an answer)
  std::string output;  // stdout and stderr together
};

inline Result run_dcsim(const std::string& args) {
  const std::string command = std::string(DCSIM_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe) != nullptr) out += buf.data();
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline const std::string& source_dir() {
  static const std::string dir = DCSIM_SOURCE_DIR;
  return dir;
}

inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("dcsim-cli-" + name + "-" + std::to_string(::getpid()));
}

}  // namespace dcsim::cli_testing
