#pragma once
// A sweep's tidy results, assembled from its variant folders (LAYOUT.md, "Sweep results"):
// results.csv and results.h5, one row per variant in variant order, columns
//   variant, status, replication, seed, <each swept path>, <each scalar summary path>, error
// Rows are read back from each variant's variant.json and summary.json, twice (once to learn the
// columns, once to write), so however many variants there are, one row is in memory at a time
// and a resumed sweep gives the same bytes as one run straight through. Nothing in a row depends
// on the wall clock, the thread count or the MPI rank that ran it: the same sweep gives a
// byte-identical results.csv.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/sweep/sweep_spec.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace dcsim::tools::sweep {

inline constexpr const char* kVariantFileName = "variant.json";
inline constexpr const char* kResultsCsvName = "results.csv";
inline constexpr const char* kResultsH5Name = "results.h5";

struct Failure {
  std::string variant;  // "v0003"
  std::string values;   // describe_values
  std::string error;
};

struct ResultsReport {
  std::size_t ok = 0;
  std::vector<Failure> failures;  // in variant order
};

// Writes <dir>/results.csv and <dir>/results.h5 (atomically: temporaries renamed at the end).
ResultsReport write_results(const Sweep& sweep, const Plan& plan, const std::filesystem::path& dir);

// summary.json's scalar values by path ("engine/events"), without the run metadata (scenario,
// seed, overrides, dcsim_version, units); the cells of a headline table whose rows have unique
// names (at most 64 rows) as "<table>/<row name>/<column>" ("jobs/a/step_time_s"); other
// headline tables are left out.
std::vector<std::pair<std::string, nlohmann::json>> summary_scalars(const nlohmann::json& summary);

// A JSON scalar as a CSV cell: numbers in shortest round-trip form, strings as they are,
// booleans true/false, null empty.
std::string csv_text(const nlohmann::json& value);

// Reads a JSON file; null when it is missing or not valid JSON (a half-written file).
nlohmann::json read_json_or_null(const std::filesystem::path& file);
// Writes `doc` under a temporary name and renames it: a reader never sees half a file.
// InputError when it cannot be written.
void write_json_atomically(const std::filesystem::path& file, const nlohmann::json& doc);

}  // namespace dcsim::tools::sweep
