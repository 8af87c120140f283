#pragma once
// Registration of the built-in failover policies (failover_policies.cpp).

#include "models/policy/failover_policy.hpp"
#include "sim/registry.hpp"

namespace dcsim::models::policy {

void register_failover_policies(sim::Registry<FailoverFactory>& registry);

}  // namespace dcsim::models::policy
