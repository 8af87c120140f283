// The JSON Schema and the Markdown reference, both derived from a FieldSpec tree.

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/error.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

namespace {

// The unsigned number syntax sim/units accepts (no "inf", no hex).
constexpr std::string_view kNumber = R"(([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)";

std::string regex_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string alternatives(const std::vector<std::string>& units) {
  // Longest first, so "min" is tried before "m" by engines that take the first match.
  std::vector<std::string> sorted = units;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  std::string out = "(";
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0) out += '|';
    out += regex_escape(sorted[i]);
  }
  return out + ")";
}

bool allows_negative(sim::QuantityKind kind) {
  return kind == sim::QuantityKind::kTemperature || kind == sim::QuantityKind::kMoney;
}

void add_range(json& s, const Range& r) {
  if (r.minimum) s[r.exclusive_minimum ? "exclusiveMinimum" : "minimum"] = *r.minimum;
  if (r.maximum) s[r.exclusive_maximum ? "exclusiveMaximum" : "maximum"] = *r.maximum;
}

// Integral bounds as integers, so the schema reads "minimum": 1 rather than 1.0.
void normalise_numbers(json& s) {
  for (const char* k : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}) {
    if (s.contains(k)) {
      const double v = s[k].get<double>();
      if (v == std::floor(v) && std::fabs(v) < 1e15) s[k] = static_cast<std::int64_t>(v);
    }
  }
}

std::string describe(const FieldSpec& spec) {
  std::string d = spec.description;
  if (spec.type == FieldType::kQuantity || spec.type == FieldType::kDistribution) {
    d += std::string(d.empty() ? "" : " ") + "(" + std::string(sim::quantity_kind_name(spec.quantity_kind)) +
         ", e.g. " + std::string(sim::quantity_example(spec.quantity_kind)) + ")";
  }
  if (!spec.default_note.empty()) d += " Default: " + spec.default_note + ".";
  return d;
}

json members_schema(const std::vector<FieldSpec>& children) {
  json s = {{"type", "object"}, {"additionalProperties", false}};
  json props = json::object();
  json req = json::array();
  for (const auto& c : children) {
    props[c.key] = field_schema(c);
    if (c.required) req.push_back(c.key);
  }
  s["properties"] = props;
  if (!req.empty()) s["required"] = req;
  return s;
}

json quantity_schema(sim::QuantityKind kind, const Range& range) {
  json s = {{"type", "string"}, {"pattern", quantity_pattern(kind)}};
  (void)range;  // a range on a string with units is beyond JSON Schema; the loader checks it
  return s;
}

std::string type_name(const FieldSpec& spec) {
  switch (spec.type) {
    case FieldType::kObject: return "object";
    case FieldType::kObjectArray: return "array of objects";
    case FieldType::kIntegerArray: return "array of integers";
    case FieldType::kInteger: return "integer";
    case FieldType::kNumber: return "number";
    case FieldType::kBoolean: return "boolean";
    case FieldType::kString: return "string";
    case FieldType::kEnum:
      return (spec.enum_noun.empty() ? std::string("name") : spec.enum_noun + " name");
    case FieldType::kQuantity: return std::string(sim::quantity_kind_name(spec.quantity_kind));
    case FieldType::kDistribution:
      return "distribution of " + std::string(sim::quantity_kind_name(spec.quantity_kind)) + "s";
  }
  return "";
}

std::string range_cell(const FieldSpec& spec) {
  std::vector<std::string> parts;
  const bool quantity =
      spec.type == FieldType::kQuantity || spec.type == FieldType::kDistribution;
  const std::string unit = quantity ? " " + std::string(quantity_si_unit(spec.quantity_kind)) : "";
  const auto& r = spec.range;
  if (spec.type == FieldType::kIntegerArray && spec.min_items && *spec.min_items > 0) {
    parts.push_back(*spec.min_items == 1 ? "non-empty; each"
                                         : "at least " + std::to_string(*spec.min_items) +
                                               " items; each");
  }
  if (r.minimum && r.maximum && !r.exclusive_minimum && !r.exclusive_maximum) {
    parts.push_back(format_number(*r.minimum) + unit + " to " + format_number(*r.maximum) + unit);
  } else {
    if (r.minimum) {
      parts.push_back((r.exclusive_minimum ? "> " : "≥ ") + format_number(*r.minimum) + unit);
    }
    if (r.maximum) {
      parts.push_back((r.exclusive_maximum ? "< " : "≤ ") + format_number(*r.maximum) + unit);
    }
  }
  if (spec.type == FieldType::kEnum) {
    std::string vals;
    for (const auto& v : spec.enum_values) vals += (vals.empty() ? "" : ", ") + ("`" + v + "`");
    parts.push_back(vals);
  }
  if (spec.type == FieldType::kString && spec.non_empty) parts.push_back("non-empty");
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

void table_rows(const FieldSpec& spec, const std::string& path, std::string& out) {
  std::string def;
  if (spec.default_value) {
    def = "`" + spec.default_value->dump() + "`";
  } else if (!spec.default_note.empty()) {
    def = spec.default_note;
  } else if (spec.required) {
    def = "**required**";
  } else if (spec.type == FieldType::kObject) {
    def = "(defaults of its keys)";
  } else {
    def = "(absent)";
  }
  if (!path.empty()) {
    std::string desc = spec.description;
    if (spec.type == FieldType::kQuantity || spec.type == FieldType::kDistribution) {
      desc += " Resolved in " + std::string(quantity_si_unit(spec.quantity_kind)) + ".";
    }
    out += "| `" + path + "` | " + type_name(spec) + " | " + def + " | " + range_cell(spec) +
           " | " + desc + " |\n";
  }
  const std::string child_base =
      spec.type == FieldType::kObjectArray ? path + "/*" : path;
  for (const auto& c : spec.children) table_rows(c, child_base + "/" + c.key, out);
}

}  // namespace

std::string_view quantity_si_unit(sim::QuantityKind kind) {
  switch (kind) {
    case sim::QuantityKind::kDuration: return "s";
    case sim::QuantityKind::kDataSize: return "B";
    case sim::QuantityKind::kDataRate: return "bit/s";
    case sim::QuantityKind::kPower: return "W";
    case sim::QuantityKind::kEnergy: return "J";
    case sim::QuantityKind::kTemperature: return "C";
    case sim::QuantityKind::kMoney: return "USD";
    case sim::QuantityKind::kEnergyPrice: return "USD/J";
    case sim::QuantityKind::kDataPrice: return "USD/B";
    case sim::QuantityKind::kLength: return "m";
  }
  return "";
}

const std::vector<std::string>& quantity_units(sim::QuantityKind kind) {
  // Must match the tables in sim/units.cpp and sim/time.cpp; test_units_in_schema_parse checks
  // that every unit listed here parses.
  static const std::vector<std::string> duration{"ns", "us",  "µs", "μs", "ms", "s",
                                                 "sec", "min", "h",  "d",  "w"};
  static const std::vector<std::string> size{"B",   "kB",  "KB",  "MB",  "GB",  "TB",  "PB",
                                             "KiB", "MiB", "GiB", "TiB", "PiB", "b",   "bit",
                                             "kb",  "Kb",  "Mb",  "Gb",  "Tb",  "Pb"};
  static const std::vector<std::string> rate{
      "bps",  "kbps", "Kbps",  "Mbps",  "Gbps",  "Tbps",  "Pbps",  "b/s",  "bit/s",
      "kb/s", "Kb/s", "Mb/s",  "Gb/s",  "Tb/s",  "Pb/s",  "B/s",   "kB/s", "KB/s",
      "MB/s", "GB/s", "TB/s",  "PB/s",  "Bps",   "kBps",  "KBps",  "MBps", "GBps",
      "TBps", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
  static const std::vector<std::string> power{"mW", "W", "kW", "MW", "GW"};
  static const std::vector<std::string> energy{"J",  "kJ",  "MJ",  "GJ", "TJ",
                                               "Wh", "kWh", "MWh", "GWh"};
  static const std::vector<std::string> temperature{"C", "°C", "degC", "K", "F", "°F", "degF"};
  static const std::vector<std::string> money{"USD", "$"};
  static const std::vector<std::string> energy_price{"USD/J",   "USD/kJ",  "USD/MJ",
                                                     "USD/GJ",  "USD/Wh",  "USD/kWh",
                                                     "USD/MWh", "$/kWh",   "$/MWh"};
  static const std::vector<std::string> data_price{"USD/B",  "USD/kB",  "USD/KB",  "USD/MB",
                                                   "USD/GB", "USD/TB",  "USD/PB",  "USD/GiB",
                                                   "USD/TiB", "$/GB",   "$/TB",    "$/GiB"};
  static const std::vector<std::string> length{"mm", "cm", "m", "km"};
  switch (kind) {
    case sim::QuantityKind::kDuration: return duration;
    case sim::QuantityKind::kDataSize: return size;
    case sim::QuantityKind::kDataRate: return rate;
    case sim::QuantityKind::kPower: return power;
    case sim::QuantityKind::kEnergy: return energy;
    case sim::QuantityKind::kTemperature: return temperature;
    case sim::QuantityKind::kMoney: return money;
    case sim::QuantityKind::kEnergyPrice: return energy_price;
    case sim::QuantityKind::kDataPrice: return data_price;
    case sim::QuantityKind::kLength: return length;
  }
  throw sim::InternalError("quantity_units: unknown QuantityKind (this is a bug)");
}

std::string quantity_pattern(sim::QuantityKind kind) {
  const std::string sign = allows_negative(kind) ? "[+-]?" : "\\+?";
  const std::string number = sign + std::string(kNumber);
  const std::string units = alternatives(quantity_units(kind));
  if (kind == sim::QuantityKind::kMoney) {
    return "^\\s*(" + number + "\\s*" + units + "|-?\\$\\s*" + std::string(kNumber) + ")\\s*$";
  }
  if (kind == sim::QuantityKind::kEnergyPrice || kind == sim::QuantityKind::kDataPrice) {
    // Also "$0.08/kWh": the sign first, then the per-unit part of a "USD/..." unit.
    std::vector<std::string> per;
    for (const auto& u : quantity_units(kind)) {
      if (u.rfind("USD/", 0) == 0) per.push_back(u.substr(3));
    }
    return "^\\s*(" + number + "\\s*" + units + "|\\$\\s*" + std::string(kNumber) + "\\s*" +
           alternatives(per) + ")\\s*$";
  }
  if (kind == sim::QuantityKind::kDuration) {
    // Terms add up ("2 h 3 min", as format_duration writes them); a bare zero is the one
    // unitless duration ("0" is nothing in every unit).
    return "^\\s*\\+?\\s*((" + std::string(kNumber) + "\\s*" + units + "\\s*)+|0+(\\.0*)?\\s*)$";
  }
  return "^\\s*" + number + "\\s*" + units + "\\s*$";
}

nlohmann::json field_schema(const FieldSpec& spec) {
  json s;
  switch (spec.type) {
    case FieldType::kObject: s = members_schema(spec.children); break;
    case FieldType::kObjectArray:
      s = {{"type", "array"}, {"items", members_schema(spec.children)}};
      if (spec.min_items) s["minItems"] = *spec.min_items;
      break;
    case FieldType::kIntegerArray: {
      json item = {{"type", "integer"}};
      add_range(item, spec.range);
      if (const auto max = integer_maximum(spec); max && !spec.range.maximum) item["maximum"] = *max;
      normalise_numbers(item);
      s = {{"type", "array"}, {"items", item}};
      if (spec.min_items) s["minItems"] = *spec.min_items;
      break;
    }
    case FieldType::kInteger:
      s = {{"type", "integer"}};
      add_range(s, spec.range);
      if (const auto max = integer_maximum(spec); max && !spec.range.maximum) s["maximum"] = *max;
      break;
    case FieldType::kNumber:
      s = {{"type", "number"}};
      add_range(s, spec.range);
      break;
    case FieldType::kBoolean: s = {{"type", "boolean"}}; break;
    case FieldType::kString:
      s = {{"type", "string"}};
      if (spec.non_empty) s["minLength"] = 1;
      if (!spec.free_text) s["pattern"] = "^[^\\u0000-\\u001F\\u007F]*$";  // no control characters
      break;
    case FieldType::kEnum:
      s = {{"type", "string"}};
      // An empty registry would make every value invalid; leave the check to the loader then.
      if (!spec.enum_values.empty()) s["enum"] = spec.enum_values;
      break;
    case FieldType::kQuantity: s = quantity_schema(spec.quantity_kind, spec.range); break;
    case FieldType::kDistribution: {
      json one_of = json::array();
      const json q = quantity_schema(spec.quantity_kind, spec.range);
      for (const auto& k : distribution_kinds()) {
        json props = {{"kind", {{"const", k.kind}}}};
        json req = {"kind"};
        for (const auto& p : k.quantity_params) {
          props[p] = q;
          req.push_back(p);
        }
        for (const auto& p : k.shape_params) {
          props[p] = {{"type", "number"}, {"exclusiveMinimum", 0}};
          req.push_back(p);
        }
        one_of.push_back({{"type", "object"},
                          {"additionalProperties", false},
                          {"properties", props},
                          {"required", req}});
      }
      s = {{"type", "object"}, {"required", {"kind"}}, {"oneOf", one_of}};
      break;
    }
  }
  normalise_numbers(s);
  const std::string d = describe(spec);
  if (!d.empty()) s["description"] = d;
  if (spec.default_value) s["default"] = *spec.default_value;
  return s;
}

std::string reference_table_markdown(const FieldSpec& root) {
  std::string out =
      "| Key | Type | Default | Valid values | Meaning |\n"
      "|---|---|---|---|---|\n";
  table_rows(root, "", out);
  return out;
}

}  // namespace dcsim::tools::scenario
