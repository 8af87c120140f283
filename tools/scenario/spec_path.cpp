#include "tools/scenario/spec_path.hpp"

#include <vector>

#include "tools/scenario/did_you_mean.hpp"

namespace dcsim::tools::scenario {

namespace {

// "no key 'nodez' at /cluster; did you mean 'nodes'? keys there: node, nodes, ..."
std::string no_key(const std::string& key, const std::string& where, const FieldSpec& spec) {
  std::vector<std::string> keys;
  std::string list;
  for (const auto& c : spec.children) {
    keys.push_back(c.key);
    list += (list.empty() ? "" : ", ") + c.key;
  }
  return "no key '" + key + "' " + where + ";" + did_you_mean(key, keys) + " keys there: " + list;
}

}  // namespace

std::vector<std::string> split_path(const std::string& path, char separator) {
  std::vector<std::string> out(1);
  for (const char c : path) {
    if (c == separator) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

bool is_index(const std::string& segment) {
  return !segment.empty() && segment.size() <= 9 && segment.find_first_not_of("0123456789") == std::string::npos;
}

std::string path_problem(const FieldSpec& root, const std::string& path) {
  const std::vector<std::string> segments = split_path(path);
  for (const auto& seg : segments) {
    if (seg.empty()) return "empty key in path '" + path + "'";
  }
  const FieldSpec* spec = &root;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    const std::string where = walked.empty() ? "the scenario's top level" : "/" + walked;
    switch (spec->type) {
      case FieldType::kObject: {
        const FieldSpec* child = spec->child(seg);
        if (child == nullptr) return no_key(seg, "at " + where, *spec);
        spec = child;
        break;
      }
      case FieldType::kObjectArray:
      case FieldType::kIntegerArray: {
        if (!is_index(seg)) return where + " is an array: expected an index, got '" + seg + "'";
        if (spec->type == FieldType::kIntegerArray) {
          if (i + 1 != segments.size()) return "/" + walked + "/" + seg + " is an integer, it has no keys";
          return "";
        }
        // The element: an object with the array's children.
        if (i + 1 == segments.size()) return "";
        const std::string& key = segments[++i];
        const FieldSpec* child = spec->child(key);
        if (child == nullptr) return no_key(key, "in the elements of " + where, *spec);
        walked += "/" + seg;
        spec = child;
        walked += "/" + key;
        continue;
      }
      case FieldType::kDistribution:
        return "";  // its keys depend on its kind: the loader checks them
      default:
        return where + " is a single value, it has no key '" + seg + "'";
    }
    walked += (walked.empty() ? "" : "/") + seg;
  }
  return "";
}

}  // namespace dcsim::tools::scenario
