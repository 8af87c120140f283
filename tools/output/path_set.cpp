#include "tools/output/path_set.hpp"

#include "sim/error.hpp"

namespace dcsim::tools::output {

void check_record_path(const std::string& path, const std::string& what) {
  auto bad = [&](const std::string& why) {
    throw sim::InternalError(what + " path '" + path + "' " + why + " (this is a bug)");
  };
  if (path.empty()) bad("is empty");
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    const std::string part = path.substr(start, slash == std::string::npos ? std::string::npos
                                                                            : slash - start);
    if (part.empty()) bad("has an empty component");
    if (part == "." || part == "..") bad("has a '" + part + "' component");
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
}

void check_column_names(const std::string& table_path, const std::vector<sim::Column>& columns) {
  std::set<std::string> seen;
  for (const auto& c : columns) {
    if (c.name.empty() || c.name == "." || c.name == ".." || c.name.find('/') != std::string::npos) {
      throw sim::InternalError("table '" + table_path + "': column name '" + c.name +
                               "' is not usable (empty, '.', '..' or contains '/'; this is a bug)");
    }
    if (!seen.insert(c.name).second) {
      throw sim::InternalError("table '" + table_path + "': column '" + c.name +
                               "' declared twice (this is a bug)");
    }
  }
}

void PathSet::claim(const std::string& path, const std::string& what) {
  check_record_path(path, what);
  if (leaves_.count(path) != 0) {
    throw sim::InternalError(what + " '" + path + "' declared twice (this is a bug)");
  }
  if (folders_.count(path) != 0) {
    throw sim::InternalError(what + " '" + path + "' clashes with a record below '" + path +
                             "/' (a path cannot be both a record and a folder; this is a bug)");
  }
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (leaves_.count(prefix) != 0) {
      throw sim::InternalError(what + " '" + path + "' clashes with the record '" + prefix +
                               "' (a path cannot be both a record and a folder; this is a bug)");
    }
  }
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    folders_.insert(path.substr(0, slash));
  }
  leaves_.insert(path);
}

}  // namespace dcsim::tools::output
