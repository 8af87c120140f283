#pragma once
// The economics model (models/economics/economics_model.hpp) as a subsystem of the assembly: the
// adapter that reads the site off the datacenter's config and parts (nodes, cooling, networks'
// bills of materials, the uplink's ports, fault classes, the cloud pool) into the model's plain
// EconomicsSite, so the model knows nothing of the assembly.

#include <memory>
#include <optional>

#include "models/cluster/cluster_config.hpp"
#include "models/datacenter/subsystem.hpp"
#include "models/economics/economics_model.hpp"
#include "models/facility/facility_config.hpp"

namespace dcsim::models::datacenter {

// The nodes and cooling gear capex prices, from the cluster and the facility (D2C cold plates and
// CDUs for the captured share, rear doors when the facility has them; air only without one).
// `dcsim topo --bom` prices with the same.
economics::SiteShape site_shape(const cluster::ClusterConfig& cluster, const std::optional<facility::FacilityConfig>& facility);

class EconomicsSubsystem final : public Subsystem {
 public:
  // The model's sim::ConfigErrors (economics_model.hpp); "cluster" without a cluster.
  explicit EconomicsSubsystem(const SubsystemContext& context);
  void finish() override { model_->finish(); }
  const economics::EconomicsModel& model() const { return *model_; }

 private:
  std::unique_ptr<economics::EconomicsModel> model_;
};

}  // namespace dcsim::models::datacenter
