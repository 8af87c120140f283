#pragma once
// The record paths of one namespace of a trace (/series, /events or /summary).
//
// A path is slash-separated ("power/cluster_w") and becomes nested HDF5 groups, or nested objects
// in summary.json. So that every group is either a record or a folder of records -- and every
// summary.json key either a value or an object -- no path may also be a prefix of another:
// "power" and "power/cluster_w" cannot both be records. Readers rely on this (LAYOUT.md).

#include <set>
#include <string>
#include <vector>

#include "sim/trace_sink.hpp"

namespace dcsim::tools::output {

class PathSet {
 public:
  // Adds `path`; throws sim::InternalError (a model bug) when the path is malformed (empty,
  // leading/trailing or doubled '/', a "." or ".." component), already present, or clashes with
  // a record as described above. `what` names the kind of record in the message ("series").
  void claim(const std::string& path, const std::string& what);
  bool contains(const std::string& path) const { return leaves_.count(path) != 0; }

 private:
  std::set<std::string> leaves_;
  std::set<std::string> folders_;
};

// Throws sim::InternalError when `path` is malformed (see PathSet::claim).
void check_record_path(const std::string& path, const std::string& what);

// Column names become HDF5 dataset names and summary.json keys: non-empty, no '/', not "." or
// "..", and unique within the table. Throws sim::InternalError naming the table.
void check_column_names(const std::string& table_path, const std::vector<sim::Column>& columns);

}  // namespace dcsim::tools::output
