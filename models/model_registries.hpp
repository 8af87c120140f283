#pragma once
// Every registry of models and policies, owned by whoever runs scenarios (no global state).
// register_builtin_models() fills them: adding a model touches its own files plus one line there.

#include <functional>

#include "models/collective/collective_algorithm.hpp"
#include "models/economics/cloud_offer.hpp"
#include "models/economics/egress_tariff.hpp"
#include "models/economics/fabric_prices.hpp"
#include "models/economics/node_price.hpp"
#include "models/economics/site_prices.hpp"
#include "models/facility/cooling_control.hpp"
#include "models/facility/power_capping.hpp"
#include "models/hardware/gpu_presets.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/inference/autoscaler.hpp"
#include "models/inference/request_router.hpp"
#include "models/network/switch_presets.hpp"
#include "models/network/topology_builders.hpp"
#include "models/policy/failover_policy.hpp"
#include "models/policy/scheduler.hpp"
#include "models/workload/software_stack.hpp"
#include "models/workload/training_model.hpp"
#include "sim/registry.hpp"

namespace dcsim::models {

using NodePresetFactory = std::function<hardware::NodeSpec()>;

struct ModelRegistries {
  sim::Registry<NodePresetFactory> node_presets{"node preset"};
  sim::Registry<hardware::GpuPresetFactory> gpu_presets{"gpu preset"};
  sim::Registry<policy::SchedulerFactory> schedulers{"scheduler"};
  sim::Registry<policy::FailoverFactory> failover_policies{"failover policy"};
  sim::Registry<network::TopologyFactory> topologies{"topology"};
  // Real switch parts a fabric's tiers are built from (switch_presets.hpp).
  sim::Registry<network::SwitchPresetFactory> switch_presets{"switch preset"};
  sim::Registry<collective::CollectiveAlgorithmFactory> collective_algorithms{"collective algorithm"};
  sim::Registry<workload::TrainingModelFactory> training_models{"training model"};
  sim::Registry<facility::CoolingControlFactory> cooling_controls{"cooling control"};
  // Inference services (models/inference): which replica gets a request, how many replicas.
  inference::RouterRegistry inference_routers{"inference router"};
  inference::AutoscalerRegistry autoscalers{"autoscaler"};
  sim::Registry<facility::PowerCappingFactory> power_capping{"power capping"};
  // Price presets (models/economics): each entry's description names its source and date.
  sim::Registry<economics::PricePresetFactory<economics::CloudGpuOffer>> cloud_offers{"cloud offer"};
  sim::Registry<economics::PricePresetFactory<economics::EgressTariff>> egress_tariffs{"egress tariff"};
  sim::Registry<economics::PricePresetFactory<economics::NodePrice>> node_prices{"node price"};
  sim::Registry<economics::PricePresetFactory<economics::FabricPrices>> fabric_prices{"fabric prices"};
  sim::Registry<economics::PricePresetFactory<economics::SitePrices>> site_prices{"site prices"};
  // Software stacks (models/workload/software_stack.hpp): kernel and NCCL efficiencies of one
  // framework release, each with its source and date.
  sim::Registry<workload::SoftwareStackFactory> software_stacks{"software stack"};
};

void register_builtin_models(ModelRegistries& registries);

// Calls f(registry) for every registry, in a fixed order (`dcsim list`, the schema).
template <class F>
void for_each_registry(const ModelRegistries& registries, F&& f) {
  f(registries.node_presets);
  f(registries.gpu_presets);
  f(registries.schedulers);
  f(registries.failover_policies);
  f(registries.topologies);
  f(registries.switch_presets);
  f(registries.collective_algorithms);
  f(registries.training_models);
  f(registries.cooling_controls);
  f(registries.inference_routers);
  f(registries.autoscalers);
  f(registries.power_capping);
  f(registries.cloud_offers);
  f(registries.egress_tariffs);
  f(registries.node_prices);
  f(registries.fabric_prices);
  f(registries.site_prices);
  f(registries.software_stacks);
}

}  // namespace dcsim::models
