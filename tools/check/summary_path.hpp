#pragma once
// A check's `path` in a summary.json: its keys joined by "/" ("network/fct_p99_s"); in a headline
// table (an array of rows, "jobs"), a row by its index ("jobs/0/step_time_s") or by its "name"
// ("jobs/llama3-70b/step_time_s"), as sweep's results.csv names them. A segment of digits is an
// index; a name that two rows share addresses neither (the lookup says so: use the index).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::check {

struct PathLookup {
  const nlohmann::json* value = nullptr;  // none when the path names nothing
  std::string problem;                    // why not: "2 rows of jobs are named 'a' (jobs/1, jobs/4)"
};

PathLookup lookup(const nlohmann::json& summary, const std::string& path);

// Every path a check can name in `summary`: its leaves (numbers, strings, booleans, null), table
// rows by index and, where a name is unique in its table, by name. Without the run's metadata
// ("units", "overrides"), which are no results. Sorted.
std::vector<std::string> leaf_paths(const nlohmann::json& summary);

}  // namespace dcsim::tools::check
