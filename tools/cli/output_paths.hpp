#pragma once
// Where a command writes its side files (`run --timeline`, `check --junit`): checked before the
// run, so a bad path costs seconds, not the run; a file inside the folder that -o is about to
// create (or a folder above it, created with it) is fine.

#include <filesystem>

namespace dcsim::tools::cli {

// The folder a file goes into: its parent, or "." for a bare name.
std::filesystem::path folder_of(const std::filesystem::path& file);

// Whether `folder` is `inner` or one of the folders above it (which creating `inner` creates),
// whether or not they exist yet ("out/new" holds "./out/new/" and "out/new/run").
bool contains_folder(const std::filesystem::path& folder, const std::filesystem::path& inner);

}  // namespace dcsim::tools::cli
