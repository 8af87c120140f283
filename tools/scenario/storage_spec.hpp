#pragma once
// The scenario's `storage` section (models/storage/storage_subsystem.hpp): a shared
// Ceph-like object store whose OSD hosts sit on the front-end network (or the backend), beyond
// the cluster's nodes. Its keys, bound to a StorageConfig, and what its mapping checks besides.

#include <nlohmann/json.hpp>

#include "models/storage/storage_config.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"
#include "tools/scenario/resource_guard.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// The keys of /storage and the StorageConfig members they feed (binding.hpp).
Bindings<models::storage::StorageConfig> storage_bindings();

FieldSpec storage_section();

// The drive's latency per read (or write) I/O, and its sequential bandwidth: keys of
// /storage/drive and /nvmeof/drive.
FieldSpec drive_latency_field(bool read);
FieldSpec drive_bandwidth_field(bool read);

// Maps the resolved /storage section, checking what the schema cannot (replication wider than
// the failure domains, erasure coding wider than the hosts, a pool smaller than one checkpoint
// of a job that writes to it, a job's pool the store lacks, a fault on a host it does not have):
// sim::InputErrors naming each pointer, the value and what would work. Also rejects jobs whose
// checkpoint target is the store when `storage` is null (the section is absent). A store whose
// hosts and drives would not fit `limits` is refused before they are listed.
std::optional<models::storage::StorageConfig> map_storage_section(const nlohmann::json* storage, const Scenario& s,
                                                                  const ResourceLimits& limits);

}  // namespace dcsim::tools::scenario
