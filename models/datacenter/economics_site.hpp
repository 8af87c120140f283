#pragma once
// The economics model (models/economics/economics_model.hpp) as the assembly runs it: the adapter
// that reads the site off the datacenter's config and parts (nodes, cooling, networks' bills of
// materials, the uplink's ports, fault classes, the cloud pool) into the model's plain
// EconomicsSite, so the model knows nothing of the assembly. Its registration is one line of
// subsystems.cpp.

#include <optional>

#include "models/cluster/cluster_config.hpp"
#include "models/datacenter/subsystem.hpp"
#include "models/economics/economics_model.hpp"
#include "models/facility/facility_config.hpp"

namespace dcsim::models::datacenter {

// The nodes and cooling gear capex prices, from the cluster and the facility (D2C cold plates and
// CDUs for the captured share, rear doors when the facility has them; air only without one).
// `dcsim topo --bom` prices with the same.
economics::SiteShape site_shape(const cluster::ClusterConfig& cluster,
                                const std::optional<facility::FacilityConfig>& facility);

// The site as the model prices it: O(fault classes) plus the bills of materials (O(links)).
// sim::ConfigError("cluster") without a cluster.
economics::EconomicsSite economics_site(const SubsystemContext& context);

}  // namespace dcsim::models::datacenter
