#pragma once
// The scenario's `nvmeof` section (models/storage/nvmeof_subsystem.hpp): NVMe-oF target hosts
// on the front-end network (or the backend), beyond the cluster's nodes and the store's hosts,
// whose namespaces training jobs with checkpoint target `nvmeof` write to and read back. Its
// keys, bound to an NvmeofNamespacesConfig, and what its mapping checks besides.

#include <optional>

#include <nlohmann/json.hpp>

#include "models/datacenter/nvmeof_namespaces_config.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

struct Scenario;

// The keys of /nvmeof and the NvmeofNamespacesConfig members they feed (binding.hpp).
Bindings<models::datacenter::NvmeofNamespacesConfig> nvmeof_bindings();

FieldSpec nvmeof_section();

// Maps the resolved /nvmeof section (null: absent), checking what the schema cannot: TCP keys
// under the RDMA transport, and jobs whose checkpoint target is nvmeof without the section
// (sim::InputErrors naming each pointer).
std::optional<models::datacenter::NvmeofNamespacesConfig> map_nvmeof_section(const nlohmann::json* nvmeof,
                                                                             const Scenario& s);

}  // namespace dcsim::tools::scenario
