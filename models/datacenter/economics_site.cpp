#include "models/datacenter/economics_site.hpp"

#include "models/network/bill_of_materials.hpp"
#include "sim/error.hpp"

namespace dcsim::models::datacenter {

economics::SiteShape site_shape(const cluster::ClusterConfig& cluster,
                                const std::optional<facility::FacilityConfig>& facility) {
  economics::SiteShape shape;
  shape.nodes = cluster.nodes;
  shape.node_max_power_w = cluster.node.nameplate_power_w();
  if (facility) {
    shape.liquid_fraction = facility->mode == facility::FacilityConfig::Mode::kD2c ? facility->d2c_capture : 0.0;
    shape.rear_doors = facility->rdhx;
  }
  return shape;
}

economics::EconomicsSite economics_site(const SubsystemContext& c) {
  if (!c.config.cluster) {
    throw sim::ConfigError("cluster", "needs a cluster: economics prices the nodes the run simulates");
  }
  const cluster::ClusterConfig& cluster = *c.config.cluster;
  economics::EconomicsSite site;
  site.shape = site_shape(cluster, c.config.facility);
  site.gpus_per_node = cluster.node.gpus;
  if (c.parts.topology != nullptr) site.fabric = network::bill_of_materials(*c.parts.topology);
  if (c.parts.frontend_topology != nullptr) site.frontend = network::bill_of_materials(*c.parts.frontend_topology);
  if (c.config.uplink) site.ports = c.config.uplink->ports;
  if (c.config.reliability) {
    const auto& r = *c.config.reliability;
    for (const auto& fc : r.classes) site.fault_classes.push_back({fc.name, fc.rate_per_hour > 0 && r.scale > 0});
  }
  site.facility = c.config.facility.has_value();
  site.duration = c.config.duration;
  site.has_work = !cluster.jobs.empty() || !cluster.generators.empty() || !cluster.trace_jobs.empty() ||
                  !cluster.training_jobs.empty() || !c.config.inference.empty();
  if (cluster.cloud_pool) {
    const economics::CloudGpuOffer& offer = cluster.cloud_pool->offer;
    const auto& tariff = c.registries.egress_tariffs.get(offer.egress_tariff);
    site.cloud = economics::EconomicsSite::Cloud{offer, tariff.factory(sim::Params{})};
  }
  return site;
}

}  // namespace dcsim::models::datacenter
