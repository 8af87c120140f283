// --set PATH=VALUE: command-line edits of a scenario before validation.

#include <string>
#include <vector>

#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/spec_path.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

namespace {

const char* type_word(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "not an object";
  }
}

}  // namespace

bool apply_override(nlohmann::json& doc, const std::string& assignment) {
  const auto fail = [&assignment](const std::string& why) {
    throw sim::InputError("--set " + assignment + ": " + why);
  };
  const auto eq = assignment.find('=');
  if (eq == std::string::npos) fail("expected PATH=VALUE, e.g. --set cluster.nodes=8");
  const std::string path = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  if (path.empty()) fail("expected PATH=VALUE, e.g. --set cluster.nodes=8; the path is empty");
  const auto segments = split_path(path);
  for (const auto& s : segments) {
    if (s.empty()) fail("empty key in path '" + path + "'");
  }

  // JSON when it parses, so numbers, booleans, arrays and objects keep their type; anything else
  // is the string itself, which spares shell quoting for "400 Gbps" and names.
  check_json_depth(text, "--set " + path);  // before parsing: memory bounded by the length
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = text;
  // null removes the key (or the array element): the scenario then has its default.
  const bool remove = value.is_null();

  json* cur = &doc;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    const bool last = i + 1 == segments.size();
    if (cur->is_array()) {
      const auto index = is_index(seg) ? std::optional<std::size_t>(std::stoul(seg)) : std::nullopt;
      // Equal to the size appends, so --set workload.jobs.2.name=x can add a third job; a
      // removal needs an element that is there.
      const std::size_t end = remove ? cur->size() : cur->size() + 1;
      if (!index || *index >= end) {
        std::string why = walked.empty() ? std::string("the document") : "'" + walked + "'";
        why += " is an array of " + std::to_string(cur->size());
        why += end == 0 ? "; there is no element to remove"
                        : "; expected an index from 0 to " + std::to_string(end - 1) + ", got '" + seg + "'";
        fail(why);
      }
      if (remove && last) {
        cur->erase(*index);
        return true;
      }
      if (*index == cur->size()) cur->push_back(nullptr);
      cur = &(*cur)[*index];
    } else if (remove) {
      // Nothing is created on the way to a key that is to go.
      if (!cur->is_object() || !cur->contains(seg)) return false;
      if (last) {
        cur->erase(seg);
        return true;
      }
      cur = &(*cur)[seg];
    } else {
      if (cur->is_null()) *cur = json::object();
      if (!cur->is_object()) {
        fail("cannot set '" + seg + "' inside '" + walked + "', which is " + type_word(*cur));
      }
      cur = &(*cur)[seg];
    }
    if (!walked.empty()) walked += '.';
    walked += seg;
    if (last) *cur = value;
  }
  return true;
}

}  // namespace dcsim::tools::scenario
