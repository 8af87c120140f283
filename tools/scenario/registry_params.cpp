#include "tools/scenario/registry_params.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>

#include "sim/error.hpp"
#include "sim/units.hpp"

namespace dcsim::tools::scenario {

namespace {

bool quantity_kind_named(const std::string& name, sim::QuantityKind& kind) {
  for (int k = 0; k <= static_cast<int>(sim::QuantityKind::kLength); ++k) {
    if (sim::quantity_kind_name(static_cast<sim::QuantityKind>(k)) == name) {
      kind = static_cast<sim::QuantityKind>(k);
      return true;
    }
  }
  return false;
}

double number_of(const std::string& text, const std::string& range) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) {
    throw sim::InternalError("parameter range '" + range + "' does not parse (this is a bug)");
  }
  return v;
}

}  // namespace

Range parse_param_range(const std::string& text) {
  Range r;
  if (text.empty()) return r;
  static const std::regex kLower(R"(^x\s*(>=|>)\s*(-?[0-9.eE+-]+)$)");
  static const std::regex kUpper(R"(^x\s*(<=|<)\s*(-?[0-9.eE+-]+)$)");
  static const std::regex kBoth(R"(^(-?[0-9.eE+-]+)\s*(<=|<)\s*x\s*(<=|<)\s*(-?[0-9.eE+-]+)$)");
  std::smatch m;
  if (std::regex_match(text, m, kLower)) {
    r.minimum = number_of(m[2].str(), text);
    r.exclusive_minimum = m[1].str() == ">";
  } else if (std::regex_match(text, m, kUpper)) {
    r.maximum = number_of(m[2].str(), text);
    r.exclusive_maximum = m[1].str() == "<";
  } else if (std::regex_match(text, m, kBoth)) {
    r.minimum = number_of(m[1].str(), text);
    r.exclusive_minimum = m[2].str() == "<";
    r.maximum = number_of(m[4].str(), text);
    r.exclusive_maximum = m[3].str() == "<";
  } else {
    throw sim::InternalError("parameter range '" + text + "' is not of the form 'x > a', 'x <= b' or 'a < x <= b' (this is a bug)");
  }
  return r;
}

FieldSpec param_field(const sim::ParamSpec& spec, const std::string& used_by) {
  const std::string help = spec.help + (spec.help.empty() || spec.help.back() == '.' ? " " : ". ") + "Used by " + used_by + ".";
  const Range range = parse_param_range(spec.valid_range);
  sim::QuantityKind kind{};
  FieldSpec field;
  if (spec.unit.empty()) {
    field = number_field(spec.name, help, range);
  } else if (spec.unit == "integer") {
    field = integer_field(spec.name, help, range);
  } else if (spec.unit == "boolean") {
    field = boolean_field(spec.name, help);
  } else if (spec.unit == "string") {
    field = string_field(spec.name, help);
  } else if (quantity_kind_named(spec.unit, kind)) {
    field = quantity_field(spec.name, help, kind, range);
  } else {
    throw sim::InternalError("parameter '" + spec.name + "': unknown unit '" + spec.unit + "' (this is a bug)");
  }
  return with_default_note(std::move(field), spec.default_value);
}

FieldSpec params_object_field(std::string key, std::string description, const std::vector<EntryParams>& entries) {
  struct Use {
    const sim::ParamSpec* spec;
    std::string users;
    std::vector<std::pair<std::string, std::string>> defaults;  // (entry, default) in entry order
  };
  std::map<std::string, Use> by_name;
  for (const auto& e : entries) {
    for (const auto& p : *e.params) {
      auto [it, fresh] = by_name.emplace(p.name, Use{&p, e.name, {{e.name, p.default_value}}});
      if (fresh) continue;
      const sim::ParamSpec& first = *it->second.spec;
      if (first.unit != p.unit || first.valid_range != p.valid_range) {
        throw sim::InternalError("parameter '" + p.name + "' documented differently by '" + it->second.users +
                                 "' and '" + e.name + "' (this is a bug)");
      }
      it->second.users += ", " + e.name;
      it->second.defaults.emplace_back(e.name, p.default_value);
    }
  }
  std::vector<FieldSpec> children;
  for (const auto& [name, use] : by_name) {
    FieldSpec field = param_field(*use.spec, use.users);
    // Entries with their own figure for the same parameter (price presets): each entry's default.
    bool same = true;
    for (const auto& d : use.defaults) same = same && d.second == use.defaults.front().second;
    if (!same) {
      std::string note;
      for (const auto& [entry, value] : use.defaults) note += (note.empty() ? "" : ", ") + entry + ": " + value;
      field = with_default_note(std::move(field), note);
    }
    children.push_back(std::move(field));
  }
  return object_field(std::move(key), std::move(description), std::move(children));
}

void check_params_of_entry(const nlohmann::json* given_params, const std::string& pointer,
                           const std::string& kind, const std::string& chosen,
                           const std::vector<EntryParams>& entries, ErrorList& errors) {
  if (given_params == nullptr || !given_params->is_object()) return;
  const auto it = std::find_if(entries.begin(), entries.end(), [&](const EntryParams& e) { return e.name == chosen; });
  if (it == entries.end()) return;  // the unknown name is reported at its own pointer
  std::string valid;
  for (const auto& p : *it->params) valid += (valid.empty() ? "" : ", ") + p.name;
  for (const auto& item : given_params->items()) {
    // A named copy: clang 14 (the fuzz preset's) cannot capture a structured binding.
    const std::string& key = item.key();
    const bool documented = std::any_of(it->params->begin(), it->params->end(),
                                        [&](const sim::ParamSpec& p) { return p.name == key; });
    if (!documented) {
      errors.add(pointer_append(pointer, key),
                 "not a parameter of " + kind + " '" + chosen + "'; its parameters: " + (valid.empty() ? "none" : valid));
    }
  }
}

sim::Params params_from_resolved(const nlohmann::json* resolved_params) {
  sim::Params out;
  if (resolved_params == nullptr || !resolved_params->is_object()) return out;
  for (const auto& [name, v] : resolved_params->items()) {
    if (v.is_string()) {
      out.set_text(name, v.get<std::string>());
    } else if (v.is_boolean()) {
      out.set_number(name, v.get<bool>() ? 1.0 : 0.0);
    } else if (v.is_number()) {
      out.set_number(name, v.get<double>());
    }
  }
  return out;
}

}  // namespace dcsim::tools::scenario
