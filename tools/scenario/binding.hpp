#pragma once
// One scenario key, declared once (issue 39, item 5), in the spirit of ns-3's attributes and
// SST's documented parameters. A Bindings<Config> lists the keys of one object of the scenario,
// each with its FieldSpec (type, unit, range, default, help) and the config member it feeds. From
// that one list come:
//  - spec(): the object's FieldSpec, from which validation, default filling, the JSON Schema and
//    the key reference (docs/scenario-keys.md) come as before;
//  - apply(): the mapping resolved JSON -> Config, a loop over the bindings (no hand copies);
//  - pointer_of(): the exact JSON pointer of a model's ConfigError about a config field. The
//    model names its member ("rdhx_effectiveness", "plant.supply_c", "zones[1].racks[0]",
//    "control_params.gain_per_k"); the binding that feeds it knows the key. No name guessing.
// Plain numbers, integers and booleans bound to a member take their default from the config's
// default member initialiser, so the default is written once, in the model's header. Quantities
// and enums spell theirs as a scenario would ("50 kW", "d2c"); default_mismatches() lists those
// that do not resolve to the header's value, and a test keeps that list empty.
//
// The model keeps only the checks no single key expresses ("slowdown below shutdown") and reports
// them by field; single-key ranges live in the FieldSpec alone.
//
// Cost: built once per scenario load; apply() is one pass over the keys. Nothing here runs
// while a simulation does.

#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "sim/params.hpp"
#include "sim/time.hpp"
#include "tools/scenario/field_spec.hpp"
#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

// A resolved value (numbers in SI) as a config member's type.
template <class T>
T from_resolved(const nlohmann::json& v) {
  if constexpr (std::is_same_v<T, sim::Time>) {
    return sim::Time::from_seconds(v.get<double>());
  } else if constexpr (std::is_same_v<T, sim::Params>) {
    return params_from_resolved(&v);
  } else if constexpr (std::is_same_v<T, sim::Distribution>) {
    return distribution_from_resolved(v);
  } else {
    return v.get<T>();
  }
}

// Members whose value fill_from() reads back as the key's: numbers, booleans and lists of them.
template <class T>
inline constexpr bool kReadBack = std::is_arithmetic_v<T>;
template <class T>
inline constexpr bool kReadBack<std::vector<T>> = std::is_arithmetic_v<T>;

template <class T>
struct optional_of {
  using type = T;
};
template <class T>
struct optional_of<std::optional<T>> {
  using type = T;
};

// "racks[0].name" after a field that matched -> "/racks/0/name" (JSON pointer tokens).
std::string field_rest_as_pointer(std::string_view rest);

// "<source>:<pointer>: <detail>, got <value>" for a ConfigError located at `pointer`; the value
// is looked up in `resolved` (the whole resolved scenario, may be null) and left out when the
// message already quotes it.
sim::InputError config_error_at(const std::string& source, const std::string& pointer, const sim::ConfigError& error,
                                const nlohmann::json* resolved);

// Where a model's `field` is, given `at`, the key's pointer, and `value`, the key's resolved
// value (null when not known): for a key whose fields the model names by something only the
// value tells (a repair price by its class name, a params key given or left to the preset).
using KeyLocator = std::function<std::optional<std::string>(std::string_view field, const std::string& at,
                                                            const nlohmann::json* value)>;

// `field` is one of `names` or a part of one ("capex.node_price.usd_per_node").
bool names_field(std::string_view field, const std::vector<std::string>& names);
// Every field of `names` (and their parts) at the key itself: a preset key whose prices the
// model names "capex.node_price...", or one key feeding two members.
KeyLocator at_key_for(std::vector<std::string> names);
// A params object given over a preset: "<name>.<param>" at the param where the object gives it,
// else at the object; nothing where the object was not given (the preset's own figures).
KeyLocator at_given_params_for(std::string name);
// The same, only where the key was given (a choice between two keys: `electricity` or
// `electricity_tariff`).
KeyLocator at_given_key_for(std::vector<std::string> names);

template <class Config>
class Bindings {
 public:
  using Setter = std::function<void(Config&, const nlohmann::json&)>;
  using Locate = KeyLocator;

  // `object` is the object's own FieldSpec (object_field or object_array_field, with its
  // modifiers); the bound keys become its children, in the order they are bound.
  explicit Bindings(FieldSpec object) : object_(std::move(object)) {}

  // A key feeding member `m`, which the model's errors call `field`.
  template <class T>
  Bindings& bind(FieldSpec spec, T Config::*m, std::string field) {
    using Value = typename optional_of<T>::type;
    if constexpr (std::is_arithmetic_v<T>) {
      if (!spec.default_value && spec.default_note.empty() && !spec.required) {
        spec = with_default(std::move(spec), Config{}.*m);
      }
    }
    Entry e{std::move(spec), std::move(field)};
    e.set = [m](Config& c, const nlohmann::json& v) { c.*m = from_resolved<Value>(v); };
    if constexpr (std::equality_comparable<T>) {
      e.same = [m](const Config& a, const Config& b) { return a.*m == b.*m; };
    }
    if constexpr (kReadBack<T>) e.get = [m](const Config& c) { return nlohmann::json(c.*m); };
    entries_.push_back(std::move(e));
    return *this;
  }
  // A number key feeding member `m` times `scale` (bit/s keys into bytes/s members: 1 / 8).
  Bindings& bind(FieldSpec spec, double Config::*m, std::string field, double scale) {
    Entry e{std::move(spec), std::move(field)};
    e.set = [m, scale](Config& c, const nlohmann::json& v) { c.*m = v.get<double>() * scale; };
    e.same = [m](const Config& a, const Config& b) { return a.*m == b.*m; };
    e.get = [m, scale](const Config& c) { return nlohmann::json(c.*m / scale); };
    entries_.push_back(std::move(e));
    return *this;
  }
  // The same for a number member of a member (`gpu.peak_bf16_flops` from TFLOP/s: 1e12).
  template <class S>
  Bindings& bind(FieldSpec spec, S Config::*outer, double S::*inner, std::string field, double scale) {
    Entry e{std::move(spec), std::move(field)};
    e.set = [outer, inner, scale](Config& c, const nlohmann::json& v) { (c.*outer).*inner = v.get<double>() * scale; };
    e.same = [outer, inner](const Config& a, const Config& b) { return (a.*outer).*inner == (b.*outer).*inner; };
    e.get = [outer, inner, scale](const Config& c) { return nlohmann::json((c.*outer).*inner / scale); };
    entries_.push_back(std::move(e));
    return *this;
  }
  // A key feeding a member of a member (`plant.supply_c`).
  template <class S, class T>
  Bindings& bind(FieldSpec spec, S Config::*outer, T S::*inner, std::string field) {
    if constexpr (std::is_arithmetic_v<T>) {
      if (!spec.default_value && spec.default_note.empty() && !spec.required) {
        spec = with_default(std::move(spec), (Config{}.*outer).*inner);
      }
    }
    Entry e{std::move(spec), std::move(field)};
    e.set = [outer, inner](Config& c, const nlohmann::json& v) { (c.*outer).*inner = from_resolved<T>(v); };
    if constexpr (std::equality_comparable<T>) {
      e.same = [outer, inner](const Config& a, const Config& b) { return (a.*outer).*inner == (b.*outer).*inner; };
    }
    if constexpr (kReadBack<T>) e.get = [outer, inner](const Config& c) { return nlohmann::json((c.*outer).*inner); };
    entries_.push_back(std::move(e));
    return *this;
  }
  // A key whose value needs converting (an enum string) or feeds a derived field: `set` does it.
  Bindings& bind(FieldSpec spec, std::string field, Setter set) {
    Entry e{std::move(spec), std::move(field)};
    e.set = std::move(set);
    entries_.push_back(std::move(e));
    return *this;
  }
  // A key whose value `set` converts, and whose fields `locate` finds (several members, or one
  // whose parts have no key of their own).
  Bindings& bind(FieldSpec spec, Locate locate, Setter set) {
    Entry e{std::move(spec), ""};
    e.set = std::move(set);
    e.locate = std::move(locate);
    entries_.push_back(std::move(e));
    return *this;
  }
  // An enum key: each scenario string and the member value it stands for.
  template <class T>
  Bindings& bind_enum(FieldSpec spec, T Config::*m, std::string field,
                      std::vector<std::pair<std::string, T>> values) {
    Entry e{std::move(spec), std::move(field)};
    e.set = [m, values](Config& c, const nlohmann::json& v) {
      for (const auto& [name, value] : values) {
        if (v == name) c.*m = value;
      }
    };
    e.same = [m](const Config& a, const Config& b) { return a.*m == b.*m; };
    entries_.push_back(std::move(e));
    return *this;
  }
  // A key the mapping reads itself (a CSV file name, a list derived from two keys): in the spec,
  // and, given a `field`, where the model's errors about that field are located.
  Bindings& key(FieldSpec spec, std::string field = "") {
    entries_.push_back(Entry{std::move(spec), std::move(field)});
    return *this;
  }
  // A key the mapping reads itself, whose fields `locate` finds.
  Bindings& key(FieldSpec spec, Locate locate) {
    Entry e{std::move(spec), ""};
    e.locate = std::move(locate);
    entries_.push_back(std::move(e));
    return *this;
  }
  // A model field that names the object itself ("cluster" for /economics: what it needs of the
  // rest of the scenario), and its parts no key locates.
  Bindings& names_object(std::string field) {
    object_fields_.push_back(std::move(field));
    return *this;
  }
  // A field two keys feed: at `key` where the object gives it, else where it is bound (NVMe-oF
  // "targets": the first host's id, when given, else the count).
  Bindings& given_first(std::string field, std::string key) {
    given_first_.emplace_back(std::move(field), std::move(key));
    return *this;
  }
  // A nested object whose keys feed the same config (`/facility/cooling`).
  Bindings& object(Bindings child) {
    return object(std::move(child), [](Config& c) -> Config& { return c; });
  }
  // A nested object whose keys feed a part of the config (`/storage/drive` -> store.drive); the
  // model may name the part itself (`field`, "drive"), or a value of it no key feeds
  // ("engine.memory"): either is located at the object, unless a key of the parent names it.
  template <class S>
  Bindings& object(Bindings<S> child, std::type_identity_t<std::function<S&(Config&)>> part, std::string field = "") {
    Entry e{child.spec(), ""};
    e.set = [child, part](Config& c, const nlohmann::json& v) { child.apply(v, part(c)); };
    e.locate = [child](std::string_view f, const std::string& pointer, const nlohmann::json* value) {
      return child.pointer_of(f, pointer, value);
    };
    e.fallback = std::move(field);
    e.mismatches = [child](std::vector<std::string>& out) { child.default_mismatches(out); };
    entries_.push_back(std::move(e));
    return *this;
  }
  // An array of objects, each mapped to an element of `m` (`/facility/zones` -> zones); the model
  // names an element's field "zones[1].racks[0]".
  template <class E>
  Bindings& array(std::vector<E> Config::*m, std::string field, Bindings<E> element) {
    return array(std::function<std::vector<E>&(Config&)>([m](Config& c) -> std::vector<E>& { return c.*m; }),
                 std::move(field), std::move(element));
  }
  template <class E>
  Bindings& array(std::type_identity_t<std::function<std::vector<E>&(Config&)>> part, std::string field,
                  Bindings<E> element) {
    Entry e{element.spec(), field};
    e.set = [part, element](Config& c, const nlohmann::json& v) {
      std::vector<E>& items = part(c);
      items.clear();
      for (const auto& item : v) {
        E out{};
        element.apply(item, out);
        items.push_back(std::move(out));
      }
    };
    e.locate = [field, element](std::string_view f, const std::string& pointer,
                                const nlohmann::json* value) -> std::optional<std::string> {
      if (f == field) return pointer;
      if (f.substr(0, field.size() + 1) != field + "[") return std::nullopt;
      const auto close = f.find(']');
      if (close == std::string_view::npos) return std::nullopt;
      const std::string index(f.substr(field.size() + 1, close - field.size() - 1));
      const bool number = !index.empty() && index.find_first_not_of("0123456789") == std::string::npos;
      // An element the scenario does not have: the list.
      if (value != nullptr && value->is_array() && number && std::stoul(index) >= value->size()) return pointer;
      const std::string at = pointer_append(pointer, index);
      const std::string_view rest = f.substr(close + 1);
      if (rest.size() > 1 && rest[0] == '.') {
        const nlohmann::json* item = nullptr;
        if (value != nullptr && value->is_array() && number) {
          item = &(*value)[std::stoul(index)];
        }
        if (auto inner = element.pointer_of(rest.substr(1), at, item)) return inner;
      }
      return at;  // the element, or a value of it no key feeds
    };
    e.mismatches = [element](std::vector<std::string>& out) { element.default_mismatches(out); };
    entries_.push_back(std::move(e));
    return *this;
  }

  // The object's FieldSpec with every bound key as a child.
  FieldSpec spec() const {
    FieldSpec out = object_;
    for (const auto& e : entries_) out.children.push_back(e.spec);
    return out;
  }

  // Resolved object -> config: every key present sets its member; absent optional keys leave it.
  void apply(const nlohmann::json& resolved, Config& config) const {
    for (const auto& e : entries_) {
      if (e.set && resolved.contains(e.spec.key)) e.set(config, resolved.at(e.spec.key));
    }
  }

  // The pointer of the key that feeds `field` (the model's name for it, or a part of it:
  // "control_params.gain" -> .../control_params/gain), below `pointer`, the object's own.
  // `resolved`, the object's resolved value, lets a key's Locate look at what was given.
  std::optional<std::string> pointer_of(std::string_view field, const std::string& pointer,
                                        const nlohmann::json* resolved = nullptr) const {
    for (const auto& [f, key] : given_first_) {
      if (names_field(field, {f}) && resolved != nullptr && resolved->is_object() && resolved->contains(key)) {
        return pointer_append(pointer, key);
      }
    }
    for (const auto& e : entries_) {
      const std::string at = pointer_append(pointer, e.spec.key);
      if (e.locate) {
        const nlohmann::json* value = resolved != nullptr && resolved->is_object() && resolved->contains(e.spec.key)
                                          ? &resolved->at(e.spec.key)
                                          : nullptr;
        if (auto found = e.locate(field, at, value)) return found;
        continue;
      }
      if (e.field.empty() || field.substr(0, e.field.size()) != e.field) continue;
      const std::string_view rest = field.substr(e.field.size());
      if (rest.empty() || rest[0] == '.' || rest[0] == '[') return at + field_rest_as_pointer(rest);
    }
    // A nested object's own name last: a key bound to "model.seq_len" beside the object "model"
    // (the shape) is that key's.
    for (const auto& e : entries_) {
      if (!e.fallback.empty() && names_field(field, {e.fallback})) return pointer_append(pointer, e.spec.key);
    }
    if (names_field(field, object_fields_)) return pointer;
    return std::nullopt;
  }

  // The keys `object` does not give, read back from `config` in their resolved units: what a
  // preset or a builder's defaults chose, so that the resolved document states what runs. Only
  // keys bound to a member of numbers or booleans (kReadBack) are read back.
  void fill_from(const Config& config, nlohmann::json& object) const {
    for (const auto& e : entries_) {
      if (e.get && !object.contains(e.spec.key)) object[e.spec.key] = e.get(config);
    }
  }

  // Keys whose default, resolved and applied to a default config, changes it: a default spelled
  // in the spec that disagrees with the header's.
  void default_mismatches(std::vector<std::string>& out) const {
    const Config defaults{};
    for (const auto& e : entries_) {
      if (e.mismatches) e.mismatches(out);
      if (!e.set || !e.same || !e.spec.default_value) continue;
      ErrorList errors;
      const nlohmann::json value = resolve_value(e.spec, *e.spec.default_value, "", errors);
      Config c{};
      e.set(c, value);
      if (!errors.empty() || !e.same(c, defaults)) out.push_back(e.field);
    }
  }

 private:
  struct Entry {
    FieldSpec spec;
    std::string field;  // the model's name of the member; "" for a nested object or a spec-only key
    Setter set = {};
    std::function<bool(const Config&, const Config&)> same = {};
    std::function<nlohmann::json(const Config&)> get = {};  // the member back as the key's resolved value
    Locate locate = {};
    std::function<void(std::vector<std::string>&)> mismatches = {};
    std::string fallback = {};  // a nested object: the model's name of its part, located at the object
  };

  FieldSpec object_;
  std::vector<Entry> entries_;
  std::vector<std::string> object_fields_;
  std::vector<std::pair<std::string, std::string>> given_first_;
};

}  // namespace dcsim::tools::scenario
