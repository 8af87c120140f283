#include "models/collective/collective_algorithm.hpp"
#include "models/economics/cloud_offer.hpp"
#include "models/economics/egress_tariff.hpp"
#include "models/economics/fabric_prices.hpp"
#include "models/economics/node_price.hpp"
#include "models/economics/site_prices.hpp"
#include "models/facility/cooling_control.hpp"
#include "models/hardware/gpu_presets.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/inference/autoscaler.hpp"
#include "models/inference/request_router.hpp"
#include "models/model_registries.hpp"
#include "models/network/topology_builders.hpp"
#include "models/policy/failover_policies.hpp"
#include "models/policy/schedulers.hpp"
#include "models/workload/training_model.hpp"

namespace dcsim::models {

void register_builtin_models(ModelRegistries& registries) {
  hardware::register_node_presets(registries.node_presets);
  hardware::register_gpu_presets(registries.gpu_presets);
  policy::register_fifo_scheduler(registries.schedulers);
  policy::register_first_fit_scheduler(registries.schedulers);
  policy::register_easy_backfill_scheduler(registries.schedulers);
  policy::register_topology_aware_scheduler(registries.schedulers);
  policy::register_thermal_aware_scheduler(registries.schedulers);
  policy::register_priority_preemptive_scheduler(registries.schedulers);
  policy::register_cloud_burst_scheduler(registries.schedulers);
  policy::register_failover_policies(registries.failover_policies);
  network::register_network_models(registries.topologies);
  network::register_switch_presets(registries.switch_presets);
  collective::register_collective_algorithms(registries.collective_algorithms);
  workload::register_training_models(registries.training_models);
  facility::register_cooling_controls(registries.cooling_controls);
  facility::register_power_capping(registries.power_capping);
  inference::register_routers(registries.inference_routers);
  inference::register_autoscalers(registries.autoscalers);
  economics::register_cloud_offers(registries.cloud_offers);
  economics::register_egress_tariffs(registries.egress_tariffs);
  economics::register_node_prices(registries.node_prices);
  economics::register_fabric_prices(registries.fabric_prices);
  economics::register_site_prices(registries.site_prices);
  workload::register_software_stacks(registries.software_stacks);
}

}  // namespace dcsim::models
