#pragma once
// `dcsim report RUN_DIR [-o FILE]`: a run directory (trace.h5 + summary.json, LAYOUT.md) as one
// self-contained HTML page, sections in tools/report/*_section(s).cpp.

#include <filesystem>
#include <string>

namespace dcsim::tools::report {

// The page for the run in `run_dir`. Throws sim::InputError when the directory does not exist,
// is not a dcsim run (no readable summary.json from dcsim), or its trace.h5 cannot be read.
std::string build_report_html(const std::filesystem::path& run_dir);

// Builds the page and writes it to `output` (empty: RUN_DIR/report.html) complete or not at all
// (a temporary beside it, renamed). InputError as above, and when `output`'s directory does not
// exist or `output` is a directory; nothing is written then. Returns the path written.
std::filesystem::path write_report(const std::filesystem::path& run_dir,
                                   const std::filesystem::path& output);

}  // namespace dcsim::tools::report
