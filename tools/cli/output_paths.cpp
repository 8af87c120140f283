#include "tools/cli/output_paths.hpp"

#include <system_error>

namespace dcsim::tools::cli {

std::filesystem::path folder_of(const std::filesystem::path& file) {
  return file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
}

namespace {

// weakly_canonical resolves what exists (symbolic links, "..") and normalises the rest.
std::filesystem::path normal(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path n = std::filesystem::weakly_canonical(std::filesystem::absolute(p, ec), ec);
  if (ec) n = std::filesystem::absolute(p).lexically_normal();
  return n.has_filename() ? n : n.parent_path();  // "out/new/" is "out/new"
}

}  // namespace

bool contains_folder(const std::filesystem::path& folder, const std::filesystem::path& inner) {
  const auto outer = normal(folder);
  const auto in = normal(inner);
  auto o = outer.begin();
  auto i = in.begin();
  for (; o != outer.end(); ++o, ++i) {
    if (i == in.end() || *o != *i) return false;
  }
  return true;
}

}  // namespace dcsim::tools::cli
