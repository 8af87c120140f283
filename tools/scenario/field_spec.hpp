#pragma once
// A declarative description of a JSON format: the single source of truth from which validation,
// default filling / unit normalisation ("resolution"), the JSON Schema and the reference
// documentation are all derived, so the four cannot disagree.
//
// A FieldSpec is one key: its type, whether it is required, its default (written as a scenario
// would write it, so defaults go through the same parsing as user values), its valid range and a
// description. Objects and arrays of objects nest child FieldSpecs.
//
// Resolution walks the given document along the spec and returns the resolved document:
//  - every key the spec knows is present (defaults filled), except optional keys without a
//    default, which stay absent;
//  - quantities become plain numbers in their SI unit (seconds, bytes, bits/s, W, J, C, USD ...);
//  - distributions become {"kind": ..., <parameters in SI>};
//  - every problem found is appended to an error list as (JSON pointer, message), and the walk
//    carries on, so one run reports all of them.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/distribution.hpp"
#include "sim/units.hpp"

namespace dcsim::tools::scenario {

enum class FieldType {
  kObject,        // children are its keys
  kObjectArray,   // array of objects; children are each element's keys
  kIntegerArray,  // array of integers, each within [minimum, maximum]
  kInteger,
  kNumber,
  kBoolean,
  kString,
  kEnum,          // a string from enum_values (e.g. the names in a model registry)
  kQuantity,      // a string with a unit, of quantity_kind
  kDistribution,  // {"kind": "exponential", "mean": Q, ...} where Q is of quantity_kind
};

// Inclusive or exclusive bounds, in the field's SI unit for quantities.
struct Range {
  std::optional<double> minimum;
  std::optional<double> maximum;
  bool exclusive_minimum = false;
  bool exclusive_maximum = false;

  bool contains(double v) const;
  bool empty() const { return !minimum && !maximum; }
};

struct FieldSpec {
  std::string key;
  FieldType type = FieldType::kString;
  bool required = false;
  // As a scenario would write it ("0 s", 4, "fifo"). Absent: the key stays absent when not given
  // (unless a post-check fills it from elsewhere, see default_note).
  std::optional<nlohmann::json> default_value;
  // Documentation of a default that is not a constant ("from the preset", "run until every job
  // has finished"). Shown in the reference and the schema's description.
  std::string default_note;
  std::string description;
  Range range;                       // kInteger, kNumber, kIntegerArray items, kQuantity values
  std::optional<std::size_t> min_items;  // arrays
  sim::QuantityKind quantity_kind = sim::QuantityKind::kDuration;
  // kEnum: valid values, and what they name in messages ("scheduler" -> "unknown scheduler 'x'").
  std::vector<std::string> enum_values;
  std::string enum_noun;
  bool non_empty = false;            // kString
  // kInteger, kIntegerArray: the config field is 64 bits wide (seeds, flow counts). Otherwise it
  // is an int, and values above kMaxInt32 are refused here, where the key is known, instead of
  // being cut to 32 bits when mapped (4294967304 nodes ran as 8).
  bool wide_integer = false;
  // kString: prose for people (a description), where line breaks and tabs may be. Other strings
  // (names, pool names, file paths) refuse control characters: they become trace paths and cells.
  bool free_text = false;
  // kObject: left out, the section stays absent (instead of being filled with its defaults), so
  // a scenario can leave out a whole subsystem (no fabric, no cluster).
  bool absent_when_missing = false;
  std::vector<FieldSpec> children;   // kObject, kObjectArray

  const FieldSpec* child(const std::string& name) const;
};

// Builders, so the spec tree reads like the format it describes.
FieldSpec object_field(std::string key, std::string description, std::vector<FieldSpec> children,
                       bool required = false);
FieldSpec object_array_field(std::string key, std::string description,
                             std::vector<FieldSpec> children);
FieldSpec integer_field(std::string key, std::string description, Range range);
FieldSpec integer_array_field(std::string key, std::string description, Range item_range);
FieldSpec number_field(std::string key, std::string description, Range range);
FieldSpec boolean_field(std::string key, std::string description);
FieldSpec string_field(std::string key, std::string description);
FieldSpec enum_field(std::string key, std::string description, std::string noun,
                     std::vector<std::string> values);
FieldSpec quantity_field(std::string key, std::string description, sim::QuantityKind kind,
                         Range range = {});
FieldSpec distribution_field(std::string key, std::string description, sim::QuantityKind kind,
                             Range range = {});

// Modifiers returning the field, for chaining: required(integer_field(...)).
FieldSpec required(FieldSpec f);
FieldSpec with_default(FieldSpec f, nlohmann::json value);
FieldSpec with_default_note(FieldSpec f, std::string note);
FieldSpec non_empty(FieldSpec f);
// An integer key whose config field is 64 bits wide (see FieldSpec::wide_integer).
FieldSpec wide_integer(FieldSpec f);
// The most an integer key that is not wide may hold: 2^31 - 1, an int's largest value.
inline constexpr double kMaxInt32 = 2147483647.0;
// The maximum an integer key enforces: its range's, or kMaxInt32 unless wide.
std::optional<double> integer_maximum(const FieldSpec& spec);
FieldSpec free_text(FieldSpec f);
FieldSpec min_items(FieldSpec f, std::size_t n);
// An optional section that stays absent when left out; `note` says what its absence means.
FieldSpec optional_section(FieldSpec f, std::string note);

// A number as error messages and the schema write it: integers without a decimal point.
std::string format_number(double v);

// Ranges: at_least(1) is x >= 1, above(0) is x > 0, between(0, 1) is 0 <= x <= 1.
Range at_least(double v);
Range above(double v);
Range between(double lo, double hi);

struct FieldError {
  std::string pointer;  // JSON pointer, "" for the document root
  std::string message;  // "expected a positive integer, got -2"
};

class ErrorList {
 public:
  void add(std::string pointer, std::string message) {
    errors_.push_back({std::move(pointer), std::move(message)});
  }
  bool empty() const { return errors_.empty(); }
  const std::vector<FieldError>& errors() const { return errors_; }

 private:
  std::vector<FieldError> errors_;
};

// "a positive integer", "a duration such as \"10 s\" or \"1.5 h\"", ... from the spec.
std::string expectation(const FieldSpec& spec);
// A JSON value as an error message shows it: compact, long values elided.
std::string render_value(const nlohmann::json& value);
// "/workload/jobs/0" + "name"; escapes '~' and '/' per RFC 6901.
std::string pointer_append(const std::string& pointer, const std::string& token);
// "a, b, c" (or with another separator).
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");
// The value at a JSON pointer, or null when absent (including on a path through non-objects).
const nlohmann::json* find_at(const nlohmann::json& doc, const std::string& pointer);
// "<source>:<pointer>: <message>"; the document root (the empty pointer) reads "<source>: ...",
// as "file.json:: ..." would read like a typo.
std::string located(const std::string& source, const std::string& pointer, const std::string& message);

// Validates `given` against `spec` at `pointer` and returns the resolved value (null when the
// value is unusable; the error is then in `errors`).
nlohmann::json resolve_value(const FieldSpec& spec, const nlohmann::json& given,
                             const std::string& pointer, ErrorList& errors);

// The distribution kinds, with their parameter names (in schema and docs order).
struct DistributionKindSpec {
  std::string kind;
  std::vector<std::string> quantity_params;  // of the field's quantity kind
  std::vector<std::string> shape_params;     // dimensionless, > 0
};
const std::vector<DistributionKindSpec>& distribution_kinds();
// A resolved distribution ({"kind", parameters in SI units}) as the model's Distribution.
sim::Distribution distribution_from_resolved(const nlohmann::json& d);

// The JSON Schema (draft 2020-12) fragment for one field (without "$schema").
nlohmann::json field_schema(const FieldSpec& spec);
// A regular expression for the quantity strings of `kind`, as the parsers in sim/units accept
// them (the schema's "pattern").
std::string quantity_pattern(sim::QuantityKind kind);
// The units the pattern accepts, for the docs and for a test that each one parses.
const std::vector<std::string>& quantity_units(sim::QuantityKind kind);
// The SI unit the resolved document uses ("s", "B", "bit/s", "W" ...).
std::string_view quantity_si_unit(sim::QuantityKind kind);

// One Markdown table row per key, depth first, keys written as JSON pointers with "*" for array
// elements ("/workload/jobs/*/nodes").
std::string reference_table_markdown(const FieldSpec& root);

}  // namespace dcsim::tools::scenario
