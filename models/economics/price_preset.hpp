#pragma once
// What every price preset shares: where its figures come from, and how each price is exposed
// for overriding. Prices move and the mechanism must not, so a preset is only a starting point:
//
//  - each preset type T has `name`, `source` and `as_of` strings (shown by `dcsim list` next to
//    the name) and a function `price_fields(T&)` listing every price it holds;
//  - register_price_preset() documents each of those prices as a sim::ParamSpec whose default is
//    the preset's figure, and its factory writes the Params given back over the preset and then
//    validates the result (`validate(const T&, prefix)`), so an override is checked like a preset.
//
// Units are in the parameter names (usd_per_gpu_hour, usd_per_kw): a plain number each.

#include <functional>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::economics {

// One overridable price: its parameter name, where it lives in the preset, a one-line help.
struct PriceField {
  std::string name;
  double* value = nullptr;
  std::string help;
};

template <class T>
using PricePresetFactory = std::function<T(const sim::Params&)>;

// Shortest text that reads back as exactly `v` ("0.09", "313500", "1e-05").
std::string format_number(double v);

// sim::ConfigError("<field>", "expected a non-negative price, got -1") unless v >= 0 and finite.
void require_non_negative(double v, const std::string& field, const std::string& what = "price");
// As above for v > 0.
void require_positive(double v, const std::string& field, const std::string& what);

// One ParamSpec per field, default = the field's current value, range "x >= 0".
std::vector<sim::ParamSpec> price_param_specs(const std::vector<PriceField>& fields);
// Writes every field that `params` sets; sim::ConfigError("<name>") for a negative value.
void apply_price_params(const std::vector<PriceField>& fields, const sim::Params& params);

// "<summary> (source: <source>; as of <as_of>)": what `dcsim list` shows.
std::string describe_preset(const std::string& summary, const std::string& source, const std::string& as_of);

// Registers `make()` under its name. `summary` is the one-line description; the source and date
// come from the preset itself, so the listing cannot drift from the figures.
template <class T>
void register_price_preset(sim::Registry<PricePresetFactory<T>>& registry, T (*make)(), const std::string& summary) {
  T preset = make();
  std::vector<sim::ParamSpec> specs = price_param_specs(price_fields(preset));
  registry.add({preset.name, describe_preset(summary, preset.source, preset.as_of), std::move(specs),
                [make](const sim::Params& params) {
                  T t = make();
                  apply_price_params(price_fields(t), params);
                  validate(t, "");
                  return t;
                }});
}

}  // namespace dcsim::models::economics
