#pragma once
// Whether a dotted --set path ("fabric.k", "workload.jobs.0.nodes") names a key of the scenario
// format, checked against its FieldSpec tree without a document: what a sweep's parameter paths
// and a `--set KEY=null` that finds nothing to remove are checked with.

#include <string>
#include <vector>

#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// "" when `path` names a key of the format (array elements by index; inside a distribution
// every key is taken, its kind decides), else why not, with a guess when a key is close:
// "no key 'nodez' at /cluster; did you mean 'nodes'? keys there: ...".
std::string path_problem(const FieldSpec& root, const std::string& path);

// "jobs.0.name" -> {"jobs", "0", "name"} (or split at another separator, '/'); empty segments
// are kept.
std::vector<std::string> split_path(const std::string& path, char separator = '.');
// A segment that is an array index: digits only, at most 9 of them.
bool is_index(const std::string& segment);

}  // namespace dcsim::tools::scenario
