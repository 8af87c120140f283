#include "models/economics/price_preset.hpp"

#include <charconv>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::economics {

std::string format_number(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

void require_non_negative(double v, const std::string& field, const std::string& what) {
  if (!(v >= 0.0) || !std::isfinite(v)) {
    throw sim::ConfigError(field, "expected a non-negative " + what + ", got " + format_number(v));
  }
}

void require_positive(double v, const std::string& field, const std::string& what) {
  if (!(v > 0.0) || !std::isfinite(v)) {
    throw sim::ConfigError(field, "expected a positive " + what + ", got " + format_number(v));
  }
}

std::vector<sim::ParamSpec> price_param_specs(const std::vector<PriceField>& fields) {
  std::vector<sim::ParamSpec> specs;
  specs.reserve(fields.size());
  for (const auto& f : fields) specs.push_back({f.name, "", format_number(*f.value), "x >= 0", f.help});
  return specs;
}

void apply_price_params(const std::vector<PriceField>& fields, const sim::Params& params) {
  for (const auto& f : fields) {
    if (!params.has(f.name)) continue;
    // Checked here under the parameter's own name, which the caller maps to where it was given
    // (the preset's validate() names struct fields such as "tiers[0].usd_per_gb").
    require_non_negative(params.number(f.name), f.name);
    *f.value = params.number(f.name);
  }
}

std::string describe_preset(const std::string& summary, const std::string& source, const std::string& as_of) {
  return summary + " (source: " + source + "; as of " + as_of + ")";
}

}  // namespace dcsim::models::economics
