#include "models/economics/cloud_cost.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::economics {

double useful_fraction(const CloudOption& o) {
  if (o.offer.purchase != CloudPurchase::kSpot) return 1.0;
  const double instances_per_job = o.job_gpus / o.offer.gpus_per_instance;
  return 1.0 - instances_per_job * o.offer.preemptions_per_instance_hour * (o.lost_work_per_preemption_s / 3600.0);
}

void validate(const CloudOption& o, const std::string& prefix) {
  validate(o.offer, prefix + "offer.");
  validate(o.egress, prefix + "egress.");
  if (o.offer.purchase == CloudPurchase::kReserved && o.committed_gpus == 0.0) {
    throw sim::ConfigError(prefix + "committed_gpus",
                           "a reserved offer bills its commitment whether used or not: give the GPUs reserved "
                           "(the owned cluster's GPU count rents the same capacity)");
  }
  if (o.offer.purchase == CloudPurchase::kSpot) {
    if (o.job_gpus == 0.0) {
      throw sim::ConfigError(prefix + "job_gpus",
                             "a spot offer needs the GPUs one job spans: a preemption of any of its instances stops it");
    }
    const double u = useful_fraction(o);
    if (!(u > 0.0)) {
      throw sim::ConfigError(prefix + "lost_work_per_preemption_s",
                             "preemptions would leave no useful work (useful fraction " + format_number(u) +
                                 "): checkpoint more often than preemptions come");
    }
  }
}

CloudMonthCost cloud_month_cost(const CloudOption& o, const CloudMonthUsage& u) {
  CloudMonthCost c;
  c.billed_gpu_hours = u.delivered_gpu_hours / useful_fraction(o);
  if (o.offer.purchase == CloudPurchase::kReserved) {
    c.billed_gpu_hours = std::max(c.billed_gpu_hours, o.committed_gpus * u.month_hours);
  }
  c.gpu_usd = c.billed_gpu_hours * o.offer.usd_per_gpu_hour;
  c.egress_usd = egress_cost_usd(o.egress, u.egress_bytes);
  c.storage_usd = u.stored_gb_months * o.offer.storage_usd_per_gb_month;
  return c;
}

}  // namespace dcsim::models::economics
