#include "models/reliability/inventory.hpp"

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

constexpr std::array<std::string_view, kComponentKindCount> kNames{"gpu",    "node", "nic",     "link",
                                                                   "switch", "zone", "osd_host", "osd"};

}  // namespace

std::string_view component_name(ComponentKind k) { return kNames[static_cast<std::size_t>(k)]; }

std::optional<ComponentKind> parse_component(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<ComponentKind>(i);
  }
  return std::nullopt;
}

std::vector<std::string> component_names() { return {kNames.begin(), kNames.end()}; }

std::int64_t Inventory::count(ComponentKind k) const {
  switch (k) {
    case ComponentKind::kGpu: return nodes * gpus_per_node;
    case ComponentKind::kNode: return nodes;
    case ComponentKind::kNic: return nodes * nics_per_node;
    case ComponentKind::kLink: return links;
    case ComponentKind::kSwitch: return switches;
    case ComponentKind::kZone: return zones;
    case ComponentKind::kOsdHost: return osd_hosts;
    case ComponentKind::kOsd: return osd_hosts * osds_per_host;
  }
  return 0;
}

std::string Inventory::path(ComponentKind k, std::int64_t index) const {
  if (index < 0 || index >= count(k)) {
    throw sim::InternalError("reliability: " + std::string(component_name(k)) + " " + std::to_string(index) +
                             " is not in the inventory of " + std::to_string(count(k)) + " (this is a bug)");
  }
  switch (k) {
    case ComponentKind::kGpu:
      return "node/" + std::to_string(index / gpus_per_node) + "/gpu/" + std::to_string(index % gpus_per_node);
    case ComponentKind::kNode: return "node/" + std::to_string(index);
    case ComponentKind::kNic:
      return "node/" + std::to_string(index / nics_per_node) + "/nic/" + std::to_string(index % nics_per_node);
    case ComponentKind::kLink: return "fabric/link/" + std::to_string(index);
    case ComponentKind::kSwitch: return "fabric/switch/" + std::to_string(index);
    case ComponentKind::kZone: return "facility/zone/" + std::to_string(index);
    case ComponentKind::kOsdHost: return "storage/osd_host/" + std::to_string(index);
    case ComponentKind::kOsd:
      return "storage/osd_host/" + std::to_string(index / osds_per_host) + "/osd/" +
             std::to_string(index % osds_per_host);
  }
  return {};
}

std::int64_t Inventory::node_of(ComponentKind k, std::int64_t index) const {
  switch (k) {
    case ComponentKind::kGpu: return index / gpus_per_node;
    case ComponentKind::kNode: return index;
    case ComponentKind::kNic: return index / nics_per_node;
    default: return -1;
  }
}

}  // namespace dcsim::models::reliability
