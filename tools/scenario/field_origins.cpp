#include "tools/scenario/field_origins.hpp"

#include <utility>

#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

void FieldOrigins::record(std::string field, std::string pointer) {
  pointers_.insert_or_assign(std::move(field), std::move(pointer));
}

std::string FieldOrigins::pointer_of(std::string_view field) const {
  // The field itself, then shorter prefixes cut where a segment starts ('.' or '['): the most
  // specific key that fed the field.
  for (std::string_view f = field; !f.empty();) {
    if (const auto it = pointers_.find(f); it != pointers_.end()) return it->second;
    const auto cut = f.find_last_of(".[");
    if (cut == std::string_view::npos || cut == 0) break;
    f = f.substr(0, cut);
  }
  return "";
}

OriginReader::OriginReader(const nlohmann::json& object, std::string pointer, std::string field_prefix,
                           FieldOrigins& origins)
    : object_(object), pointer_(std::move(pointer)), field_prefix_(std::move(field_prefix)), origins_(origins) {
  if (field_prefix_.size() > 1 && field_prefix_.back() == '.') {
    origins_.record(field_prefix_.substr(0, field_prefix_.size() - 1), pointer_);
  }
}

const nlohmann::json& OriginReader::at(std::string_view key, std::string_view field) const {
  record(field, key);
  return object_.at(key);
}

OriginReader OriginReader::object(std::string_view key, std::string_view field_prefix) const {
  return OriginReader(object_.at(key), pointer_append(pointer_, std::string(key)),
                      field_prefix_ + std::string(field_prefix), origins_);
}

void OriginReader::record(std::string_view field, std::string_view key) const {
  origins_.record(field_prefix_ + std::string(field), pointer_append(pointer_, std::string(key)));
}

void OriginReader::record_each_key() const {
  if (!object_.is_object()) return;
  for (const auto& [key, value] : object_.items()) record(key, key);
}

}  // namespace dcsim::tools::scenario
