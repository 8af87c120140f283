#pragma once
// What a datacenter run prices (economics_model.hpp): the ledger's prices and choices as the
// scenario gave them. What the assembly itself knows (node count, GPUs per node, the fabric's bill
// of materials, the cooling gear the facility has) is filled in by the subsystem when it is built,
// so a scenario cannot state a fleet that differs from the one it simulates.

#include <optional>

#include "models/economics/capex.hpp"
#include "models/economics/cost_ledger.hpp"
#include "sim/time.hpp"

namespace dcsim::models::economics {

struct EconomicsConfig {
  // Prices, depreciation, financing, electricity, repairs and cloud options. The subsystem sets
  // capex.nodes, capex.fabric, capex.gear and opex.{site, contracted_kw, nodes, gpus_per_node,
  // ports} (the ports from DatacenterConfig::uplink).
  CostLedgerConfig ledger;
  SiteKind site = SiteKind::kColocation;
  // IT power contracted (colocation) or built (own building), the basis of the per-kW gear and
  // fees. None: the nodes' nameplate maximum (nodes x NodeSpec::nameplate_power_w()).
  std::optional<double> contracted_kw;
  // Part price of a fault of any reliability class that ledger.repairs does not price. None: every
  // class that can fire needs its own price (a fault with no price would quietly cost nothing).
  std::optional<double> repair_default_usd;
  // The period priced, from time 0. max(): the run's own span (its duration, or until its work
  // was done).
  sim::Time horizon = sim::Time::max();
  // Traffic the scenario declares as leaving the site, spread evenly over time, on top of what the
  // uplink carries (DatacenterConfig::uplink): billed by the cloud options' tariffs and, when
  // given, the owned metered tariff.
  double egress_bytes_per_month = 0.0;
  // Data kept in the cloud's object storage the whole horizon (cloud options' storage price).
  double stored_bytes = 0.0;
};

}  // namespace dcsim::models::economics
