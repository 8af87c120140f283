#include "tools/check/summary_path.hpp"

#include <algorithm>
#include <map>

#include "tools/scenario/spec_path.hpp"

namespace dcsim::tools::check {

namespace {

using nlohmann::json;

using scenario::is_index;

// Rows of a table by name; names that two rows share map to every row that has them.
std::map<std::string, std::vector<std::size_t>> rows_by_name(const json& table) {
  std::map<std::string, std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const json& row = table[i];
    if (row.is_object() && row.contains("name") && row.at("name").is_string()) {
      out[row.at("name").get<std::string>()].push_back(i);
    }
  }
  return out;
}

void collect(const json& node, const std::string& prefix, std::vector<std::string>& out) {
  const auto child = [&](const std::string& key) { return prefix.empty() ? key : prefix + "/" + key; };
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) collect(value, child(key), out);
  } else if (node.is_array()) {
    const auto names = rows_by_name(node);
    for (std::size_t i = 0; i < node.size(); ++i) collect(node[i], child(std::to_string(i)), out);
    for (const auto& [name, rows] : names) {
      if (rows.size() == 1 && !is_index(name)) collect(node[rows.front()], child(name), out);
    }
  } else {
    out.push_back(prefix);
  }
}

}  // namespace

PathLookup lookup(const json& summary, const std::string& path) {
  PathLookup out;
  const json* node = &summary;
  std::string walked;
  for (const auto& seg : scenario::split_path(path, '/')) {
    const std::string where = walked.empty() ? "the summary" : walked;
    if (node->is_object()) {
      if (!node->contains(seg)) {
        out.problem = "no key '" + seg + "' in " + where;
        return out;
      }
      node = &node->at(seg);
    } else if (node->is_array()) {
      if (is_index(seg)) {
        const std::size_t i = std::stoul(seg);
        if (i >= node->size()) {
          out.problem = where + " has " + std::to_string(node->size()) + " rows, no row " + seg;
          return out;
        }
        node = &(*node)[i];
      } else {
        const auto names = rows_by_name(*node);
        const auto it = names.find(seg);
        if (it == names.end()) {
          out.problem = "no row of " + where + " is named '" + seg + "'";
          return out;
        }
        if (it->second.size() > 1) {
          std::string rows;
          for (const auto r : it->second) rows += (rows.empty() ? "" : ", ") + where + "/" + std::to_string(r);
          out.problem = std::to_string(it->second.size()) + " rows of " + where + " are named '" + seg +
                        "' (" + rows + "): address one by its index";
          return out;
        }
        node = &(*node)[it->second.front()];
      }
    } else {
      out.problem = where + " is a single value, it has no '" + seg + "'";
      return out;
    }
    walked += (walked.empty() ? "" : "/") + seg;
  }
  out.value = node;
  return out;
}

std::vector<std::string> leaf_paths(const json& summary) {
  std::vector<std::string> out;
  if (!summary.is_object()) return out;
  for (const auto& [key, value] : summary.items()) {
    if (key == "units" || key == "overrides") continue;
    collect(value, key, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dcsim::tools::check
