#include "tools/scenario/fabric_key_check.hpp"

#include <algorithm>

namespace dcsim::tools::scenario {

TopologyKeyUse topology_key_use(const sim::Registry<models::network::TopologyFactory>& topologies) {
  TopologyKeyUse use;
  for (const auto& entry : topologies.entries()) {
    for (const auto& p : entry.params) use[p.name].push_back(entry.name);
  }
  return use;
}

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool set_by_override(const std::string& key, const std::vector<std::string>& overrides) {
  const std::string prefix = "fabric." + key + "=";
  return std::any_of(overrides.begin(), overrides.end(),
                     [&prefix](const std::string& o) { return o.rfind(prefix, 0) == 0; });
}

}  // namespace

std::vector<std::string> unused_topology_keys(const nlohmann::json& fabric, const std::string& topology,
                                      const TopologyKeyUse& use, const std::vector<std::string>& overrides,
                                      const std::string& source) {
  std::vector<std::string> out;
  if (!fabric.is_object()) return out;
  for (const auto& [key, value] : fabric.items()) {
    const auto it = use.find(key);
    if (it == use.end()) continue;  // not a topology key (routing, roce, ...)
    const auto& readers = it->second;
    if (std::find(readers.begin(), readers.end(), topology) != readers.end()) continue;
    if (!set_by_override(key, overrides)) continue;  // a file may state several topologies' keys
    out.push_back(source + ":/fabric/" + key + ": " + topology + " does not use " + key + " (got " + value.dump() +
                  "); it is read by " + joined(readers) + ": drop the --set or choose one of those topologies");
  }
  return out;
}

}  // namespace dcsim::tools::scenario
