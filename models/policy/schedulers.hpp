#pragma once
// Registration of the built-in schedulers, one file each (models/policy/<name>_scheduler.cpp).

#include "models/policy/scheduler.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::policy {

void register_fifo_scheduler(sim::Registry<SchedulerFactory>& registry);
void register_first_fit_scheduler(sim::Registry<SchedulerFactory>& registry);
void register_easy_backfill_scheduler(sim::Registry<SchedulerFactory>& registry);
void register_topology_aware_scheduler(sim::Registry<SchedulerFactory>& registry);
void register_thermal_aware_scheduler(sim::Registry<SchedulerFactory>& registry);
void register_priority_preemptive_scheduler(sim::Registry<SchedulerFactory>& registry);
void register_cloud_burst_scheduler(sim::Registry<SchedulerFactory>& registry);

}  // namespace dcsim::models::policy
