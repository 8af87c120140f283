#include "tools/scenario/field_spec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "sim/error.hpp"
#include "tools/scenario/did_you_mean.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

std::string format_number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  std::ostringstream out;
  out.precision(15);
  out << v;
  return out.str();
}

namespace {

bool is_positive(const Range& r) {
  return r.minimum && *r.minimum == 0.0 && r.exclusive_minimum && !r.maximum;
}
bool is_non_negative(const Range& r) {
  return r.minimum && *r.minimum == 0.0 && !r.exclusive_minimum && !r.maximum;
}

// " from 1 to 64", " >= 2", "" ... ; `unit` is appended to each bound ("" or " s").
std::string range_text(const Range& r, const std::string& unit) {
  if (r.minimum && r.maximum && !r.exclusive_minimum && !r.exclusive_maximum) {
    return " from " + format_number(*r.minimum) + unit + " to " + format_number(*r.maximum) + unit;
  }
  std::vector<std::string> parts;
  if (r.minimum) {
    parts.push_back((r.exclusive_minimum ? "> " : ">= ") + format_number(*r.minimum) + unit);
  }
  if (r.maximum) {
    parts.push_back((r.exclusive_maximum ? "< " : "<= ") + format_number(*r.maximum) + unit);
  }
  return parts.empty() ? "" : " " + join(parts, " and ");
}

// "positive integer", "integer from 1 to 64": the noun with the range folded in.
std::string ranged_noun(const std::string& noun, const Range& r, const std::string& unit = "",
                        bool integral = false) {
  if (is_positive(r)) return "positive " + noun;
  if (integral && r.minimum && *r.minimum == 1.0 && !r.exclusive_minimum && !r.maximum) {
    return "positive " + noun;
  }
  if (is_non_negative(r)) return "non-negative " + noun;
  return noun + range_text(r, unit);
}

std::string with_article(const std::string& phrase) {
  if (phrase.empty()) return phrase;
  const char c = phrase.front();
  const bool vowel = c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
  return (vowel ? "an " : "a ") + phrase;
}

std::string first_example(sim::QuantityKind kind) {
  const std::string_view ex = sim::quantity_example(kind);
  const auto end = ex.find('"', 1);
  return std::string(ex.substr(0, end == std::string_view::npos ? ex.size() : end + 1));
}

std::string plural_kind(sim::QuantityKind kind) {
  switch (kind) {
    case sim::QuantityKind::kMoney: return "amounts of money";
    default: return std::string(sim::quantity_kind_name(kind)) + "s";
  }
}

std::string sorted_keys(const std::vector<FieldSpec>& children) {
  std::vector<std::string> keys;
  for (const auto& c : children) keys.push_back(c.key);
  std::sort(keys.begin(), keys.end());
  return join(keys);
}

std::optional<double> as_integer(const json& v) {
  if (v.is_number_integer()) return v.get<double>();
  if (v.is_number_float()) {
    // Beyond +-2^63 a float cannot be stored as an integer field without loss.
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) return d;
  }
  return std::nullopt;
}

std::string got(const json& v) { return ", got " + render_value(v); }

bool has_control_character(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
  });
}

json resolve_members(const std::vector<FieldSpec>& children, const json& given,
                     const std::string& pointer, ErrorList& errors);

json resolve_integer(const FieldSpec& spec, const Range& range, const json& given,
                     const std::string& pointer, ErrorList& errors, const std::string& what) {
  const auto v = as_integer(given);
  // An integer given as such is compared exactly (a double rounds 2^53 + 1 to 2^53, which
  // would let it past a bound of 2^53): long double holds every int64 and uint64.
  const auto exact_in_range = [&] {
    if (!given.is_number_integer()) return true;
    const long double x = given.is_number_unsigned() ? static_cast<long double>(given.get<std::uint64_t>())
                                                     : static_cast<long double>(given.get<std::int64_t>());
    if (range.minimum && (range.exclusive_minimum ? x <= *range.minimum : x < *range.minimum)) return false;
    if (range.maximum && (range.exclusive_maximum ? x >= *range.maximum : x > *range.maximum)) return false;
    return true;
  };
  if (!v || !range.contains(*v) || !exact_in_range()) {
    errors.add(pointer, "expected " + what + got(given));
    return nullptr;
  }
  if (!spec.wide_integer && !range.maximum && *v > kMaxInt32) {
    errors.add(pointer, "expected " + what + " of at most 2147483647 (2^31 - 1, what the model's count holds)" +
                            got(given));
    return nullptr;
  }
  if (given.is_number_unsigned()) return given;
  if (given.is_number_integer()) return given.get<std::int64_t>();
  return static_cast<std::int64_t>(*v);
}

// "; units: ns, us, ...": what a quantity that did not parse may be written in.
std::string units_note(sim::QuantityKind kind) { return "; units: " + join(quantity_units(kind)); }

json resolve_quantity(sim::QuantityKind kind, const Range& range, const json& given,
                      const std::string& pointer, ErrorList& errors, const std::string& what) {
  if (!given.is_string()) {
    errors.add(pointer, "expected " + what + got(given) + units_note(kind));
    return nullptr;
  }
  double v = 0.0;
  try {
    v = sim::parse_quantity(kind, given.get<std::string>());
  } catch (const sim::InputError& e) {
    // Our own message rather than the parser's: it states the field's range too, and reads the
    // same for every kind. Where the text parses but the value cannot be represented ("1e30 h"
    // is beyond the 292 years of simulated time), the parser's limit is said as well.
    const std::string detail = e.what();
    const bool beyond_range = detail.find("out of range") != std::string::npos;
    const bool price = kind == sim::QuantityKind::kMoney || kind == sim::QuantityKind::kEnergyPrice ||
                       kind == sim::QuantityKind::kDataPrice;
    // The units only where they can be the problem: not for a number too large, nor for a sign
    // where the same text without it parses ("-5 s").
    const std::string text = given.get<std::string>();
    const auto sign = text.find_first_not_of(" \t");
    bool only_sign = false;
    if (sign != std::string::npos && text[sign] == '-') {
      try {
        sim::parse_quantity(kind, text.substr(sign + 1));
        only_sign = true;
      } catch (const sim::InputError&) {
      }
    }
    errors.add(pointer, "expected " + what + got(given) +
                            (beyond_range ? ": " + detail : only_sign ? std::string() : units_note(kind)) +
                            (price ? sim::other_currency_note(given.get<std::string>()) : ""));
    return nullptr;
  }
  if (!range.contains(v)) {
    errors.add(pointer, "expected " + what + got(given));
    return nullptr;
  }
  return v;
}

std::string quantity_expectation(sim::QuantityKind kind, const Range& range) {
  const std::string unit = " " + std::string(quantity_si_unit(kind));
  return with_article(ranged_noun(std::string(sim::quantity_kind_name(kind)), range, unit)) +
         " such as " + std::string(sim::quantity_example(kind));
}

json resolve_distribution(const FieldSpec& spec, const json& given, const std::string& pointer,
                          ErrorList& errors) {
  if (!given.is_object()) {
    errors.add(pointer, "expected " + expectation(spec) + got(given));
    return nullptr;
  }
  std::vector<std::string> kinds;
  for (const auto& k : distribution_kinds()) kinds.push_back(k.kind);
  const std::string kind_ptr = pointer_append(pointer, "kind");
  if (!given.contains("kind")) {
    errors.add(kind_ptr, "missing required key; expected one of: " + join(kinds));
    return nullptr;
  }
  const json& kind_value = given.at("kind");
  const DistributionKindSpec* kind = nullptr;
  for (const auto& k : distribution_kinds()) {
    if (kind_value.is_string() && kind_value.get<std::string>() == k.kind) kind = &k;
  }
  if (kind == nullptr) {
    if (kind_value.is_string()) {
      errors.add(kind_ptr, "unknown distribution kind '" + kind_value.get<std::string>() +
                               "'; valid: " + join(kinds));
    } else {
      errors.add(kind_ptr, "expected a distribution kind (one of: " + join(kinds) + ")" +
                               got(kind_value));
    }
    return nullptr;
  }
  std::vector<std::string> valid{"kind"};
  valid.insert(valid.end(), kind->quantity_params.begin(), kind->quantity_params.end());
  valid.insert(valid.end(), kind->shape_params.begin(), kind->shape_params.end());
  std::vector<std::string> valid_sorted = valid;
  std::sort(valid_sorted.begin(), valid_sorted.end());
  for (const auto& [key, value] : given.items()) {
    if (std::find(valid.begin(), valid.end(), key) == valid.end()) {
      errors.add(pointer_append(pointer, key),
                 "unknown key;" + did_you_mean(key, valid) + " valid keys for " +
                     with_article(kind->kind + " distribution") + ": " + join(valid_sorted));
    }
  }
  json out = {{"kind", kind->kind}};
  bool ok = true;
  for (const auto& p : kind->quantity_params) {
    // Scale-like parameters must be positive whatever the field allows: an exponential with
    // mean 0 or a Weibull with scale 0 is degenerate.
    const bool scale = kind->kind == "exponential" || kind->kind == "lognormal" ||
                       kind->kind == "weibull";
    Range range = spec.range;
    if (scale && (!range.minimum || *range.minimum <= 0.0)) range = above(0);
    const std::string what = quantity_expectation(spec.quantity_kind, range);
    const std::string p_ptr = pointer_append(pointer, p);
    if (!given.contains(p)) {
      errors.add(p_ptr, "missing required key; expected " + what);
      ok = false;
      continue;
    }
    json v = resolve_quantity(spec.quantity_kind, range, given.at(p), p_ptr, errors, what);
    if (v.is_null()) ok = false;
    out[p] = v;
  }
  for (const auto& p : kind->shape_params) {
    const std::string p_ptr = pointer_append(pointer, p);
    const std::string what = "a positive number";
    if (!given.contains(p)) {
      errors.add(p_ptr, "missing required key; expected " + what);
      ok = false;
      continue;
    }
    const json& v = given.at(p);
    if (!v.is_number() || !above(0).contains(v.get<double>())) {
      errors.add(p_ptr, "expected " + what + got(v));
      ok = false;
      continue;
    }
    out[p] = v.get<double>();
  }
  if (!ok) return nullptr;
  if (kind->kind == "uniform" && out["low"].get<double>() > out["high"].get<double>()) {
    errors.add(pointer_append(pointer, "high"),
               "expected high >= low (" + render_value(given.at("low")) + ")" +
                   got(given.at("high")));
    return nullptr;
  }
  return out;
}

json resolve_members(const std::vector<FieldSpec>& children, const json& given,
                     const std::string& pointer, ErrorList& errors) {
  json out = json::object();
  for (const auto& [key, value] : given.items()) {
    const bool known = std::any_of(children.begin(), children.end(),
                                   [&name = key](const FieldSpec& c) { return c.key == name; });
    if (!known) {
      std::vector<std::string> keys;
      for (const auto& c : children) keys.push_back(c.key);
      errors.add(pointer_append(pointer, key),
                 "unknown key;" + did_you_mean(key, keys) + " valid keys here: " + sorted_keys(children));
    }
  }
  for (const auto& child : children) {
    const std::string child_ptr = pointer_append(pointer, child.key);
    json r;
    if (given.contains(child.key)) {
      r = resolve_value(child, given.at(child.key), child_ptr, errors);
    } else if (child.default_value) {
      r = resolve_value(child, *child.default_value, child_ptr, errors);
    } else if (child.required) {
      errors.add(child_ptr, "missing required key; expected " + expectation(child));
    } else if (child.type == FieldType::kObject && !child.absent_when_missing) {
      // An optional section left out is the section with all its defaults.
      r = resolve_value(child, json::object(), child_ptr, errors);
    }
    if (!r.is_null()) out[child.key] = std::move(r);
  }
  return out;
}

}  // namespace

bool Range::contains(double v) const {
  if (std::isnan(v)) return false;
  if (minimum && (exclusive_minimum ? v <= *minimum : v < *minimum)) return false;
  if (maximum && (exclusive_maximum ? v >= *maximum : v > *maximum)) return false;
  return true;
}

const FieldSpec* FieldSpec::child(const std::string& name) const {
  for (const auto& c : children) {
    if (c.key == name) return &c;
  }
  return nullptr;
}

FieldSpec object_field(std::string key, std::string description, std::vector<FieldSpec> children,
                       bool is_required) {
  FieldSpec f;
  f.key = std::move(key);
  f.type = FieldType::kObject;
  f.description = std::move(description);
  f.children = std::move(children);
  f.required = is_required;
  return f;
}

FieldSpec object_array_field(std::string key, std::string description,
                             std::vector<FieldSpec> children) {
  FieldSpec f = object_field(std::move(key), std::move(description), std::move(children));
  f.type = FieldType::kObjectArray;
  return f;
}

FieldSpec integer_field(std::string key, std::string description, Range range) {
  FieldSpec f;
  f.key = std::move(key);
  f.type = FieldType::kInteger;
  f.description = std::move(description);
  f.range = range;
  return f;
}

FieldSpec integer_array_field(std::string key, std::string description, Range item_range) {
  FieldSpec f = integer_field(std::move(key), std::move(description), item_range);
  f.type = FieldType::kIntegerArray;
  return f;
}

FieldSpec number_field(std::string key, std::string description, Range range) {
  FieldSpec f = integer_field(std::move(key), std::move(description), range);
  f.type = FieldType::kNumber;
  return f;
}

FieldSpec boolean_field(std::string key, std::string description) {
  FieldSpec f;
  f.key = std::move(key);
  f.type = FieldType::kBoolean;
  f.description = std::move(description);
  return f;
}

FieldSpec string_field(std::string key, std::string description) {
  FieldSpec f = boolean_field(std::move(key), std::move(description));
  f.type = FieldType::kString;
  return f;
}

FieldSpec enum_field(std::string key, std::string description, std::string noun,
                     std::vector<std::string> values) {
  FieldSpec f = boolean_field(std::move(key), std::move(description));
  f.type = FieldType::kEnum;
  f.enum_noun = std::move(noun);
  f.enum_values = std::move(values);
  return f;
}

FieldSpec quantity_field(std::string key, std::string description, sim::QuantityKind kind,
                         Range range) {
  FieldSpec f = integer_field(std::move(key), std::move(description), range);
  f.type = FieldType::kQuantity;
  f.quantity_kind = kind;
  return f;
}

FieldSpec distribution_field(std::string key, std::string description, sim::QuantityKind kind,
                             Range range) {
  FieldSpec f = quantity_field(std::move(key), std::move(description), kind, range);
  f.type = FieldType::kDistribution;
  return f;
}

FieldSpec optional_section(FieldSpec f, std::string note) {
  f.absent_when_missing = true;
  f.default_note = std::move(note);
  return f;
}

FieldSpec required(FieldSpec f) {
  f.required = true;
  return f;
}
FieldSpec with_default(FieldSpec f, nlohmann::json value) {
  f.default_value = std::move(value);
  return f;
}
FieldSpec with_default_note(FieldSpec f, std::string note) {
  f.default_note = std::move(note);
  return f;
}
FieldSpec non_empty(FieldSpec f) {
  f.non_empty = true;
  return f;
}
FieldSpec wide_integer(FieldSpec f) {
  f.wide_integer = true;
  return f;
}
std::optional<double> integer_maximum(const FieldSpec& spec) {
  if (spec.range.maximum || spec.wide_integer) return spec.range.maximum;
  return kMaxInt32;
}
FieldSpec free_text(FieldSpec f) {
  f.free_text = true;
  return f;
}
FieldSpec min_items(FieldSpec f, std::size_t n) {
  f.min_items = n;
  return f;
}

Range at_least(double v) { return Range{v, std::nullopt, false, false}; }
Range above(double v) { return Range{v, std::nullopt, true, false}; }
Range between(double lo, double hi) { return Range{lo, hi, false, false}; }

std::string expectation(const FieldSpec& spec) {
  switch (spec.type) {
    case FieldType::kObject: return "an object";
    case FieldType::kObjectArray: return "an array of objects";
    case FieldType::kIntegerArray: {
      std::string noun = ranged_noun("integers", spec.range, "", true);
      return std::string(spec.min_items && *spec.min_items > 0 ? "a non-empty" : "an") +
             " array of " + noun;
    }
    case FieldType::kInteger: return with_article(ranged_noun("integer", spec.range, "", true));
    case FieldType::kNumber: return with_article(ranged_noun("number", spec.range));
    case FieldType::kBoolean: return "true or false";
    case FieldType::kString: return spec.non_empty ? "a non-empty string" : "a string";
    case FieldType::kEnum:
      return (spec.enum_noun.empty() ? std::string("one of") : "a " + spec.enum_noun + " name, one of") +
             ": " + join(spec.enum_values);
    case FieldType::kQuantity: return quantity_expectation(spec.quantity_kind, spec.range);
    case FieldType::kDistribution:
      return "a distribution of " + plural_kind(spec.quantity_kind) +
             " such as {\"kind\": \"exponential\", \"mean\": " + first_example(spec.quantity_kind) +
             "}";
  }
  return "a value";
}

std::string render_value(const nlohmann::json& value) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  constexpr std::size_t kMax = 60;
  if (s.size() > kMax) s = s.substr(0, kMax - 3) + "...";
  return s;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

const json* find_at(const json& doc, const std::string& pointer) {
  const json::json_pointer p(pointer);
  return doc.contains(p) ? &doc.at(p) : nullptr;
}

std::string located(const std::string& source, const std::string& pointer, const std::string& message) {
  return pointer.empty() ? source + ": " + message : source + ":" + pointer + ": " + message;
}

std::string pointer_append(const std::string& pointer, const std::string& token) {
  std::string escaped;
  for (char c : token) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return pointer + "/" + escaped;
}

nlohmann::json resolve_value(const FieldSpec& spec, const nlohmann::json& given,
                             const std::string& pointer, ErrorList& errors) {
  switch (spec.type) {
    case FieldType::kObject:
      if (!given.is_object()) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      return resolve_members(spec.children, given, pointer, errors);
    case FieldType::kObjectArray: {
      if (!given.is_array()) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      json out = json::array();
      for (std::size_t i = 0; i < given.size(); ++i) {
        const std::string item_ptr = pointer_append(pointer, std::to_string(i));
        if (!given[i].is_object()) {
          errors.add(item_ptr, "expected an object" + got(given[i]));
          out.push_back(nullptr);
          continue;
        }
        out.push_back(resolve_members(spec.children, given[i], item_ptr, errors));
      }
      if (spec.min_items && given.size() < *spec.min_items) {
        errors.add(pointer, "expected at least " + std::to_string(*spec.min_items) +
                                " element(s)" + got(given));
      }
      return out;
    }
    case FieldType::kIntegerArray: {
      if (!given.is_array() || (spec.min_items && given.size() < *spec.min_items)) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      json out = json::array();
      const std::string what = with_article(ranged_noun("integer", spec.range, "", true));
      bool ok = true;
      for (std::size_t i = 0; i < given.size(); ++i) {
        json v = resolve_integer(spec, spec.range, given[i],
                                 pointer_append(pointer, std::to_string(i)), errors, what);
        ok = ok && !v.is_null();
        out.push_back(std::move(v));
      }
      return ok ? out : json(nullptr);
    }
    case FieldType::kInteger:
      return resolve_integer(spec, spec.range, given, pointer, errors, expectation(spec));
    case FieldType::kNumber:
      if (!given.is_number() || !spec.range.contains(given.get<double>())) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      return given;
    case FieldType::kBoolean:
      if (!given.is_boolean()) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      return given;
    case FieldType::kString:
      if (!given.is_string() || (spec.non_empty && given.get<std::string>().empty())) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      // Names and paths become HDF5 link names, CSV cells and file names: a NUL cut them short
      // (the trace writer failed on a service named "a\u0000b"), other controls garble them.
      if (!spec.free_text && has_control_character(given.get_ref<const std::string&>())) {
        errors.add(pointer, "expected " + expectation(spec) +
                                " without control characters (U+0000 to U+001F, U+007F)" + got(given));
        return nullptr;
      }
      return given;
    case FieldType::kEnum: {
      if (!given.is_string()) {
        errors.add(pointer, "expected " + expectation(spec) + got(given));
        return nullptr;
      }
      const auto name = given.get<std::string>();
      if (std::find(spec.enum_values.begin(), spec.enum_values.end(), name) ==
          spec.enum_values.end()) {
        // sim::Registry::get's wording, so a name reads alike wherever it is checked, and a guess.
        errors.add(pointer, "unknown " + (spec.enum_noun.empty() ? "value" : spec.enum_noun) + " '" + name +
                                "';" + did_you_mean(name, spec.enum_values) + " valid: " + join(spec.enum_values));
        return nullptr;
      }
      return given;
    }
    case FieldType::kQuantity:
      return resolve_quantity(spec.quantity_kind, spec.range, given, pointer, errors,
                              expectation(spec));
    case FieldType::kDistribution: return resolve_distribution(spec, given, pointer, errors);
  }
  throw sim::InternalError("resolve_value: unknown FieldType (this is a bug)");
}

const std::vector<DistributionKindSpec>& distribution_kinds() {
  static const std::vector<DistributionKindSpec> kinds{
      {"fixed", {"value"}, {}},
      {"uniform", {"low", "high"}, {}},
      {"exponential", {"mean"}, {}},
      {"lognormal", {"median"}, {"sigma"}},
      {"weibull", {"scale"}, {"shape"}},
  };
  return kinds;
}

sim::Distribution distribution_from_resolved(const json& d) {
  using K = sim::Distribution::Kind;
  const auto kind = d.at("kind").get<std::string>();
  if (kind == "fixed") return {K::kFixed, d.at("value").get<double>(), 0.0};
  if (kind == "uniform") return {K::kUniform, d.at("low").get<double>(), d.at("high").get<double>()};
  if (kind == "exponential") return {K::kExponential, d.at("mean").get<double>(), 0.0};
  if (kind == "lognormal") return {K::kLognormal, d.at("median").get<double>(), d.at("sigma").get<double>()};
  if (kind == "weibull") return {K::kWeibull, d.at("scale").get<double>(), d.at("shape").get<double>()};
  throw sim::InternalError("unknown distribution kind '" + kind + "' after validation (this is a bug)");
}

}  // namespace dcsim::tools::scenario
