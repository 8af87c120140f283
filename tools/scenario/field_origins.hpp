#pragma once
// Where each model config field came from in the scenario. The mapping code records an origin as
// it reads a key into a config field, so a sim::ConfigError that a model raises later about that
// field ("jobs[2].work_s", "capex.spares_fraction") is reported at the scenario key that fed it
// (/workload/jobs/2/work, /economics/spares_fraction). The names live next to the assignments
// they describe, so there is no separate table of field names to keep in step with the mapping.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dcsim::tools::scenario {

class FieldOrigins {
 public:
  // `field` is the model's name for it ("node.gpu.max_power_w", "jobs[2].work_s"); `pointer` is
  // the scenario key's JSON pointer. A later record for the same field wins.
  void record(std::string field, std::string pointer);
  // The pointer recorded for `field`, else for its longest recorded prefix that ends where a
  // segment ends ("node" for "node.compute_nics", "jobs[2]" for "jobs[2].foo"); "" when none.
  std::string pointer_of(std::string_view field) const;
  std::size_t size() const { return pointers_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> pointers_;
};

// Reads the keys of one object of the resolved scenario into config fields, recording each key's
// pointer as the origin of the field it feeds:
//   const OriginReader j(resolved_job, "/workload/jobs/2", "jobs[2].", origins);
//   job.work = duration_of(j.at("work", "work"));         // jobs[2].work   <- /workload/jobs/2/work
//   gen.work_s = to_distribution(g.at("work", "work_s"));  // model name and key differ
class OriginReader {
 public:
  // `field_prefix` is prepended to every field name ("jobs[2]." or ""); the object itself is
  // recorded as the origin of the prefix without its trailing '.', when there is one.
  OriginReader(const nlohmann::json& object, std::string pointer, std::string field_prefix, FieldOrigins& origins);

  // The value at `key` (which must exist: the resolved document has it), recorded as the origin
  // of `field`.
  const nlohmann::json& at(std::string_view key, std::string_view field) const;
  bool contains(std::string_view key) const { return object_.contains(key); }
  // A nested object read with its own prefix (`field_prefix` of the child, "roce." say).
  OriginReader object(std::string_view key, std::string_view field_prefix) const;
  // Records `field` as coming from `key` without reading it (a value derived from several keys,
  // or checked by the model in a form the scenario does not spell out).
  void record(std::string_view field, std::string_view key) const;
  // Records every key of this object as the origin of prefix + key (params objects, whose names
  // are the model's own).
  void record_each_key() const;

  const nlohmann::json& json() const { return object_; }
  const std::string& pointer() const { return pointer_; }

 private:
  const nlohmann::json& object_;
  std::string pointer_;
  std::string field_prefix_;
  FieldOrigins& origins_;
};

}  // namespace dcsim::tools::scenario
