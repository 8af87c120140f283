#pragma once
// The scenario format's `fabric`, `frontend` and `traffic` sections (RoCE fabrics). All are
// optional and stay absent when left out; traffic needs a fabric to run on.

#include "models/model_registries.hpp"
#include "models/network/traffic.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/fabric_config.hpp"

namespace dcsim::tools::scenario {

// The keys of /fabric (or, `frontend`, /frontend), each bound to the member it feeds; the model
// names its fields after the keys ("k", "dims[1]") or the members ("routing.seed",
// "roce.mtu_bytes"). Topology parameter keys take the names, defaults and help of the topology registry's
// ParamSpecs, so `dcsim list topology` documents the same keys the scenario accepts.
Bindings<FabricScenario> fabric_bindings(const models::ModelRegistries& registries, bool frontend);
FieldSpec fabric_section(const models::ModelRegistries& registries);
// The nodes' front-end network (storage NICs): the same keys as /fabric.
FieldSpec frontend_section(const models::ModelRegistries& registries);
// /traffic, bound to the generator's TrafficConfig ("size.bytes", "incast_target").
Bindings<models::network::TrafficConfig> traffic_bindings();
FieldSpec traffic_section();

}  // namespace dcsim::tools::scenario
