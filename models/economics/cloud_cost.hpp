#pragma once
// The cloud alternative: what delivering the same GPU-hours, egress and storage costs in one
// cloud offer, billing month by billing month.
//
//   GPU-hours billed:
//     on demand: delivered
//     spot:      delivered / u, u = 1 - (job_gpus / gpus_per_instance) x preemptions_per_instance_hour
//                x lost_work_per_preemption_s / 3600. A job spanning n instances is stopped by a
//                preemption of any of them (n times the rate) and every GPU of it redoes the work
//                since its last checkpoint: u is the share of billed time that is useful.
//     reserved:  max(delivered, committed_gpus x hours of the month): a commitment is paid for
//                whether used or not; use beyond it is billed at the same price (a commitment
//                sized to the peak is the strict reading).
//   gpu_usd     = billed x usd_per_gpu_hour
//   egress_usd  = egress_cost_usd(tariff, bytes that left in the month)   (egress_tariff.hpp)
//   storage_usd = GB-months stored x storage_usd_per_gb_month
//   ingress is free at the three providers: it has no term.

#include <string>

#include "models/economics/cloud_offer.hpp"
#include "models/economics/egress_tariff.hpp"

namespace dcsim::models::economics {

struct CloudOption {
  CloudGpuOffer offer;
  EgressTariff egress;  // the tariff the offer names (offer.egress_tariff), resolved by the caller
  double committed_gpus = 0.0;  // reserved offers: GPUs committed for the whole horizon (> 0)
  double job_gpus = 0.0;        // spot offers: GPUs one job spans (> 0)
  // Spot offers: work redone after a preemption. ASSUMPTION: half of an hourly checkpoint
  // interval, the mean loss when preemptions fall uniformly between checkpoints; set it from the
  // workload's checkpoint interval (plus its restart time).
  double lost_work_per_preemption_s = 1800.0;
};

// sim::ConfigError naming the field (prefix + "committed_gpus" or "job_gpus" missing for the
// purchase, "offer.usd_per_gpu_hour", "egress.tiers[1].up_to_bytes", ...); also when preemptions
// would leave no useful work (u <= 0). A single key's range is the scenario spec's.
void validate(const CloudOption& option, const std::string& prefix);

// The useful share u of billed GPU time (1 for offers that are not preempted).
double useful_fraction(const CloudOption& option);

struct CloudMonthUsage {
  double delivered_gpu_hours = 0.0;
  double egress_bytes = 0.0;
  double stored_gb_months = 0.0;
  double month_hours = 0.0;  // hours of the month inside the horizon (a partial last month)
};

struct CloudMonthCost {
  double billed_gpu_hours = 0.0;
  double gpu_usd = 0.0;
  double egress_usd = 0.0;
  double storage_usd = 0.0;
  double total_usd() const { return gpu_usd + egress_usd + storage_usd; }
};

CloudMonthCost cloud_month_cost(const CloudOption& option, const CloudMonthUsage& usage);

}  // namespace dcsim::models::economics
