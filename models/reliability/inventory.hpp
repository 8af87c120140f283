#pragma once
// The components a fault model can fail, counted per kind, and their addresses.
//
// An instance is (kind, index). Paths are built on demand from the index, never stored: a
// 16,384-node cluster has 131,072 GPUs, and a fault model needs their count, not their names.
//   gpu    i -> node/<i / gpus_per_node>/gpu/<i % gpus_per_node>
//   node   i -> node/<i>                  (host-level parts: CPU, memory, PSU, chassis, SSD, OS)
//   nic    i -> node/<i / nics_per_node>/nic/<i % nics_per_node>
//   link   i -> fabric/link/<i>           (a cable with its optics, not a directed link)
//   switch i -> fabric/switch/<i>
//   zone   i -> facility/zone/<i>         (a cooling zone)
//   osd_host i -> storage/osd_host/<i>    (a host of the shared object store, its OSDs with it)
//   osd    i -> storage/osd_host/<i / osds_per_host>/osd/<i % osds_per_host>   (one drive)
// GPUs, nodes and NICs belong to a node; links, switches, zones, OSD hosts and OSDs to none (-1).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dcsim::models::reliability {

enum class ComponentKind { kGpu, kNode, kNic, kLink, kSwitch, kZone, kOsdHost, kOsd };
inline constexpr std::size_t kComponentKindCount = 8;

// "gpu", "node", "nic", "link", "switch", "zone", "osd_host", "osd"
std::string_view component_name(ComponentKind k);
std::optional<ComponentKind> parse_component(std::string_view name);
std::vector<std::string> component_names();

struct Inventory {
  std::int64_t nodes = 0;
  int gpus_per_node = 8;
  int nics_per_node = 8;  // compute (back-end) NICs
  std::int64_t links = 0;
  std::int64_t switches = 0;
  std::int64_t zones = 1;
  std::int64_t osd_hosts = 0;  // of the shared store (/storage)
  int osds_per_host = 1;       // its drives per host, one OSD each

  std::int64_t count(ComponentKind k) const;
  // InternalError when index >= count(k).
  std::string path(ComponentKind k, std::int64_t index) const;
  // The node the instance belongs to, -1 for links, switches and zones.
  std::int64_t node_of(ComponentKind k, std::int64_t index) const;
};

}  // namespace dcsim::models::reliability
