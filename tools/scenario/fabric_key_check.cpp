#include "tools/scenario/fabric_key_check.hpp"

#include <algorithm>

#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

TopologyKeyUse topology_key_use(const sim::Registry<models::network::TopologyFactory>& topologies) {
  TopologyKeyUse use;
  for (const auto& entry : topologies.entries()) {
    for (const auto& p : entry.params) use[p.name].push_back(entry.name);
  }
  return use;
}

namespace {

bool set_by_override(const std::string& section, const std::string& key, const std::vector<std::string>& overrides) {
  const std::string prefix = section + "." + key + "=";
  return std::any_of(overrides.begin(), overrides.end(),
                     [&prefix](const std::string& o) { return o.rfind(prefix, 0) == 0; });
}

}  // namespace

namespace {

// Calls found(key, value, readers) for every topology key of `fabric` that `topology` does not
// read, given by a --set (from_overrides) or in the file (otherwise).
template <typename Found>
void for_unread_keys(const std::string& section, const nlohmann::json& fabric, const std::string& topology,
                     const TopologyKeyUse& use, const std::vector<std::string>& overrides, bool from_overrides,
                     Found found) {
  if (!fabric.is_object()) return;
  for (const auto& [key, value] : fabric.items()) {
    const auto it = use.find(key);
    if (it == use.end()) continue;  // not a topology key (routing, roce, ...)
    const auto& readers = it->second;
    if (std::find(readers.begin(), readers.end(), topology) != readers.end()) continue;
    if (set_by_override(section, key, overrides) != from_overrides) continue;
    found(key, value, readers);
  }
}

}  // namespace

std::vector<std::string> unused_topology_keys(const std::string& section, const nlohmann::json& fabric,
                                              const std::string& topology, const TopologyKeyUse& use,
                                              const std::vector<std::string>& overrides, const std::string& source) {
  std::vector<std::string> out;
  for_unread_keys(section, fabric, topology, use, overrides, true,
                  [&](const std::string& key, const nlohmann::json& value, const std::vector<std::string>& readers) {
                    out.push_back(source + ":/" + section + "/" + key + ": " + topology + " does not use " + key +
                                  " (got " + value.dump() + "); it is read by " + join(readers) +
                                  ": drop the --set or choose one of those topologies");
                  });
  return out;
}

std::vector<std::string> unread_file_topology_keys(const std::string& section, const nlohmann::json& given_fabric,
                                                   const std::string& topology, const TopologyKeyUse& use,
                                                   const std::vector<std::string>& overrides,
                                                   const std::string& source) {
  std::vector<std::string> out;
  for_unread_keys(section, given_fabric, topology, use, overrides, false,
                  [&](const std::string& key, const nlohmann::json& value, const std::vector<std::string>& readers) {
                    out.push_back(source + ":/" + section + "/" + key + ": " + topology + " does not use " + key +
                                  " (got " + value.dump() + "): it changes nothing in this run (read by " +
                                  join(readers) + ")");
                  });
  return out;
}

}  // namespace dcsim::tools::scenario
