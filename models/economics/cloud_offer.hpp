#pragma once
// Cloud GPU offers: what renting a GPU-hour costs, and the presets registered as "cloud offer".
//
// An offer prices GPU-hours of one instance type under one purchase option:
//  - on_demand: every GPU-hour used is billed at usd_per_gpu_hour;
//  - reserved (committed use, term_years): the commitment is billed whether used or not
//    (cloud_cost.hpp bills max(used, committed) each month);
//  - spot: billed like on demand, but instances are preempted at preemptions_per_instance_hour
//    and the work since the last checkpoint is lost (cloud_cost.hpp bills the GPU-hours the
//    lost work takes again).
// The offer names its provider's egress tariff (a name in the "egress tariff" registry) and its
// object storage price; ingress is free at all three providers and has no price here.

#include <string>
#include <vector>

#include "models/economics/price_preset.hpp"

namespace dcsim::models::economics {

enum class CloudPurchase { kOnDemand, kReserved, kSpot };

const char* purchase_name(CloudPurchase purchase);

struct CloudGpuOffer {
  std::string name;
  std::string source;
  std::string as_of;
  std::string provider;  // "aws", "gcp", "azure"
  std::string instance;  // "p5.48xlarge"
  CloudPurchase purchase = CloudPurchase::kOnDemand;
  int gpus_per_instance = 8;
  double usd_per_gpu_hour = 0.0;
  double term_years = 0.0;                     // reserved: the commitment's length
  double preemptions_per_instance_hour = 0.0;  // spot only
  double storage_usd_per_gb_month = 0.0;       // object storage, per 1e9 bytes stored for a month
  std::string egress_tariff;                   // "aws-internet", ...
};

// sim::ConfigError naming the field (prefix + "usd_per_gpu_hour", ...) for a negative price,
// a non-positive GPU count, preemptions on an offer that is not spot, a reserved offer without a
// positive term.
void validate(const CloudGpuOffer& offer, const std::string& prefix);

std::vector<PriceField> price_fields(CloudGpuOffer& offer);

// Preemption rate per instance-hour from a monthly interruption frequency f (AWS's Spot Instance
// Advisor reports the share of instances interrupted over a month): -ln(1 - f) / 730.5 h.
double preemptions_per_hour_from_monthly_frequency(double monthly_frequency);

CloudGpuOffer aws_p5_on_demand();
CloudGpuOffer aws_p5_on_demand_2023();
CloudGpuOffer aws_p5_reserved_1y();
CloudGpuOffer aws_p5_reserved_3y();
CloudGpuOffer aws_p5_spot();
CloudGpuOffer azure_nd_h100_v5_on_demand();
CloudGpuOffer azure_nd_h100_v5_reserved_1y();
CloudGpuOffer azure_nd_h100_v5_reserved_3y();

void register_cloud_offers(sim::Registry<PricePresetFactory<CloudGpuOffer>>& registry);

}  // namespace dcsim::models::economics
