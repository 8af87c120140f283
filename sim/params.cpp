#include "sim/params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim/error.hpp"
#include "sim/registry.hpp"
#include "sim/units.hpp"

namespace dcsim::sim {

namespace {

bool quantity_kind_named(const std::string& name, QuantityKind& kind) {
  for (int k = 0; k <= static_cast<int>(QuantityKind::kLength); ++k) {
    if (quantity_kind_name(static_cast<QuantityKind>(k)) == name) {
      kind = static_cast<QuantityKind>(k);
      return true;
    }
  }
  return false;
}

[[noreturn]] void bad_default(const ParamSpec& spec, const std::string& why) {
  throw InternalError("parameter '" + spec.name + "': default " + spec.default_value + " " + why +
                      " (this is a bug)");
}

}  // namespace

Params Params::defaults(const std::vector<ParamSpec>& specs) {
  Params p;
  p.fill_defaults(specs);
  return p;
}

void Params::fill_defaults(const std::vector<ParamSpec>& specs) {
  for (const auto& s : specs) {
    if (!has(s.name)) set_param_from_text(*this, s, s.default_value);
  }
}

std::vector<std::string> Params::names() const {
  std::vector<std::string> out;
  for (const auto& [n, v] : numbers_) out.push_back(n);
  for (const auto& [n, v] : texts_) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

void Params::require_documented(const std::vector<ParamSpec>& specs, const std::string& field_prefix,
                                const std::string& owner) const {
  for (const auto& name : names()) {
    const bool documented = std::any_of(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == name; });
    if (documented) continue;
    std::string valid;
    for (const auto& p : specs) valid += (valid.empty() ? "" : ", ") + p.name;
    throw ConfigError(field_prefix + name,
                      "is not a parameter of " + owner + " (valid: " + (valid.empty() ? "none" : valid) + ")");
  }
}

double Params::number(const std::string& name) const {
  auto it = numbers_.find(name);
  if (it == numbers_.end()) throw InternalError("parameter '" + name + "' was not documented or not set (this is a bug)");
  return it->second;
}

std::int64_t Params::integer(const std::string& name) const {
  return static_cast<std::int64_t>(std::llround(number(name)));
}

const std::string& Params::text(const std::string& name) const {
  auto it = texts_.find(name);
  if (it == texts_.end()) throw InternalError("parameter '" + name + "' was not documented or not set (this is a bug)");
  return it->second;
}

void set_param_from_text(Params& params, const ParamSpec& spec, const std::string& text) {
  std::string body = text;
  const bool quoted = body.size() >= 2 && body.front() == '"' && body.back() == '"';
  if (quoted) body = body.substr(1, body.size() - 2);
  QuantityKind kind{};
  if (spec.unit == "string") {
    if (!quoted) bad_default(spec, "is not a JSON string");
    params.set_text(spec.name, body);
  } else if (spec.unit == "boolean") {
    if (body != "true" && body != "false") bad_default(spec, "is not true or false");
    params.set_number(spec.name, body == "true" ? 1.0 : 0.0);
  } else if (quantity_kind_named(spec.unit, kind)) {
    if (!quoted) bad_default(spec, "is not a quantity string");
    try {
      params.set_number(spec.name, kind == QuantityKind::kDuration ? parse_duration(body).seconds()
                                                                  : parse_quantity(kind, body));
    } catch (const InputError& e) {
      bad_default(spec, std::string("does not parse: ") + e.what());
    }
  } else if (spec.unit.empty() || spec.unit == "integer") {
    char* end = nullptr;
    const double v = std::strtod(body.c_str(), &end);
    if (quoted || body.empty() || end != body.c_str() + body.size() || !std::isfinite(v)) {
      bad_default(spec, "is not a number");
    }
    if (spec.unit == "integer" && v != std::floor(v)) bad_default(spec, "is not an integer");
    params.set_number(spec.name, v);
  } else {
    throw InternalError("parameter '" + spec.name + "': unknown unit '" + spec.unit + "' (this is a bug)");
  }
}

}  // namespace dcsim::sim
