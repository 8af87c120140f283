#pragma once
// What a run records about itself under /meta of trace.h5 (and, minus the wall-clock fields, in
// summary.json).

#include <cstdint>
#include <string>
#include <vector>

namespace dcsim::tools::output {

struct RunMeta {
  std::string scenario_name;      // the scenario's "name"
  std::string scenario_given;     // the scenario file's JSON text, as the user wrote it
  std::string scenario_resolved;  // JSON text after defaults, --set overrides and sweep binding
  std::string dcsim_version;      // tools::version()
  std::uint64_t seed = 0;  // every seed a scenario takes, 0 to 2^64 - 1
  std::string started_at;         // ISO-8601 UTC wall clock, e.g. "2024-05-01T12:00:00Z"
  std::string source;             // where the scenario came from (file path, or "<stdin>")
  std::vector<std::string> overrides;  // --set (and --seed) overrides, as given, in order
};

// The current UTC wall clock as ISO-8601 with second resolution ("2024-05-01T12:00:00Z").
std::string utc_now_iso8601();

}  // namespace dcsim::tools::output
